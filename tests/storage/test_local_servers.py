"""The zero-config path: SecantusDB started by ``open_storage``, persistent, never orphaned."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from pymongo.uri_parser import parse_uri

from core.errors import ConfigError, StorageUnavailable
from core.store import Direction
from storage import open_storage
from storage.process import free_port


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie still answers kill(0); it is dead for our purposes.
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().split()[2] != "Z"


async def test_local_secantus_keeps_data_across_restarts(tmp_path: Path) -> None:
    async with open_storage(mongodb_uri=None, redis_url=None, data_dir=tmp_path) as storage:
        await storage.conversations.append(chat_id=1, direction=Direction.IN, text="привет")
    async with open_storage(mongodb_uri=None, redis_url=None, data_dir=tmp_path) as storage:
        history = await storage.conversations.history(1)
    assert [m.text for m in history] == ["привет"]
    assert (tmp_path / "secantus").is_dir()


async def test_local_secantus_stops_on_exit(tmp_path: Path) -> None:
    async with open_storage(
        mongodb_uri=None, redis_url=None, data_dir=tmp_path, in_memory=True
    ) as storage:
        [(_, port)] = parse_uri(storage.mongodb_uri)["nodelist"]
        # SecantusDB runs one command at a time: a few connections are all it can use.
        assert parse_uri(storage.mongodb_uri)["options"]["maxPoolSize"] == 8
    with pytest.raises(OSError):
        __import__("socket").create_connection(("127.0.0.1", port), timeout=0.5)


_CHILD = """
import asyncio, sys, os
from pathlib import Path
from storage import open_storage
from tests.support.servers import running_redis

async def main():
    with running_redis(Path(sys.argv[1])) as url:
        async with open_storage(mongodb_uri=None, redis_url=url, data_dir=Path(sys.argv[1]),
                                in_memory=True):
            print("ready", flush=True)
            await asyncio.sleep(600)

asyncio.run(main())
"""


def _children_of(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True)
    return [int(p) for p in out.stdout.split()]


def test_killed_parent_leaves_no_servers_behind(tmp_path: Path) -> None:
    parent = subprocess.Popen(
        [sys.executable, "-c", _CHILD, str(tmp_path)],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert parent.stdout is not None
        assert parent.stdout.readline().strip() == "ready"
        servers = _children_of(parent.pid)
        names = {Path(os.readlink(f"/proc/{pid}/exe")).name for pid in servers}
        assert len(servers) == 2, names  # redis-server and secantusd-py
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 15
        while any(_alive(pid) for pid in servers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in servers if _alive(pid)]
    finally:
        parent.kill()


async def test_unreachable_redis_is_one_clear_error(tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    with pytest.raises(StorageUnavailable, match="cannot reach Redis at 127.0.0.1") as info:
        async with open_storage(mongodb_uri=None, redis_url=url, data_dir=tmp_path, in_memory=True):
            raise AssertionError("entering should have failed")
    assert info.value.hint and "REDIS_URL" in info.value.hint


async def test_redis_password_never_echoed(tmp_path: Path) -> None:
    url = f"redis://:hunter2-secret@127.0.0.1:{free_port()}/0"
    with pytest.raises(StorageUnavailable) as info:
        async with open_storage(mongodb_uri=None, redis_url=url, data_dir=tmp_path, in_memory=True):
            raise AssertionError("entering should have failed")
    assert "hunter2" not in str(info.value)


async def test_unreachable_mongo_is_one_clear_error(tmp_path: Path) -> None:
    uri = f"mongodb://127.0.0.1:{free_port()}/x"
    with pytest.raises(StorageUnavailable, match="cannot reach MongoDB at 127.0.0.1"):
        async with open_storage(
            mongodb_uri=uri + "?serverSelectionTimeoutMS=300", redis_url=None, data_dir=tmp_path
        ):
            raise AssertionError("entering should have failed")


async def test_malformed_mongo_uri_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="MONGODB_URI is malformed"):
        async with open_storage(mongodb_uri="mongodb://", redis_url=None, data_dir=tmp_path):
            raise AssertionError("entering should have failed")
