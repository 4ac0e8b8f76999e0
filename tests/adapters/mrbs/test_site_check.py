"""``clubman site check``'s core on a real MRBS 1.12.2: ``profiles/mrbs.yaml`` passes every
part and leaves nothing booked (MRBS deletes what is cancelled: nothing of the check's is
left in its table); its time is what an operator waits for a green check."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from pathlib import Path

import pytest

from adapters.profile import LoadedProfile, ProfileSystem, load_site_profile, parse_site_profile
from adapters.profile.check import CHECK_MARK, SiteReport, check_site
from core.browser import BrowserPool
from tests.adapters.mrbs.harness import PROFILE
from tests.sites.mrbs import MrbsServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def _checked(
    mrbs: MrbsServer, pool: BrowserPool, loaded: LoadedProfile, shots: Path
) -> SiteReport:
    """``clubman site check``'s core with ``loaded`` on MRBS, as the club."""
    club = mrbs.club
    async with pool.context() as context:
        session = ProfileSystem(mrbs.base_url, loaded).open_session(
            context, username=club.username, password=club.password
        )
        try:
            return await check_site(
                session, context, username=club.username, today=mrbs.today(), shots=shots
            )
        finally:
            await session.close()


async def test_mrbs_profile_passes_every_part_and_leaves_nothing_booked(
    mrbs: MrbsServer, pool: BrowserPool, tmp_path: Path
) -> None:
    club = mrbs.club
    report = await _checked(mrbs, pool, load_site_profile(PROFILE), tmp_path)
    assert [(p.part, p.ok) for p in report.parts] == [
        ("вход", True),
        ("мои брони", True),
        ("каталог", True),
        ("бронь", True),
    ], report
    assert "найдена в «моих бронях», прочитана на своей странице и отменена" in (
        report.parts[-1].detail
    )
    entries = await asyncio.to_thread(mrbs.bookings, club.username)
    assert [e for e in entries if e.name.startswith(CHECK_MARK)] == []


async def test_a_failure_to_read_my_bookings_is_reported_under_my_bookings_not_login(
    mrbs: MrbsServer, pool: BrowserPool, tmp_path: Path
) -> None:
    # Issue 66: logging in is confirmed on «my bookings»; a table the profile names wrong
    # there is «my bookings»' failure, with its line, and nothing is booked.
    day = mrbs.today() + timedelta(days=3)  # a booking of the account's: the table shows
    await asyncio.to_thread(
        mrbs.add_booking, "101", mrbs.at(day, "10:00"), mrbs.at(day, "11:00"), "Наша", "club"
    )
    text = PROFILE.read_text(encoding="utf-8")
    wrong = ("    - css: table#search_results\n", "    - css: table#search_resultz\n")
    assert text.count(wrong[0]) == 1
    loaded = parse_site_profile(text.replace(*wrong), "mrbs.yaml")
    report = await _checked(mrbs, pool, loaded, tmp_path)
    parts = {p.part: p for p in report.parts}
    assert parts["вход"].ok, report
    mine = parts["мои брони"]
    assert not mine.ok and mine.detail == "На странице нет таблицы «мои брони»"
    line = next(n for n, row in enumerate(text.splitlines(), 1) if row == wrong[0].rstrip())
    assert (mine.where, mine.path) == (f"mrbs.yaml:{line}", "my_bookings.table")
    assert mine.tried == "css=«table#search_resultz»"
    assert parts["бронь"].detail == "не проверено: «мои брони» не читаются"
    assert "уборка" not in parts
