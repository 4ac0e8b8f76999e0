"""SecantusDB launched as a subprocess: the zero-config and test stand-in for MongoDB.

SecantusDB is GPL-2.0, so it is only ever run as a separate program
(``secantusd-py``), never imported.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from core.errors import StorageUnavailable
from storage.process import ChildProcess, find_executable, free_port, wait_for_port

__all__ = ["MEMORY", "local_mongo", "secantus_args", "secantus_uri"]

MEMORY = ":memory:"
_EXECUTABLE = "secantusd-py"
# SecantusDB serves each connection on its own thread but runs one command at a time
# (Python, one storage lock): past a few connections, more only add threads fighting
# over the GIL. pymongo's default pool (100) let a burst of first messages open dozens;
# capped at 8, bench.bot ran ~15% more updates/s with p99 down from ~200 to ~135 ms.
_POOL_SIZE = 8


def secantus_uri(port: int) -> str:
    """The URI for a SecantusDB on this machine, its connection pool sized for it.

    Without retryable writes: SecantusDB keeps a record of each one and prunes them all
    at every write (a quarter of its CPU under load, measured), while a lost write to a
    process on this machine has no failover for a retry to wait out."""
    return f"mongodb://127.0.0.1:{port}/?maxPoolSize={_POOL_SIZE}&retryWrites=false"


def secantus_args(port: int, storage_path: str) -> list[str]:
    """``secantusd-py``'s arguments (after the executable): on loopback, quiet, standalone.

    Standalone, as production's MongoDB (docker-compose) is. Advertised as a replica set,
    SecantusDB also writes each change to an oplog, for change streams we never open: a
    seventh of its CPU in the Telegram fuzz test (measured)."""
    return [
        "--host", "127.0.0.1", "--port", str(port), "--storage-path", storage_path,
        "--log-level", "WARNING", "--standalone",
    ]  # fmt: skip


@asynccontextmanager
async def local_mongo(
    storage_path: Path | str, *, startup_timeout: float = 30.0, log_path: Path | None = None
) -> AsyncIterator[str]:
    """Start SecantusDB on a free loopback port; yield its ``mongodb://`` URI."""
    executable = find_executable(_EXECUTABLE)
    if executable is None:
        raise StorageUnavailable(
            "no MONGODB_URI is set and SecantusDB is not installed",
            hint="pip install 'clubman[local]', or set MONGODB_URI=mongodb://host:27017",
        )
    if str(storage_path) != MEMORY:
        Path(storage_path).mkdir(parents=True, exist_ok=True)
    port = free_port()
    child = ChildProcess([executable, *secantus_args(port, str(storage_path))], log_path=log_path)
    await child.start()
    try:
        if not await wait_for_port("127.0.0.1", port, timeout=startup_timeout):
            raise StorageUnavailable(
                f"SecantusDB did not start within {startup_timeout:.0f} s",
                hint=f"check {log_path or 'its output'}; or set MONGODB_URI to a real MongoDB",
            )
        yield secantus_uri(port)
    finally:
        await child.stop()
