"""The layer rules in pyproject.toml stay whole, and they do fail a wrong import.

``make test`` runs ``lint-imports``; these tests keep its configuration honest: the
storage contract names every core package a new module could hide in, and a planted
import from the wrong layer really breaks the run.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STORAGE_MAY_USE = {"core.errors", "core.store"}


def _contracts() -> list[dict[str, object]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts: list[dict[str, object]] = config["tool"]["importlinter"]["contracts"]
    return contracts


def _core_packages() -> set[str]:
    core = ROOT / "core"
    names = {p.stem for p in core.glob("*.py") if p.stem != "__init__"}
    names |= {p.name for p in core.iterdir() if (p / "__init__.py").exists()}
    return {f"core.{name}" for name in names}


def test_storage_contract_forbids_every_core_package_but_errors_and_store() -> None:
    storage = next(c for c in _contracts() if c.get("source_modules") == ["storage"])
    forbidden = set(storage["forbidden_modules"])  # type: ignore[call-overload]
    assert forbidden == _core_packages() - STORAGE_MAY_USE


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    lint = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(lint), "--no-cache"], cwd=tree, capture_output=True, text=True, timeout=300
    )


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("bot/leak.py", "import scenarios.booking\n", "Dependencies point down"),
        ("core/leak.py", "import storage\n", "Dependencies point down"),
        ("storage/leak.py", "import core.dispatcher\n", "Storage takes from core only"),
        ("portal/leak.py", "import core.errors\n", "The reference website stands alone"),
        ("scenarios/leak.py", "import playwright\n", "Only core.browser and the adapters"),
        ("mcpserver/leak.py", "import scenarios.booking\n", "The MCP server is a view"),
        ("mcpserver/leak2.py", "import storage\n", "The MCP server is a view"),
        # An adapter takes a scenario's models and errors, never the scenario itself.
        ("adapters/leak.py", "import scenarios.booking\n", "Dependencies point down"),
        ("adapters/leak2.py", "import scenarios.events.port\n", "Dependencies point down"),
        ("scenarios/events/models.py", "import scenarios.booking\n", "A scenario's port"),
        ("scenarios/events/errors.py", "import adapters\n", "A scenario's port"),
        ("core/leak3.py", "import scenarios.events.create\n", "Core is the engine"),
        ("scenarios/events/leak.py", "import scenarios.booking.work\n", "A job is a plug-in"),
        ("scenarios/booking/leak.py", "import scenarios.events.site\n", "A job is a plug-in"),
    ],
)
def test_a_wrong_import_breaks_lint_imports(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    tree = tmp_path / "tree"
    packages = ("app", "adapters", "bot", "core", "mcpserver", "portal", "scenarios", "storage")
    for package in packages:
        shutil.copytree(ROOT / package, tree / package, ignore=shutil.ignore_patterns("*.pyc"))
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    assert _lint(tree).returncode == 0, "the unchanged tree must pass"

    (tree / module).write_text(line, encoding="utf-8")
    result = _lint(tree)

    assert result.returncode != 0
    # the named contract's own verdict (the next one printed after its name)
    after = result.stdout[result.stdout.index(contract) :]
    verdicts = [word for word in after.split() if word in ("KEPT", "BROKEN")]
    assert verdicts[0] == "BROKEN", result.stdout
