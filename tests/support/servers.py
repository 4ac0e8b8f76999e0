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

from storage.local_mongo import secantus_uri
from storage.process import die_with_parent, find_executable, free_port

__all__ = ["running_redis", "running_secantus"]


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


@contextmanager
def _server(argv: Sequence[str], port: int, log: Path, timeout: float) -> Iterator[int]:
    with log.open("wb") as out:
        proc = subprocess.Popen(
            list(argv), stdout=out, stderr=subprocess.STDOUT, preexec_fn=die_with_parent
        )
    try:
        _wait_port(port, proc, timeout)
        yield proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def running_redis(workdir: Path) -> Iterator[str]:
    executable = shutil.which("redis-server")
    if executable is None:
        raise RuntimeError("redis-server is not installed: apt-get install redis-server")
    port = free_port()
    argv = [
        executable,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        str(workdir),
    ]
    with _server(argv, port, workdir / "redis.log", 10):
        yield f"redis://127.0.0.1:{port}/0"


@contextmanager
def running_secantus(workdir: Path, storage_path: str = ":memory:") -> Iterator[str]:
    executable = find_executable("secantusd-py")
    if executable is None:
        raise RuntimeError("secantusd-py is missing: pip install -e '.[local]'")
    port = free_port()
    argv = [
        executable,
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--storage-path",
        storage_path,
        "--log-level",
        "WARNING",
    ]
    with _server(argv, port, workdir / f"secantus-{port}.log", 30):
        yield secantus_uri(port)
