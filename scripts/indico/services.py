"""Child processes for the test Indico: a private PostgreSQL cluster and a redis-server.

Every child gets PDEATHSIG (the kernel kills it when we die) and its own session (a
terminal Ctrl-C reaches only us, and we stop children in order). PostgreSQL refuses to
run as root, so as root the cluster runs as the ``postgres`` account.
"""

from __future__ import annotations

import ctypes
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

__all__ = [
    "APT_FIX",
    "MissingPrerequisite",
    "cluster",
    "free_port",
    "postgres",
    "postgres_bindir",
    "redis",
    "run_logged",
    "spawn",
    "stop",
    "wait_http",
]

APT_FIX = "apt-get install -y postgresql libpq-dev redis-server gcc"


class MissingPrerequisite(RuntimeError):
    """Something the machine lacks; the message carries the command that fixes it."""


def die_with_parent() -> None:  # pragma: no cover - runs in the child
    libc = ctypes.CDLL("libc.so.6", use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def run_logged(
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


def postgres_bindir() -> Path:
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: int(p.parent.parent.name)
    )
    if found:
        return found[-1].parent
    initdb = shutil.which("initdb")
    if initdb:
        return Path(initdb).parent
    raise MissingPrerequisite(f"PostgreSQL server binaries are missing: {APT_FIX}")


def spawn(
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
            preexec_fn=die_with_parent,  # after setuid, which would clear PDEATHSIG
        )


def stop(proc: subprocess.Popen[Any], sig: int = signal.SIGTERM) -> None:
    if proc.poll() is None:
        proc.send_signal(sig)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float) -> None:
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


def wait_http(url: str, proc: subprocess.Popen[bytes], log: Path, timeout: float) -> None:
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
    raise MissingPrerequisite(f"no unprivileged account for PostgreSQL: {APT_FIX}")


def _wait_accepting(bindir: Path, port: int, seconds: float) -> None:
    """Until PostgreSQL answers «accepting connections» (``pg_isready``), not «starting up»."""
    argv = [str(bindir / "pg_isready"), "-h", "127.0.0.1", "-p", str(port), "-q"]
    deadline = time.monotonic() + seconds
    while subprocess.call(argv) != 0:
        if time.monotonic() > deadline:
            raise RuntimeError(f"postgres on port {port} did not accept connections in {seconds} s")
        time.sleep(0.1)


@contextmanager
def cluster(workdir: Path, logs: Path) -> Iterator[tuple[int, Path]]:
    """A throw-away PostgreSQL cluster in ``workdir``, trusting local connections, on a free
    loopback port: yields the port and its psql (for Indico, and for the tests' MRBS)."""
    bindir = postgres_bindir()
    user = _pg_user()
    pgdata = workdir / "pgdata"
    pgdata.mkdir(mode=0o700)
    if user is not None:
        pw = pwd.getpwnam(user)
        os.chown(pgdata, pw.pw_uid, pw.pw_gid)
        os.chown(logs, pw.pw_uid, pw.pw_gid)
    log = logs / "postgres.log"
    run_logged(
        [str(bindir / "initdb"), "-D", str(pgdata), "-U", "postgres", "--auth=trust"]
        + ["-E", "UTF8", "--locale=C.UTF-8", "--no-sync"],
        log,
        user=user,
    )
    port = free_port()
    proc = spawn(
        [str(bindir / "postgres"), "-D", str(pgdata), "-p", str(port), "-h", "127.0.0.1"]
        + ["-k", "", "-c", "fsync=off", "-c", "synchronous_commit=off"]
        + ["-c", "full_page_writes=off", "-c", "max_connections=50"],
        log,
        user=user,
    )
    try:
        wait_port(port, proc, "postgres", 30)
        _wait_accepting(bindir, port, 30)  # the port opens before it takes connections
        yield port, bindir / "psql"
    finally:
        stop(proc, signal.SIGINT)  # fast shutdown


@contextmanager
def postgres(workdir: Path, logs: Path) -> Iterator[tuple[int, Path]]:
    """Indico's cluster: its role, its database and the extensions it needs."""
    with cluster(workdir, logs) as (port, psql_bin):
        psql = [str(psql_bin), "-h", "127.0.0.1", "-p", str(port), "-X", "-q"]
        psql += ["-v", "ON_ERROR_STOP=1", "-U", "postgres"]
        log = logs / "postgres.log"
        run_logged([*psql, "-d", "postgres", "-c", "CREATE ROLE indico LOGIN"], log)
        run_logged([*psql, "-d", "postgres", "-c", "CREATE DATABASE indico OWNER indico"], log)
        exts = "CREATE EXTENSION unaccent; CREATE EXTENSION pg_trgm;"
        run_logged([*psql, "-d", "indico", "-c", exts], log)
        yield port, psql_bin


@contextmanager
def redis(logs: Path) -> Iterator[str]:
    executable = shutil.which("redis-server")
    if executable is None:
        raise MissingPrerequisite(f"redis-server is missing: {APT_FIX}")
    port = free_port()
    argv = [executable, "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly"]
    argv += ["no", "--dir", str(logs)]
    proc = spawn(argv, logs / "redis.log")
    try:
        wait_port(port, proc, "redis-server", 10)
        yield f"redis://127.0.0.1:{port}"
    finally:
        stop(proc)
