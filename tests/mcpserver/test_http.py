"""``clubman mcp --http`` on streamable HTTP, driven by the SDK's own client: bearer
tokens (none, made up, revoked: 401), and the server SIGKILLed between a confirmation
and its result, then the confirmation retried on a new server: booked once."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
from pathlib import Path
from typing import Any

import httpx2

from scenarios.booking.agent import BookingAnswer, FoundRooms
from storage.process import free_port
from tests.mcpserver.conftest import World
from tests.mcpserver.support import (
    booking_day,
    call,
    clubman,
    http_server,
    http_session,
    wait_listening,
)
from tests.support.portal import portal_bookings, set_quirks

USER = 502
QUERY = {
    "date": booking_day().isoformat(), "start": "18:00", "end": "20:00",
    "building": "chaikovsky", "rooms": 2, "adjacent": True,
}  # fmt: skip
_INITIALIZE = {
    "jsonrpc": "2.0", "id": 1, "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}  # fmt: skip


async def _status_of(url: str, token: str | None) -> int:
    """The HTTP status of a bare initialize request bearing ``token``."""
    headers = {"Accept": "application/json, text/event-stream"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(url, json=_INITIALIZE, headers=headers)
    return response.status_code


async def test_bearer_tokens_none_made_up_and_revoked_are_refused(world: World) -> None:
    token = clubman(world.env, "mcp-token", str(USER))
    port, log = free_port(), world.tmp / "mcp-http.log"
    url = f"http://127.0.0.1:{port}/mcp"
    with http_server(world.env, port, log) as proc:
        await wait_listening(proc, port, log)
        assert await _status_of(url, None) == 401
        assert await _status_of(url, "clubman_made-up") == 401
        async with http_session(url, token) as session:
            assert "book_rooms" in {t.name for t in (await session.list_tools()).tools}
            found = await call(session, "find_rooms", FoundRooms, query=QUERY)
            assert len(found.buildings[0].suggested) == 2
        assert await _status_of(url, token) == 200
        clubman(world.env, "mcp-token", str(USER), "--revoke")
        assert await _status_of(url, token) == 401
    assert await portal_bookings(world.portal, user="club") == []


async def test_killed_between_confirm_and_result_a_retry_books_once(world: World) -> None:
    token = clubman(world.env, "mcp-token", str(USER))
    port, log = free_port(), world.tmp / "mcp-http.log"
    url = f"http://127.0.0.1:{port}/mcp"
    await set_quirks(world.portal, latency_ms=150)  # room to kill it between two bookings
    with http_server(world.env, port, log) as first:
        await wait_listening(first, port, log)
        async with http_session(url, token) as session:
            offer = await call(session, "book_rooms", BookingAnswer, query=QUERY)
        confirm = {"query": QUERY, "confirm_token": offer.confirm_token}
        confirming = asyncio.create_task(_confirm_once(url, token, confirm))
        await _until_booked(world.portal, 1, first, log)
        first.send_signal(signal.SIGKILL)
        first.wait()
        # The client sees its connection drop; what it does about it is the SDK's.
        with contextlib.suppress(Exception):
            await asyncio.wait_for(confirming, 30)
    assert len(await portal_bookings(world.portal, user="club")) == 1
    [run] = await world.storage.runs.recent_for_chat(USER, limit=5)
    assert run.status.value == "running"  # killed mid-run

    with http_server(world.env, port, log) as second:
        await wait_listening(second, port, log)
        async with http_session(url, token) as session:
            retried = await call(session, "book_rooms", BookingAnswer, **confirm)
    assert retried.run is not None and retried.run.run_id == run.short_id
    assert retried.run.state == "done", retried.run
    booked = await portal_bookings(world.portal, user="club")
    assert sorted(b["room_number"] for b in booked) == sorted(offer.plan.rooms)
    assert len(await world.storage.runs.recent_for_chat(USER, limit=5)) == 1


async def _confirm_once(url: str, token: str, confirm: dict[str, Any]) -> None:
    async with http_session(url, token) as session:
        await session.call_tool("book_rooms", confirm)


async def _until_booked(portal: str, count: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    for _ in range(1800):
        if len(await portal_bookings(portal, user="club")) >= count:
            return
        assert proc.poll() is None, log.read_text(errors="replace")
        await asyncio.sleep(0.05)
    raise AssertionError("the booking never reached the portal")
