"""Driving ``clubman mcp`` as a client would: the SDK's own client over stdio (spawning
the server) and over streamable HTTP (a server process the test owns, so it can kill it)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator, Mapping
from contextlib import asynccontextmanager, contextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any, TypeVar
from zoneinfo import ZoneInfo

import httpx2
from mcp.client import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult
from pydantic import BaseModel, TypeAdapter

from storage.process import die_with_parent, wait_for_port

__all__ = [
    "CLUBMAN",
    "TEST_TZ",
    "booking_day",
    "call",
    "call_error",
    "clubman",
    "http_server",
    "http_session",
    "mongo_uri_for",
    "stdio_session",
]

CLUBMAN = shutil.which("clubman", path=str(Path(sys.executable).parent)) or "clubman"
TEST_TZ = ZoneInfo("Europe/Moscow")
_M = TypeVar("_M")


def booking_day() -> date:
    """The day after tomorrow in Moscow: within every room's booking window."""
    from datetime import datetime

    return datetime.now(TEST_TZ).date() + timedelta(days=2)


def mongo_uri_for(secantus_uri: str, db: str) -> str:
    """The test server's URI naming database ``db`` (its path is the database)."""
    return secantus_uri.replace("/?", f"/{db}?", 1)


def clubman(env: Mapping[str, str], *args: str) -> str:
    """Run ``clubman ARGS`` to its end; its output (it must succeed)."""
    done = subprocess.run(
        [CLUBMAN, *args], env={**os.environ, **env}, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@asynccontextmanager
async def stdio_session(env: Mapping[str, str], cwd: Path) -> AsyncIterator[ClientSession]:
    """``clubman mcp`` spawned by the SDK's stdio client, the session initialised."""
    # The client passes only a few safe variables on: PYTHONPATH and PATH go explicitly.
    passed = {k: v for k, v in os.environ.items() if k in ("PYTHONPATH", "PATH", "HOME")}
    params = StdioServerParameters(command=CLUBMAN, args=["mcp"], env={**passed, **env}, cwd=cwd)
    log = (cwd / "mcp-stdio.log").open("a")
    try:
        async with (
            stdio_client(params, errlog=log) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            yield session
    finally:
        log.close()


@contextmanager
def http_server(env: Mapping[str, str], port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """``clubman mcp --http 127.0.0.1:PORT`` until the block ends (or the test kills it)."""
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [CLUBMAN, "mcp", "--http", f"127.0.0.1:{port}"],
            env={**os.environ, **env},
            stdout=out,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


async def wait_listening(proc: subprocess.Popen[bytes], port: int, log: Path) -> None:
    for _ in range(4):
        if await wait_for_port("127.0.0.1", port, timeout=30):
            return
        assert proc.poll() is None, log.read_text(errors="replace")
    raise AssertionError("the MCP server did not listen:\n" + log.read_text(errors="replace"))


@asynccontextmanager
async def http_session(url: str, token: str) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(30, read=300)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(
    session: ClientSession, tool: str, model: type[_M], progress: Any = None, **arguments: Any
) -> _M:
    """Call ``tool``; its structured result as ``model`` (a list's is under "result")."""
    result = await session.call_tool(tool, arguments, progress_callback=progress)
    assert isinstance(result, CallToolResult)
    assert not result.is_error, result.content
    data = result.structured_content
    if not (isinstance(model, type) and issubclass(model, BaseModel)):
        data = data["result"]
    return TypeAdapter(model).validate_python(data)


async def call_error(session: ClientSession, tool: str, **arguments: Any) -> str:
    """Call ``tool`` expecting a tool error; its text."""
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert result.is_error, result.structured_content
    return " ".join(getattr(block, "text", "") for block in result.content)
