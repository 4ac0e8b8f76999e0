"""A private, throw-away Indico 3.2.9 (room booking on) for tests, CI and developers.

Indico's pins clash with ours, so it lives in its own virtualenv (``.indico-venv`` in the
repository root, reused while its version matches). Each start gets a fresh PostgreSQL
cluster, a redis-server and an ``indico.conf`` under a work directory, all on free
127.0.0.1 ports; every child dies with us (PDEATHSIG) and runs in its own session.

Standard library only. From the repository root, ``python3 -m scripts.indico.stack install``
sets up the venv and ``python3 -m scripts.indico.stack up`` runs a seeded instance until
Ctrl-C. The test fixture (``tests/support/indico_server.py``) imports :func:`running_indico`.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from string import Template

from scripts.indico.services import (
    APT_FIX,
    MissingPrerequisite,
    free_port,
    postgres,
    redis,
    run_logged,
    spawn,
    stop,
    wait_http,
)

__all__ = [
    "INDICO_VERSION",
    "REPO_ROOT",
    "IndicoStack",
    "MissingPrerequisite",
    "ensure_venv",
    "running_indico",
]

INDICO_VERSION = "3.2.9"
HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
DEFAULT_VENV = REPO_ROOT / ".indico-venv"


# --- the Indico virtualenv -------------------------------------------------------------


def _venv_version(venv: Path) -> str | None:
    marker = venv / ".indico-version"
    if marker.exists() and (venv / "bin" / "indico").exists():
        return marker.read_text().strip()
    return None


def ensure_venv(venv: Path = DEFAULT_VENV, log: Path | None = None) -> Path:
    """Create the venv and ``pip install indico==3.2.9`` unless it is already there."""
    if _venv_version(venv) == INDICO_VERSION:
        return venv
    if sys.version_info[:2] != (3, 11):
        raise MissingPrerequisite(f"Indico {INDICO_VERSION} needs Python 3.11, not {sys.version}")
    if shutil.which("pg_config") is None or shutil.which("gcc") is None:
        # psycopg2 (Indico's pin) builds from source against libpq.
        raise MissingPrerequisite(f"psycopg2 needs libpq-dev and gcc: {APT_FIX}")
    log = log or Path(tempfile.gettempdir()) / "indico-venv-install.log"
    if venv.exists():
        shutil.rmtree(venv)
    base_python = getattr(sys, "_base_executable", sys.executable)
    run_logged([base_python, "-m", "venv", str(venv)], log)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    run_logged([*pip, "--upgrade", "pip", "wheel"], log)
    run_logged([*pip, f"indico=={INDICO_VERSION}"], log)
    (venv / ".indico-version").write_text(INDICO_VERSION + "\n")
    return venv


# --- Indico ----------------------------------------------------------------------------


@dataclass(frozen=True)
class IndicoStack:
    """A running instance: where it answers and how to reach its database."""

    base_url: str
    workdir: Path
    venv: Path
    pg_port: int
    redis_url: str
    config_path: Path
    psql_bin: Path
    timezone: str

    @property
    def python(self) -> Path:
        return self.venv / "bin" / "python"

    def env(self) -> dict[str, str]:
        """The environment an Indico process (CLI, seed script) needs."""
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
        env["INDICO_CONFIG"] = str(self.config_path)
        # Indico stores and shows times in DEFAULT_TIMEZONE, but checks a room's
        # max_advance_days against ``date.today()``, the process's local date: a server
        # runs in its own zone, else for hours each night the two dates differ by one.
        env["TZ"] = self.timezone
        env["PATH"] = f"{self.venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        # Indico looks up passwords in an online breach list at login (and may fetch other
        # things): a closed loopback proxy makes every outbound HTTP(S) call fail at once.
        for name in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
            env[name] = "http://127.0.0.1:9"
        env["NO_PROXY"] = env["no_proxy"] = "127.0.0.1,localhost"
        return env

    def psql(self, sql: str) -> str:
        """Run SQL as the database owner over loopback TCP; return psql's unaligned output."""
        out = subprocess.run(
            [str(self.psql_bin), "-h", "127.0.0.1", "-p", str(self.pg_port), "-U", "indico"]
            + ["-d", "indico", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-c", sql],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode != 0:
            raise RuntimeError(f"psql failed: {out.stderr.strip()}")
        return out.stdout

    def tool(self, *args: str, stdin: str | None = None) -> str:
        """Run ``scripts/indico/seed.py`` with Indico's python; return its stdout (JSON)."""
        out = subprocess.run(
            [str(self.python), str(HERE / "seed.py"), *args],
            input=stdin,
            capture_output=True,
            text=True,
            env=self.env(),
            check=False,
        )
        if out.returncode != 0:
            raise RuntimeError(f"seed.py {args[0] if args else ''} failed:\n{out.stderr[-3000:]}")
        return out.stdout


def _write_config(
    workdir: Path, venv: Path, base_url: str, pg_port: int, redis_url: str, tz: str
) -> Path:
    for sub in ("cache", "tmp", "log", "archive"):
        (workdir / sub).mkdir(exist_ok=True)
    text = Template((HERE / "indico.conf.in").read_text()).substitute(
        base_url=base_url,
        db_uri=f"postgresql://indico@127.0.0.1:{pg_port}/indico",
        redis_url=redis_url,
        secret_key=secrets.token_hex(32),
        workdir=str(workdir),
        timezone=tz,
    )
    path = workdir / "indico.conf"
    path.write_text(text)
    # Indico's sample logging config (files under LOG_DIR); without one it warns on start.
    for sample in venv.glob("lib/python*/site-packages/indico/logging.yaml.sample"):
        shutil.copyfile(sample, workdir / "logging.yaml")
    return path


@contextmanager
def running_indico(
    workdir: Path,
    venv: Path = DEFAULT_VENV,
    seed: dict[str, object] | None = None,
    timezone: str = "Europe/Moscow",
) -> Iterator[tuple[IndicoStack, dict[str, object]]]:
    """Install if needed, start postgres + redis + Indico, seed, yield; stop all on exit.

    Yields the stack and the seed script's report (users, rooms, bookings with their ids).
    """
    venv = ensure_venv(venv, workdir / "venv-install.log")
    workdir.mkdir(parents=True, exist_ok=True)
    workdir.chmod(0o755)  # the postgres account must reach pgdata inside
    logs = workdir / "logs"
    logs.mkdir(exist_ok=True)
    timings: dict[str, float] = {}
    clock = time.monotonic()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.monotonic()
        timings[name] = round(now - clock, 2)
        clock = now

    with ExitStack() as stack:
        pg_port, psql_bin = stack.enter_context(postgres(workdir, logs))
        redis_url = stack.enter_context(redis(logs))
        lap("postgres+redis")
        http_port = free_port()
        base_url = f"http://127.0.0.1:{http_port}"
        config = _write_config(workdir, venv, base_url, pg_port, redis_url, timezone)
        indico = IndicoStack(
            base_url, workdir, venv, pg_port, redis_url, config, psql_bin, timezone
        )
        indico_bin = str(venv / "bin" / "indico")
        run_logged([indico_bin, "db", "prepare"], logs / "db-prepare.log", indico.env())
        lap("db prepare")
        # The server boots (imports Indico) while the seed script runs: two cores, two jobs.
        log = logs / "indico.log"
        argv = [indico_bin, "run", "-h", "127.0.0.1", "-p", str(http_port), "--reloader", "none"]
        proc = spawn([*argv, "-q"], log, indico.env())
        stack.callback(stop, proc)
        report = json.loads(indico.tool("seed", stdin=json.dumps(seed or {})))
        lap("seed")
        wait_http(f"{base_url}/login/", proc, log, 120)
        lap("indico answers")
        (logs / "timings.json").write_text(json.dumps(timings) + "\n")
        yield indico, report


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="create/reuse the Indico virtualenv")
    up = sub.add_parser("up", help="run a seeded instance until Ctrl-C")
    up.add_argument("--workdir", type=Path, help="default: a new temporary directory")
    up.add_argument("--seed", type=Path, help="JSON seed spec (default: scripts/indico/seed.json)")
    args = parser.parse_args(argv)
    try:
        if args.command == "install":
            started = time.monotonic()
            print(ensure_venv(), f"({time.monotonic() - started:.0f} s)")
            return 0
        workdir = args.workdir or Path(tempfile.mkdtemp(prefix="indico-"))
        seed = json.loads(args.seed.read_text()) if args.seed else None
        with running_indico(workdir, seed=seed) as (indico, report):
            print(f"Indico at {indico.base_url} (work dir {workdir}); Ctrl-C stops it", flush=True)
            users = report.get("users", {})
            if isinstance(users, dict):
                for name in users:
                    print(f"  user {name}: password in {HERE / 'seed.json'}", flush=True)
            # SIGTERM too (and SIGINT even where a background shell ignores it): stop cleanly.
            for sig in (signal.SIGINT, signal.SIGTERM):
                signal.signal(sig, _interrupt)
            with suppress(KeyboardInterrupt):
                signal.pause()
        return 0
    except MissingPrerequisite as exc:
        print(f"missing prerequisite: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
