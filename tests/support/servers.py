"""Real server processes for tests: redis-server and SecantusDB on free loopback ports.

They are started with PDEATHSIG so a killed test run leaves nothing behind.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from storage.local_mongo import secantus_args, secantus_uri
from storage.process import die_with_parent, find_executable, free_port

__all__ = [
    "Restartable",
    "restartable",
    "redis_argv",
    "running_redis",
    "running_secantus",
    "secantus_argv",
]


def _wait_port(port: int, proc: subprocess.Popen[bytes], timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{proc.args!r} exited with {proc.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{proc.args!r} did not listen on {port} within {timeout} s")


def redis_argv(workdir: Path, port: int, *, keep_data: bool = False) -> list[str]:
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError("redis-server is not installed: apt-get install redis-server")
    persistence = ["--appendonly", "yes"] if keep_data else ["--save", "", "--appendonly", "no"]
    return [
        executable,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        *persistence,
        "--dir",
        str(workdir),
    ]


def secantus_argv(port: int, storage_path: str = ":memory:") -> list[str]:
    executable = find_executable("secantusd-py")
    if executable is None:
        raise RuntimeError("secantusd-py is missing: pip install -e '.[local]'")
    return [executable, *secantus_args(port, storage_path)]


@contextmanager
def running_redis(workdir: Path) -> Iterator[str]:
    port = free_port()
    with restartable(redis_argv(workdir, port), port, workdir / "redis.log", timeout=10):
        yield f"redis://127.0.0.1:{port}/0"


@contextmanager
def running_secantus(workdir: Path, storage_path: str = ":memory:") -> Iterator[str]:
    port = free_port()
    log = workdir / f"secantus-{port}.log"
    with restartable(secantus_argv(port, storage_path), port, log):
        yield secantus_uri(port)


class Restartable:
    """A server process on a loopback port; a test may stop it and start it again on the
    same port (an outage)."""

    def __init__(self, argv: Sequence[str], port: int, log: Path, *, timeout: float = 30) -> None:
        self._argv = list(argv)
        self._port = port
        self._log = log
        self._timeout = timeout  # to start listening
        self._proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self._log.open("ab") as out:
            self._proc = subprocess.Popen(
                self._argv, stdout=out, stderr=subprocess.STDOUT, preexec_fn=die_with_parent
            )
        _wait_port(self._port, self._proc, self._timeout)

    def stop(self) -> None:
        if self._proc is not None:
            self._proc.terminate()
            try:
                self._proc.wait(10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()
            self._proc = None


@contextmanager
def restartable(
    argv: Sequence[str], port: int, log: Path, *, timeout: float = 30
) -> Iterator[Restartable]:
    server = Restartable(argv, port, log, timeout=timeout)
    server.start()
    try:
        yield server
    finally:
        server.stop()
