"""Child server processes (SecantusDB, redis-server) that never outlive us.

A child gets ``PR_SET_PDEATHSIG`` so the kernel sends it SIGTERM if our process
dies without cleaning up (SIGKILL, crash); on a normal exit we stop it ourselves.
It runs in its own session so a terminal Ctrl-C reaches only us, and we shut it
down in order.
"""

from __future__ import annotations

import asyncio
import ctypes
import os
import signal
import socket
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["ChildProcess", "die_with_parent", "find_executable", "free_port", "wait_for_port"]

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:  # pragma: no cover - runs in the child
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def find_executable(name: str) -> str | None:
    """Prefer the executable installed beside our interpreter (the venv), then PATH."""
    beside = Path(sys.executable).parent / name
    if beside.exists():
        return str(beside)
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        candidate = Path(folder) / name
        if candidate.exists() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


async def wait_for_port(host: str, port: int, *, timeout: float) -> bool:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        try:
            _, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        await writer.wait_closed()
        return True
    return False


class ChildProcess:
    """A server subprocess with captured output, stopped with SIGTERM then SIGKILL."""

    def __init__(self, argv: Sequence[str], *, log_path: Path | None = None) -> None:
        self._argv = list(argv)
        self._log_path = log_path
        self._proc: asyncio.subprocess.Process | None = None

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    async def start(self) -> None:
        log = open(self._log_path, "ab") if self._log_path else None  # noqa: SIM115
        try:
            self._proc = await asyncio.create_subprocess_exec(
                *self._argv,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log or asyncio.subprocess.DEVNULL,
                stderr=asyncio.subprocess.STDOUT,
                preexec_fn=die_with_parent,
                start_new_session=True,
            )
        finally:
            if log:
                log.close()

    async def stop(self, *, grace: float = 10.0) -> None:
        proc = self._proc
        if proc is None or proc.returncode is not None:
            return
        proc.send_signal(signal.SIGTERM)
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            proc.kill()
            await proc.wait()
