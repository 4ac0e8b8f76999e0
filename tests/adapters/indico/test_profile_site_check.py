"""``clubman site check``'s core on a real Indico through its web pages: ``indico.yaml``
passes every part and leaves nothing booked; a wrong locator in the booking form its
scripts draw is named with its profile line, and nothing stays booked either."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.check import CHECK_MARK, SiteReport, check_site
from adapters.profile.loader import LoadedProfile
from core.browser import BrowserContext
from tests.adapters.indico.profile_harness import PROFILE
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.asyncio(loop_scope="session")


def _profile(replace: tuple[str, str] | None = None, name: str = "indico.yaml") -> LoadedProfile:
    text = PROFILE.read_text(encoding="utf-8")
    if replace is not None:
        assert text.count(replace[0]) == 1, replace[0]
        text = text.replace(*replace)
    return parse_site_profile(text, name)


async def _check(
    server: IndicoServer, context: BrowserContext, loaded: LoadedProfile, shots: Path
) -> SiteReport:
    session = ProfileSystem(server.base_url, loaded).open_session(
        context, username=server.club.username, password=server.club.password
    )
    try:
        return await check_site(
            session, context, username=server.club.username, today=server.today(), shots=shots
        )
    finally:
        await session.close()


async def _left(server: IndicoServer) -> list[str]:
    """The check's bookings still holding a room (Indico's database, not our client)."""
    return [
        b.reason
        for b in await asyncio.to_thread(server.bookings)
        if b.reason.startswith(CHECK_MARK) and b.state in ("pending", "accepted")
    ]


async def test_indico_profile_passes_every_part_and_leaves_nothing_booked(
    indico_server: IndicoServer, context: BrowserContext, tmp_path: Path
) -> None:
    report = await _check(indico_server, context, _profile(), tmp_path)
    parts = [(p.part, p.ok) for p in report.parts]
    assert parts == [
        ("вход", True),
        ("мои брони", True),
        ("каталог", True),
        ("бронь", True),  # by Indico's own JSON call (the profile's book.request)
        ("бронь через форму", True),
    ]
    for part in report.parts[-2:]:
        assert "найдена в «моих бронях», прочитана на своей странице и отменена" in part.detail
    assert await _left(indico_server) == []
    made = [b for b in await asyncio.to_thread(indico_server.bookings) if CHECK_MARK in b.reason]
    assert len(made) >= 2 and {b.state for b in made} == {"cancelled"}  # booked, then cancelled


async def test_a_wrong_locator_in_the_drawn_form_is_named_and_nothing_is_booked(
    indico_server: IndicoServer, context: BrowserContext, tmp_path: Path
) -> None:
    wrong = ("      name: Create Booking\n", "      name: Create the Booking\n")
    text = PROFILE.read_text(encoding="utf-8").replace(*wrong)
    report = await _check(indico_server, context, _profile(wrong, name="broken.yaml"), tmp_path)
    failed = [p for p in report.parts if not p.ok]
    assert [p.part for p in failed] == ["бронь через форму"]  # Indico's own call books
    line = next(i for i, s in enumerate(text.splitlines(), 1) if "Create the Booking" in s)
    assert failed[0].where == f"broken.yaml:{line - 1}"  # the candidate's «- role: button»
    assert failed[0].tried == "role=button name=«Create the Booking»"
    assert "«Create Booking»" in failed[0].seen  # what the page had instead
    assert Path(failed[0].screenshot).read_bytes().startswith(b"\x89PNG")
    assert await _left(indico_server) == []
