"""Crash safety on a real MRBS: the bot process (the app's core, ``PORTAL__KIND=profile``
with ``profiles/mrbs.yaml``) is SIGKILLed once MRBS holds the first of three bookings (the
second held at MRBS's database until the kill, then made while no bot runs); a new process
resumes the run and MRBS ends with exactly three entries, none twice.

MRBS's save is not idempotent and answers with no number (back to the day): the resumed
run must find what was booked before the kill by its mark in the name, not book it again.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

from core.store import RunStatus
from storage import Storage
from tests.adapters.mrbs.harness import PROFILE
from tests.sites.mrbs import MrbsEntry, MrbsServer
from tests.support.booking_child import CHAT, kill_when, spawn

# «в <день недели>» as people write it (accusative, «во вторник»).
ON_WEEKDAY = ("в понедельник", "во вторник", "в среду", "в четверг", "в пятницу",
              "в субботу", "в воскресенье")  # fmt: skip


async def test_killed_after_the_first_booking_resumes_and_books_exactly_three(
    mrbs: MrbsServer,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
    tmp_path: Path,
) -> None:
    storage, db = shared
    day = mrbs.today() + timedelta(days=6)  # past the seed's days
    command = (
        f"забронируй 3 аудитории рядом в главном корпусе {ON_WEEKDAY[day.weekday()]} с 18 до 20"
    )
    club = mrbs.club
    env = {
        "PORTAL__KIND": "profile",
        "PORTAL__PROFILE": str(PROFILE),
        "PORTAL__URL": mrbs.base_url,
        "PORTAL__USERNAME": club.username,
        "PORTAL__PASSWORD": club.password,
        "DATA_DIR": str(tmp_path / "data"),  # both processes: one catalogue cache
    }

    async def on_day() -> list[MrbsEntry]:
        """The club's entries that day (psql, not our client)."""
        entries = await asyncio.to_thread(mrbs.bookings, club.username)
        return [e for e in entries if e.start.date() == day]

    async def first_booked() -> bool:
        return len(await on_day()) >= 1

    # The second booking is held at MRBS's database until the first process is dead; it is
    # made then, and the resumed run must find it by its mark.
    with mrbs.holding_bookings(user="club", day=day, after=1):
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
    assert len(booked) == 3, booked  # none twice, none redone
    assert {b.id for b in before} <= {b.id for b in booked}  # the first process's are kept
    run = (await storage.runs.recent_for_chat(CHAT, limit=1))[0]
    assert len({b.name for b in booked}) == 1 and f"#{run.short_id}" in booked[0].name
    assert {(f"{b.start:%H:%M}", f"{b.end:%H:%M}") for b in booked} == {("18:00", "20:00")}
    rooms = sorted(int(b.room) for b in booked)
    assert rooms == list(range(rooms[0], rooms[0] + 3))
    assert run.status is RunStatus.DONE
    assert b"done" in output
