"""The legacy booking site (portal/legacy) over plain HTTP: CSRF ending the session, the
test API, and the site run in the foreground."""

from __future__ import annotations

import asyncio
import re
import sys
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from portal.legacy.data import find_room
from portal.legacy.server import RunningLegacy, running_legacy
from tests.portal.helpers import TestClock
from tests.portal.legacy.visitor import (
    THURSDAY,
    Visitor,
    bookings,
    dmy,
    room_301,
)  # fmt: skip

pytestmark = pytest.mark.asyncio(loop_scope="session")


# --- CSRF -------------------------------------------------------------------------------


async def test_a_post_without_the_token_ends_the_session(
    site: RunningLegacy, club: Visitor
) -> None:
    referer = f"/reserve?room={room_301()}&t=64800&day={dmy(THURSDAY)}"
    form = {
        "room": str(room_301()), "day": dmy(THURSDAY), "time_from": "64800",
        "time_to": "66600", "comment": "x",
    }  # fmt: skip
    page = await club.post("/reserve", form, referer=referer)
    assert page.status == 303 and page.location is not None
    assert parse_qs(urlsplit(page.location).query)["back"] == [referer]
    assert urlsplit(page.location).path == "/auth/login"
    assert (await club.get("/schedule")).status == 303  # logged out
    assert not [b for b in await bookings(site) if b["user"] == "club"]


async def test_a_wrong_token_ends_the_session_too(club: Visitor) -> None:
    assert (await club.get("/my")).status == 200
    page = await club.post("/reservation/1/cancel", {"_csrf": "forged"}, referer="/my?q=")
    assert page.location == "/auth/login?back=%2Fmy%3Fq%3D"
    assert (await club.get("/my")).status == 303


async def test_the_login_form_needs_its_token(guest: Visitor) -> None:
    form = {"j_username": "club", "j_password": "club-demo", "back": "/my"}
    page = await guest.post("/auth/login", form)
    assert page.location == "/auth/login?back=%2Fmy"
    assert (await guest.get("/schedule")).status == 303


# --- the test API -----------------------------------------------------------------------


async def test_api_lists_bookings_in_the_portals_shape(site: RunningLegacy, club: Visitor) -> None:
    await club.reserve(room_301(), dmy(THURSDAY), 64800, 72000, "Клуб")
    rows = await bookings(site)
    assert {"id", "user", "room_number", "date", "start", "end", "purpose", "status"} <= set(
        rows[0]
    )
    ours = [b for b in rows if b["user"] == "club"]
    assert len(ours) == 1
    assert {k: ours[0][k] for k in ("room", "room_number", "date", "start", "end")} == {
        "room": str(room_301()),
        "room_number": "301",
        "date": THURSDAY.isoformat(),
        "start": "18:00",
        "end": "20:00",
    }
    assert ours[0]["purpose"] == "Клуб" and ours[0]["status"] == "active"
    room = find_room(int(ours[0]["room"]))
    assert room is not None and room.number == "301"


async def test_api_reset_reseeds_and_logs_everybody_out(site: RunningLegacy, club: Visitor) -> None:
    seeded = await bookings(site)
    await club.reserve(room_301(), dmy(THURSDAY), 64800, 72000)
    async with aiohttp.ClientSession() as http:
        await http.post(f"{site.url}/_test/quirks", json={"error_rate": 0.5})
        async with http.post(f"{site.url}/_test/reset") as resp:
            assert resp.status == 200 and (await resp.json())["ok"] is True
        async with http.get(f"{site.url}/_test/quirks") as resp:
            assert (await resp.json())["error_rate"] == 0.0
    assert await bookings(site) == seeded
    assert (await club.get("/schedule")).status == 303


async def test_api_expire_sessions(site: RunningLegacy, club: Visitor) -> None:
    assert (await club.get("/schedule")).status == 200
    async with aiohttp.ClientSession() as http, http.post(f"{site.url}/_test/expire_sessions") as r:
        assert r.status == 200
    page = await club.get("/schedule?bld=2")
    assert page.location == "/auth/login?back=%2Fschedule%3Fbld%3D2"


async def test_api_error_rate_fails_pages_but_not_the_test_api(
    site: RunningLegacy, club: Visitor
) -> None:
    async with aiohttp.ClientSession() as http:
        async with http.post(f"{site.url}/_test/quirks", json={"error_rate": 1.0}) as resp:
            assert resp.status == 200 and (await resp.json())["error_rate"] == 1.0
        assert (await club.get("/schedule")).status == 500
        assert (await club.get("/auth/login")).status == 500
        assert len(await bookings(site)) > 0
        async with http.get(f"{site.url}/_test/quirks") as resp:
            body = await resp.json()
            assert body["error_rate"] == 1.0 and body["served"]["errors_served"] == 2
        async with http.post(f"{site.url}/_test/quirks", json={"error_rate": 0.5, "x": 1}) as resp:
            assert resp.status == 400
        async with http.post(f"{site.url}/_test/quirks", json={"error_rate": 2}) as resp:
            assert resp.status == 400
        async with http.post(f"{site.url}/_test/quirks", json={}) as resp:
            assert resp.status == 200
    assert (await club.get("/schedule")).status == 200


async def test_no_test_api_unless_asked(clock: TestClock) -> None:
    async with running_legacy(clock=clock) as plain, aiohttp.ClientSession() as http:
        async with http.get(f"{plain.url}/_test/bookings") as resp:
            assert resp.status == 404
        async with http.post(f"{plain.url}/_test/reset") as resp:
            assert resp.status == 404


# --- the foreground entry point ---------------------------------------------------------


async def test_python_m_portal_legacy_serves_in_the_foreground() -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "portal.legacy", "--port", "0", "--test-api",
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        found = re.match(r"Legacy site at (http://127\.0\.0\.1:\d+) \(test API on\)", line)
        assert found, line
        url = f"{found.group(1)}/auth/login"
        async with aiohttp.ClientSession() as http, http.get(url) as resp:
            assert resp.status == 200 and "Логин" in await resp.text()
    finally:
        proc.terminate()
        assert await asyncio.wait_for(proc.wait(), 20) == 0
