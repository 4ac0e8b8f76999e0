"""``clubman site check``'s core on the reference portal: a good profile passes every
part; a wrong locator is named with its profile line; nothing the check booked stays
booked — when it fails half-way, when it is interrupted, and after it was killed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import time, timedelta
from pathlib import Path

import pytest
import pytest_asyncio

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.check import CHECK_MARK, check_site, show_site
from adapters.profile.loader import LoadedProfile
from adapters.profile.session import ProfileSession
from core.browser import BrowserContext, BrowserPool
from core.site.models import Room
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import (
    FAST,
    TODAY,
    active_bookings,
    all_bookings,
    make_session,
    set_quirks,
)

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"


def _profile(replace: tuple[str, str] | None = None, name: str = "refportal.yaml") -> LoadedProfile:
    text = PROFILE.read_text(encoding="utf-8")
    if replace is not None:
        assert text.count(replace[0]) == 1, replace[0]
        text = text.replace(*replace)
    return parse_site_profile(text, name)


def _line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest_asyncio.fixture(loop_scope="session")
async def context(pool: BrowserPool, fresh_portal: RunningPortal) -> AsyncIterator[BrowserContext]:
    async with pool.context() as ctx:
        yield ctx


def _session(
    portal: RunningPortal, context: BrowserContext, loaded: LoadedProfile
) -> ProfileSession:
    return ProfileSystem(portal.url, loaded, retry=FAST).open_session(
        context, username="club", password="club-demo"
    )


async def _marked(portal: RunningPortal) -> list[dict[str, object]]:
    return [
        b for b in await active_bookings(portal.url) if str(b["purpose"]).startswith(CHECK_MARK)
    ]


async def test_a_good_profile_passes_every_part_and_leaves_nothing_booked(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    session = _session(fresh_portal, context, _profile())
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    assert [(p.part, p.ok) for p in report.parts] == [
        ("вход", True),
        ("мои брони", True),
        ("каталог", True),
        ("бронь", True),
        ("бронь через форму", True),  # the fast path's fallback
    ], report
    tomorrow = TODAY + timedelta(days=1)  # the nearest day: «my bookings» may show no more
    for booked in report.parts[-2:]:
        assert f"{tomorrow:%d.%m}" in booked.detail
        assert "найдена в «моих бронях», прочитана на своей странице и отменена" in booked.detail
    assert await _marked(fresh_portal) == []
    assert not list(tmp_path.iterdir())  # no failure, no screenshot


async def test_show_reads_catalogue_and_rules_without_booking(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    before = await active_bookings(fresh_portal.url)
    session = _session(fresh_portal, context, _profile())
    report, catalogue = await show_site(session, context, username="club", shots=tmp_path)
    assert report.ok and catalogue is not None
    assert {b.code for b in catalogue.buildings} == {"main", "chaikovsky", "lab"}
    assert catalogue.rules.horizon_days == 14 and catalogue.rules.step_minutes == 30
    assert await active_bookings(fresh_portal.url) == before


async def test_a_wrong_locator_is_named_with_its_line_and_nothing_is_booked(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    wrong = ("      name: Забронировать\n", "      name: Забронировать сейчас\n")
    loaded = _profile(wrong, name="broken.yaml")
    text = PROFILE.read_text(encoding="utf-8").replace(*wrong)
    session = _session(fresh_portal, context, loaded)
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    failed = [p for p in report.parts if not p.ok]
    # The fast path books without the button; the form's page, its fallback, is checked too.
    assert [(p.part, p.ok) for p in report.parts if p.part.startswith("бронь")] == [
        ("бронь", True),
        ("бронь через форму", False),
    ]
    assert len(failed) == 1
    item = _line_of(text, "Забронировать сейчас") - 1  # the candidate's «- role: button»
    assert failed[0].where == f"broken.yaml:{item}"
    assert failed[0].tried == "role=button name=«Забронировать сейчас»"
    assert "«Забронировать»" in failed[0].seen  # what the page had instead
    assert Path(failed[0].screenshot).read_bytes().startswith(b"\x89PNG")
    assert await _marked(fresh_portal) == []


async def test_failing_after_booking_cancels_what_it_booked(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    # The booking's own page is at another address than the profile says. The booking is
    # made (by the form's own request, whose answer names it), then its page does not read:
    # the check cancels it on the way out.
    loaded = _profile(("  url: /booking/{number}\n", "  url: /bookings/{number}\n"))
    session = _session(fresh_portal, context, loaded)
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    parts = {p.part: p for p in report.parts}
    assert not parts["бронь"].ok
    assert "Не удалось прочитать бронь" in parts["бронь"].detail
    assert "бронь через форму" not in parts  # not tried after a failed booking
    assert parts["уборка"].ok and "отменена тестовая бронь" in parts["уборка"].detail
    assert await _marked(fresh_portal) == []


async def test_an_interrupted_check_cancels_what_it_booked(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    session = _session(fresh_portal, context, _profile())
    task = asyncio.create_task(
        check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    )
    async with asyncio.timeout(60):
        while not await _marked(fresh_portal):  # wait until the test booking is made
            assert not task.done(), "the check ended before it booked"
            await asyncio.sleep(0.02)
    task.cancel()  # Ctrl-C
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await _marked(fresh_portal) == []


async def test_a_rerun_cancels_what_a_killed_check_left(
    fresh_portal: RunningPortal, context: BrowserContext, pool: BrowserPool, tmp_path: Path
) -> None:
    async with pool.context() as other:  # what a check killed after booking left behind
        left = make_session(other, fresh_portal)
        await left.book(
            room=Room(id="main-301", building="main", number="301"),
            day=TODAY + timedelta(days=13), start=time(20, 0), end=time(20, 30),
            purpose=f"{CHECK_MARK} killed",
        )  # fmt: skip
        await left.close()
    assert len(await _marked(fresh_portal)) == 1
    session = _session(fresh_portal, context, _profile())
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    assert report.ok, report
    assert "отменено оставшихся от прерванной проверки: 1" in report.parts[1].detail
    assert await _marked(fresh_portal) == []


async def test_with_my_bookings_unreadable_it_books_nothing(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    # A booking it could neither find nor cancel must not be made.
    loaded = _profile(("      name: Мои брони\n", "      name: Мои брони сегодня\n"))
    session = _session(fresh_portal, context, loaded)
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    parts = {p.part: p for p in report.parts}
    # Logging in is confirmed on «my bookings», but a list the profile misreads there is
    # «my bookings»' failure, not the login's (issue 66).
    assert not report.ok and parts["вход"].ok and not parts["мои брони"].ok
    assert parts["бронь"].detail == "не проверено: «мои брони» не читаются"
    assert "уборка" not in parts
    item = _line_of(PROFILE.read_text(encoding="utf-8"), "      name: Мои брони") - 1
    assert parts["мои брони"].where == f"refportal.yaml:{item}"
    assert "Мои брони сегодня" in parts["мои брони"].tried
    assert await _marked(fresh_portal) == []


async def test_a_booking_answered_in_place_is_found_in_my_bookings_and_cancelled(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    # The form answers «Заявка принята» with no number: «my bookings» has it, so the
    # check goes on with it and cancels it; nothing is sent twice.
    await set_quirks(fresh_portal.url, drift=["in_place"])
    session = _session(fresh_portal, context, _profile())
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    assert [(p.part, p.ok) for p in report.parts] == [
        ("вход", True),
        ("мои брони", True),
        ("каталог", True),
        ("бронь", True),
        ("бронь через форму", True),
    ], report
    assert await _marked(fresh_portal) == []
    made = [b for b in await all_bookings(fresh_portal.url) if CHECK_MARK in str(b["purpose"])]
    assert len(made) == 2  # one a way, each cancelled


async def test_a_list_of_the_next_days_only_still_shows_and_cancels_its_booking(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    # «My bookings» lists only today's and tomorrow's: the check books tomorrow, so it
    # finds its booking there and cancels it (a booking 14 days ahead it could not).
    await set_quirks(fresh_portal.url, drift=["short_list"])
    session = _session(fresh_portal, context, _profile())
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    assert report.ok, report
    assert await _marked(fresh_portal) == []
    made = [b for b in await all_bookings(fresh_portal.url) if CHECK_MARK in str(b["purpose"])]
    assert [b["date"] for b in made] == [f"{TODAY + timedelta(days=1):%Y-%m-%d}"] * 2


async def test_a_booking_it_cannot_find_again_is_named_plainly_not_left_silently(
    fresh_portal: RunningPortal, context: BrowserContext, tmp_path: Path
) -> None:
    # «My bookings» lists only today's: the check's booking (tomorrow, the nearest day the
    # site takes) is made but cannot be found to cancel. The report says so, with what to
    # cancel by hand.
    await set_quirks(fresh_portal.url, drift=["today_list"])
    session = _session(fresh_portal, context, _profile())
    report = await check_site(session, context, username="club", today=TODAY, shots=tmp_path)
    parts = {p.part: p for p in report.parts}
    assert not report.ok and not parts["бронь"].ok
    left = await _marked(fresh_portal)
    assert len(left) == 1
    assert not parts["уборка"].ok
    detail = parts["уборка"].detail
    assert str(left[0]["purpose"]) in detail and f"№ {left[0]['id']}" in detail
    assert "проверьте и отмените её на сайте" in detail
