"""``clubman learn`` on MRBS set up as a site nobody tuned the learner for (``VARIANT`` in
tests/sites/mrbs.py: English pages that write «4:00 PM», 15-minute slots from 9:00 to
18:00, a 14-day window, rooms named in words, «Room N-113» in «North Campus»), the
operator played over CDP (``tests.support.learning_mrbs``, ``VARIANT_SHOW``). The one demonstration
drafts a whole profile (no LLM, no edit by hand) that ``clubman site check``'s core
passes: it logs in, reads «my bookings», the catalogue and a day, books, finds the
booking in «my bookings», reads it on its page and cancels it. (The contract suite runs
on the hand profile, ``test_variant_contract.py``: one suite per server start is what
the CI's time allows.)"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
import pytest_asyncio
import yaml

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.check import CHECK_MARK, check_site
from adapters.profile.learn.draft import draft_profile
from core.browser import BrowserPool
from tests.sites.mrbs import MrbsServer
from tests.support.learning import Demonstration, operators_chromium
from tests.support.learning_mrbs import VARIANT_SHOW, demonstrate_mrbs

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def shown(
    mrbs_variant_server: MrbsServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Demonstration]:
    """One demonstration for the module, on the variant as seeded."""
    mrbs_variant_server.as_seeded()
    work = tmp_path_factory.mktemp("learned-mrbs-variant")
    day = mrbs_variant_server.today() + timedelta(days=5)  # past the seed's days
    async with operators_chromium() as chromium:
        yield await demonstrate_mrbs(
            mrbs_variant_server, chromium, work, day=day, show=VARIANT_SHOW
        )
    mrbs_variant_server.as_seeded()


async def test_the_demonstration_drafts_a_whole_profile_that_the_site_check_passes(
    shown: Demonstration, mrbs_variant_server: MrbsServer, pool: BrowserPool, tmp_path: Path
) -> None:
    server = mrbs_variant_server
    whole, parts = shown.out / "mrbs.yaml", shown.out / "mrbs.parts.yaml"
    assert whole.exists(), parts.read_text(encoding="utf-8") if parts.exists() else shown.said
    learned = whole.read_text(encoding="utf-8")
    assert learned == draft_profile(shown.recording)
    assert [e for e in server.bookings("club") if e.name == VARIANT_SHOW.purpose] == []

    # What this site does its own way, read from the demonstration alone.
    drafted = yaml.safe_load(learned)
    assert drafted["rules"]["step_minutes"] == 15 and drafted["rules"]["horizon_days"] == 14
    page = drafted["booking_page"]
    assert page["room"]["term"] == "Room"  # «North Campus - Room N-113»: the room's two words
    assert page["room"]["regex"] == r"(\S+\s+\S+)$"
    mine = drafted["my_bookings"]  # «Saturday, December 12, 2026 at 4:00 PM»: the start
    assert mine["start"] == {"column": "Start time", "format": "hhmm"}

    club = server.club
    with server.seeded_only():
        async with pool.context() as context:
            system = ProfileSystem(server.base_url, parse_site_profile(learned, "learned.yaml"))
            session = system.open_session(context, username=club.username, password=club.password)
            try:
                report = await check_site(
                    session, context, username=club.username, today=server.today(),
                    shots=tmp_path,
                )  # fmt: skip
            finally:
                await session.close()
        left = await asyncio.to_thread(server.bookings, club.username)
    assert [(p.part, p.ok) for p in report.parts][:4] == [
        ("вход", True),
        ("мои брони", True),
        ("каталог", True),
        ("бронь", True),
    ], report
    assert [e for e in left if e.name.startswith(CHECK_MARK)] == []
