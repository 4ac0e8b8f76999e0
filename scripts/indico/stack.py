"""A private, throw-away Indico 3.2.9 (room booking on) for tests, CI and developers.

Indico's pins clash with ours, so it lives in its own virtualenv (``.indico-venv`` in the
repository root, reused while its version matches). Each start gets a fresh PostgreSQL
cluster, a redis-server and an ``indico.conf`` under a work directory, all on free
127.0.0.1 ports; every child dies with us (PDEATHSIG) and runs in its own session.

Standard library only: ``python3 scripts/indico/stack.py install`` sets up the venv,
``python3 scripts/indico/stack.py up`` runs a seeded instance until Ctrl-C. The test
fixture (``tests/support/indico_server.py``) imports :func:`running_indico`.
"""

from __future__ import annotations

import argparse
import ctypes
import json
import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from string import Template

__all__ = [
    "INDICO_VERSION",
    "REPO_ROOT",
    "IndicoStack",
    "MissingPrerequisite",
    "ensure_venv",
    "postgres_bindir",
    "running_indico",
]

INDICO_VERSION = "3.2.9"
HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
DEFAULT_VENV = REPO_ROOT / ".indico-venv"
_APT_FIX = "apt-get install -y postgresql libpq-dev redis-server gcc"


class MissingPrerequisite(RuntimeError):
    """Something the machine lacks; the message carries the command that fixes it."""


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(
    argv: Sequence[str], log: Path, env: dict[str, str] | None = None, user: str | None = None
) -> None:
    """Run to completion; on failure raise with the tail of its output (logs hold no secrets)."""
    with log.open("ab") as out:
        rc = subprocess.call(
            list(argv), stdout=out, stderr=subprocess.STDOUT, env=env, user=user, cwd="/"
        )
    if rc != 0:
        tail = log.read_text(errors="replace")[-3000:]
        raise RuntimeError(f"{argv[0]} {argv[1] if len(argv) > 1 else ''} failed ({rc}):\n{tail}")


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
        raise MissingPrerequisite(f"psycopg2 needs libpq-dev and gcc: {_APT_FIX}")
    log = log or Path(tempfile.gettempdir()) / "indico-venv-install.log"
    if venv.exists():
        shutil.rmtree(venv)
    base_python = getattr(sys, "_base_executable", sys.executable)
    _run([base_python, "-m", "venv", str(venv)], log)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "-q"]
    _run([*pip, "--upgrade", "pip", "wheel"], log)
    _run([*pip, f"indico=={INDICO_VERSION}"], log)
    (venv / ".indico-version").write_text(INDICO_VERSION + "\n")
    return venv


# --- PostgreSQL, redis, Indico ---------------------------------------------------------


def postgres_bindir() -> Path:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise MissingPrerequisite(f"PostgreSQL server binaries are missing: {_APT_FIX}")


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


def _spawn(
    argv: Sequence[str], log: Path, env: dict[str, str] | None = None, user: str | None = None
) -> subprocess.Popen[bytes]:
    with log.open("ab") as out:
        return subprocess.Popen(
            list(argv),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=env,
            user=user,
            start_new_session=True,
            preexec_fn=_die_with_parent,  # after setuid, which would clear PDEATHSIG
        )


def _stop(proc: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} before listening")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on {port} within {timeout:.0f} s")


def _wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            tail = log.read_text(errors="replace")[-3000:]
            raise RuntimeError(f"indico exited with {proc.returncode}:\n{tail}")
        try:
            with urllib.request.urlopen(url, timeout=5) as resp:
                if resp.status < 500:
                    return
        except urllib.error.HTTPError as exc:
            if exc.code < 500:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"indico did not answer {url} within {timeout:.0f} s")


def _pg_user() -> str | None:
    """PostgreSQL refuses to run as root: use the ``postgres`` (or ``nobody``) account then."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
        except KeyError:
            continue
        return name
    raise MissingPrerequisite(f"no unprivileged account for PostgreSQL: {_APT_FIX}")


@contextmanager
def _postgres(workdir: Path, logs: Path) -> Iterator[tuple[int, Path]]:
    bindir = postgres_bindir()
    user = _pg_user()
    pgdata = workdir / "pgdata"
    pgdata.mkdir(mode=0o700)
    if user is not None:
        pw = pwd.getpwnam(user)
        os.chown(pgdata, pw.pw_uid, pw.pw_gid)
        os.chown(logs, pw.pw_uid, pw.pw_gid)
    log = logs / "postgres.log"
    _run(
        [str(bindir / "initdb"), "-D", str(pgdata), "-U", "postgres", "--auth=trust"]
        + ["-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
        log,
        user=user,
    )
    port = _free_port()
    proc = _spawn(
        [str(bindir / "postgres"), "-D", str(pgdata), "-p", str(port), "-h", "127.0.0.1"]
        + ["-k", "", "-c", "fsync=off", "-c", "synchronous_commit=off"]
        + ["-c", "full_page_writes=off", "-c", "max_connections=50"],
        log,
        user=user,
    )
    try:
        _wait_port(port, proc, "postgres", 30)
        psql = [str(bindir / "psql"), "-h", "127.0.0.1", "-p", str(port), "-X", "-q"]
        psql += ["-v", "ON_ERROR_STOP=1"]
        _run([*psql, "-U", "postgres", "-d", "postgres", "-c", "CREATE ROLE indico LOGIN"], log)
        _run(
            [
                *psql,
                "-U",
                "postgres",
                "-d",
                "postgres",
                "-c",
                "CREATE DATABASE indico OWNER indico",
            ],
            log,
        )
        exts = "CREATE EXTENSION unaccent; CREATE EXTENSION pg_trgm;"
        _run([*psql, "-U", "postgres", "-d", "indico", "-c", exts], log)
        yield port, bindir / "psql"
    finally:
        _stop(proc, signal.SIGINT)  # fast shutdown


@contextmanager
def _redis(logs: Path) -> Iterator[str]:
    executable = shutil.which("redis-server")
    if executable is None:
        raise MissingPrerequisite(f"redis-server is missing: {_APT_FIX}")
    port = _free_port()
    argv = [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
    argv += ["no", "--dir", str(logs)]
    proc = _spawn(argv, logs / "redis.log")
    try:
        _wait_port(port, proc, "redis-server", 10)
        yield f"redis://127.0.0.1:{port}"
    finally:
        _stop(proc)


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
    with ExitStack() as stack:
        pg_port, psql_bin = stack.enter_context(_postgres(workdir, logs))
        redis_url = stack.enter_context(_redis(logs))
        http_port = _free_port()
        base_url = f"http://127.0.0.1:{http_port}"
        config = _write_config(workdir, venv, base_url, pg_port, redis_url, timezone)
        indico = IndicoStack(
            base_url, workdir, venv, pg_port, redis_url, config, psql_bin, timezone
        )
        _run([str(venv / "bin" / "indico"), "db", "prepare"], logs / "db-prepare.log", indico.env())
        report = json.loads(indico.tool("seed", stdin=json.dumps(seed or {})))
        log = logs / "indico.log"
        argv = [str(venv / "bin" / "indico"), "run", "-h", "127.0.0.1", "-p", str(http_port)]
        proc = _spawn([*argv, "--reloader", "none", "-q"], log, indico.env())
        stack.callback(_stop, proc)
        _wait_http(f"{base_url}/login/", proc, log, 60)
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
