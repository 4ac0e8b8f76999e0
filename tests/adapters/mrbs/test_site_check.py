"""``clubman site check``'s core on a real MRBS 1.12.2: ``profiles/mrbs.yaml`` passes every
part and leaves nothing booked (MRBS deletes what is cancelled: nothing of the check's is
left in its table); its time is what an operator waits for a green check."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.check import CHECK_MARK, check_site
from core.browser import BrowserPool
from tests.adapters.mrbs.harness import PROFILE
from tests.sites.mrbs import MrbsServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_mrbs_profile_passes_every_part_and_leaves_nothing_booked(
    mrbs: MrbsServer, pool: BrowserPool, tmp_path: Path
) -> None:
    club = mrbs.club
    async with pool.context() as context:
        session = ProfileSystem(mrbs.base_url, load_site_profile(PROFILE)).open_session(
            context, username=club.username, password=club.password
        )
        try:
            report = await check_site(
                session, context, username=club.username, today=mrbs.today(), shots=tmp_path
            )
        finally:
            await session.close()
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
