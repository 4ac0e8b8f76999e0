"""Mutation testing of the modules where a silent bug costs most (issue 31): ``make mutants``.

Each module is mutated by mutmut 3 against its own fast tests only, in its own copy of
the work tree under ``.mutants/<module>/`` (the tree itself is never touched, so others
can go on testing in it). mutmut runs each mutant in a fork of one warmed-up pytest,
and only the tests that reach the mutated function. Prints, per module, how many
mutants there were, how many the tests killed and which survived (with their diffs).
Not in CI: a few minutes per module on two cores.

    python -m scripts.mutants                          # every module below
    python -m scripts.mutants core/browser/guard.py    # some of them
    cd .mutants/core.browser.guard && mutmut show NAME  # a mutant again, afterwards
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = ROOT / ".mutants"
PACKAGES = ["app", "adapters", "bot", "core", "mcpserver", "portal", "scenarios", "storage"]
ALSO_COPY = ["profiles/"]

# Each module and the smallest set of fast tests that covers it (no Chromium or Indico
# where avoidable; the guard is about Chromium, so its tests drive one).
MODULES: dict[str, list[str]] = {
    "scenarios/booking/selection.py": ["tests/scenarios/test_selection.py"],
    "scenarios/booking/book.py": ["tests/scenarios/test_booking_resume.py"],
    "core/nlu/times.py": ["tests/core/nlu/test_times.py", "tests/core/nlu/test_evening_hour.py"],
    "core/nlu/dates.py": ["tests/core/nlu/test_dates.py"],
    "bot/middlewares/access.py": [
        "tests/bot/test_access.py",
        "tests/bot/test_stranger_callbacks.py",
    ],
    "core/replies.py": ["tests/core/test_replies.py", "tests/storage/test_reply_marks.py"],
    "core/browser/guard.py": [
        "tests/core/browser/test_guard_endpoints.py",
        "tests/core/browser/test_guard.py",
        "tests/core/browser/test_guard_windows.py",
    ],
    "adapters/profile/template.py": ["tests/adapters/profile/test_loader.py"],
}


def _toml_list(items: list[str]) -> str:
    return "[" + ", ".join(f'"{item}"' for item in items) + "]"


def _copy_tree(into: Path) -> None:
    """The work tree as git sees it (tracked and new files, nothing ignored) into ``into``."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = into / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def _prepare(module: str, tests: list[str]) -> Path:
    workdir = WORK / module.removesuffix(".py").replace("/", ".")
    shutil.rmtree(workdir, ignore_errors=True)
    workdir.mkdir(parents=True)
    _copy_tree(workdir)
    with (workdir / "pyproject.toml").open("a") as pyproject:
        pyproject.write(
            "\n[tool.mutmut]\n"
            f"source_paths = {_toml_list([p + '/' for p in PACKAGES])}\n"
            f"only_mutate = {_toml_list([module])}\n"
            # data the tests read beside the code (site profiles)
            f"also_copy = {_toml_list(ALSO_COPY)}\n"
            f"pytest_add_cli_args_test_selection = {_toml_list(tests)}\n"
            'pytest_add_cli_args = ["-p", "no:cacheprovider", "-q"]\n'
        )
    return workdir


def _mutmut(workdir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run(
        [sys.executable, "-m", "mutmut", *args],
        cwd=workdir,
        env=env,
        capture_output=True,
        text=True,
    )


def _statuses(workdir: Path) -> dict[str, str]:
    listed = _mutmut(workdir, "results", "--all", "true").stdout
    found: dict[str, str] = {}
    for line in listed.splitlines():
        name, sep, status = line.strip().rpartition(": ")
        if sep and name:
            found[name] = status
    return found


def run_module(module: str, tests: list[str], *, children: int) -> tuple[Counter[str], float]:
    workdir = _prepare(module, tests)
    started = time.monotonic()
    ran = _mutmut(workdir, "run", "--max-children", str(children))
    took = time.monotonic() - started
    (workdir / "run.log").write_text(ran.stdout + ran.stderr)
    statuses = _statuses(workdir)
    counts = Counter(statuses.values())
    if ran.returncode != 0 or not statuses:
        print(f"{module}: mutmut failed (exit {ran.returncode}), see {workdir}/run.log")
        counts["error"] += 1
    for name, status in sorted(statuses.items()):
        if status != "killed":
            print(f"\n{status}: {name}")
            shown = _mutmut(workdir, "show", name).stdout
            print("\n".join(line for line in shown.splitlines() if line[:1] in "-+@"))
    return counts, took


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all)")
    parser.add_argument("--children", type=int, default=2, help="mutants run at once")
    args = parser.parse_args(argv)
    unknown = [m for m in args.modules if m not in MODULES]
    if unknown:
        parser.error(f"no tests listed for {', '.join(unknown)}; known: {', '.join(MODULES)}")
    rows = []
    for module in args.modules or list(MODULES):
        counts, took = run_module(module, MODULES[module], children=args.children)
        rows.append((module, counts, took))
    print(f"\n{'module':40} {'mutants':>7} {'killed':>6} {'survived':>8} {'other':>5} "
          f"{'survival':>8} {'seconds':>7}")  # fmt: skip
    for module, counts, took in rows:
        total = sum(counts.values())
        killed, survived = counts["killed"], counts["survived"]
        other = total - killed - survived
        rate = f"{100 * survived / total:.1f}%" if total else "-"
        print(f"{module:40} {total:7} {killed:6} {survived:8} {other:5} {rate:>8} {took:7.0f}")
    return 1 if any(counts["error"] for _, counts, _ in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
