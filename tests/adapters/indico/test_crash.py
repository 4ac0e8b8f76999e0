"""Crash safety on a real Indico: the bot process (the app's core, ``PORTAL__KIND=indico``,
or ``profile`` with ``profiles/indico.yaml``: Indico's web pages) is SIGKILLed as soon as
Indico's database holds the first of three bookings (the second is held there until the
kill); a new process resumes the run and Indico ends with exactly three accepted bookings,
none twice.

Indico's create is not idempotent, so the run must find what it booked before the kill
(the run id in the booking's reason) instead of booking it again.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, time, timedelta
from pathlib import Path

import pytest

from core.store import RunStatus
from storage import Storage
from tests.adapters.indico.profile_harness import PROFILE
from tests.support.booking_child import CHAT, kill_when, spawn
from tests.support.indico_hold import holding_bookings
from tests.support.indico_server import DbBooking, IndicoServer

# «в <день недели>» as people write it (accusative, «во вторник»).
ON_WEEKDAY = ("в понедельник", "во вторник", "в среду", "в четверг", "в пятницу",
              "в субботу", "в воскресенье")  # fmt: skip


@pytest.mark.parametrize("kind", ["indico", "profile"])
async def test_killed_after_the_first_booking_resumes_and_books_exactly_three(
    kind: str,
    indico_server: IndicoServer,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
    tmp_path: Path,
) -> None:
    storage, db = shared
    await asyncio.to_thread(indico_server.cancel_all, "club")  # the server is shared
    day = indico_server.today() + timedelta(days=3)  # no seeded booking in building 7
    command = f"забронируй 3 аудитории рядом в 7-м корпусе {ON_WEEKDAY[day.weekday()]} с 18 до 20"
    club = indico_server.club
    env = {  # by Indico's JSON API, or by its web pages (profiles/indico.yaml)
        "PORTAL__KIND": kind,
        "PORTAL__URL": indico_server.base_url,
        "PORTAL__USERNAME": club.username,
        "PORTAL__PASSWORD": club.password,
        "DATA_DIR": str(tmp_path / "data"),  # both processes: one catalogue cache
    } | ({"PORTAL__PROFILE": str(PROFILE)} if kind == "profile" else {})

    # Bookings of earlier tests on the shared server (cancelled, but still there).
    earlier = {b.id for b in await asyncio.to_thread(indico_server.bookings)}

    async def on_day() -> list[DbBooking]:
        """Every booking this test made for the club that day, in any state (psql, not
        our client)."""
        return [
            b
            for b in await asyncio.to_thread(indico_server.bookings)
            if b.booked_for_id == club.id and b.start.date() == day and b.id not in earlier
        ]

    async def first_booked() -> bool:
        return len(await on_day()) >= 1

    # The second booking is held at Indico's database until the first process is dead; it
    # is made then, and the resumed run must find it by the run id in its reason.
    with holding_bookings(indico_server.stack, booked_for=club.id, day=day, after=1):
        first = spawn(secantus_uri, redis_url, db, "start", command, env=env)
        await kill_when(first_booked, first, timeout=180)
        before = await on_day()
        assert len(before) == 1, before  # killed between the first and the last booking
        runs = await storage.runs.recent_for_chat(CHAT, limit=1)
        assert runs and runs[0].status is RunStatus.RUNNING  # killed mid-run

    second = spawn(secantus_uri, redis_url, db, "resume", env=env)
    try:
        output, _ = await asyncio.to_thread(second.communicate, timeout=240)
    finally:
        second.kill()
    assert second.returncode == 0, output.decode()

    booked = await on_day()
    assert [b.state for b in booked] == ["accepted"] * 3, booked  # none twice, none redone
    assert {b.id for b in before} <= {b.id for b in booked}  # the first process's are kept
    run = (await storage.runs.recent_for_chat(CHAT, limit=1))[0]
    assert {b.reason for b in booked} == {f"Встреча студенческого клуба · #{run.short_id}"}
    slot = (datetime.combine(day, time(18)), datetime.combine(day, time(20)))
    assert {(b.start, b.end) for b in booked} == {slot}
    rooms = {r.id: r for r in await asyncio.to_thread(indico_server.rooms)}
    assert {(rooms[b.room_id].building, rooms[b.room_id].floor) for b in booked} == {("7", "7")}
    numbers = sorted(int(rooms[b.room_id].number) for b in booked)
    assert numbers == list(range(numbers[0], numbers[0] + 3))
    assert run.status is RunStatus.DONE
    assert [s.name for s in run.steps] == ["login", "find", "book", "verify"]
    assert b"done" in output
