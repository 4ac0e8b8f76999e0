"""A bot process (the app's core on a real Indico) is SIGKILLed once Indico's database
holds the event it is creating, while the event's room booking is held at Indico's
database (so the run cannot finish before the kill); a new process resumes the run, and
Indico ends with exactly one event for the request and one room booking linked to it.

Indico's event create is not idempotent: the run finds its event by the mark in the
description (and its booking by the mark in the reason) instead of making them again.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from core.store import RunStatus
from storage import Storage
from tests.support.booking_child import CHAT, kill_when, spawn
from tests.support.indico_hold import holding_bookings
from tests.support.indico_server import DbEvent, IndicoServer


async def test_killed_mid_create_resumes_to_one_event_and_one_booking(
    indico_server: IndicoServer,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
    tmp_path: Path,
) -> None:
    storage, db = shared
    day = indico_server.today() + timedelta(days=10)
    title = f"Сеанс одновременной игры {day:%d.%m}"
    command = f"создай мероприятие «{title}» {day:%d.%m} с 15 до 17 в 7-702"
    room = await asyncio.to_thread(indico_server.room, "7/7-702")
    club = indico_server.club
    env = {
        "PORTAL__KIND": "indico",
        "PORTAL__URL": indico_server.base_url,
        "PORTAL__USERNAME": club.username,
        "PORTAL__PASSWORD": club.password,
        "DATA_DIR": str(tmp_path / "data"),
    }

    async def made() -> list[DbEvent]:
        rows = await asyncio.to_thread(indico_server.events)
        return [e for e in rows if e.title == title and not e.is_deleted]

    async def event_exists() -> bool:
        return bool(await made())

    # The booking the killed process asked for is made after the kill, once let go: the
    # resumed run must find it by its mark rather than book again.
    with holding_bookings(indico_server.stack, booked_for=club.id, day=day):
        first = spawn(secantus_uri, redis_url, db, "start", command, env=env)
        await kill_when(event_exists, first, timeout=180)
        runs = await storage.runs.recent_for_chat(CHAT, limit=1)
        assert runs and runs[0].status is RunStatus.RUNNING  # killed mid-run

    second = spawn(secantus_uri, redis_url, db, "resume", env=env)
    try:
        output, _ = await asyncio.to_thread(second.communicate, timeout=240)
    finally:
        second.kill()
    assert second.returncode == 0, output.decode()

    [event] = await made()
    run = (await storage.runs.recent_for_chat(CHAT, limit=1))[0]
    assert run.status is RunStatus.DONE
    assert f"#{run.short_id}" in event.description
    [booking_id] = event.booking_ids
    booking = await asyncio.to_thread(indico_server.booking, booking_id)
    assert booking is not None and (booking.room_id, booking.state) == (room.id, "accepted")
    mine = [
        b
        for b in await asyncio.to_thread(indico_server.bookings, room.id)
        if f"#{run.short_id}" in b.reason and b.state == "accepted"
    ]
    assert [b.id for b in mine] == [booking_id]
    assert b"done" in output and title.encode() in output
