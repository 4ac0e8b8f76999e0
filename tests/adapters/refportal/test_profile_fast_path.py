"""The fast path (issue 29) on the reference portal: ``profiles/refportal.yaml`` books by
the form's own POST through the logged-in context, the form's page never loaded in the
browser; a refusal, a logged-out context and an answer the profile does not expect each
go the safe way (the page path, or «my bookings» before anything is sent again). The
form's token is kept for the account's next session on the same cookies, and replaced
when the site no longer takes it."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import time

import pytest
import pytest_asyncio
from playwright.async_api import APIRequestContext, BrowserContext, Request

from adapters.profile import ProfileSystem, fastpath, load_site_profile
from adapters.profile.pagehtml import PageHtml, fetch_html, form_value
from core.browser import BrowserPool
from portal.server import RunningPortal
from portal.state import STATE
from scenarios.booking.errors import SlotTaken
from tests.adapters.refportal.helpers import (
    FAST,
    FRIDAY,
    PROFILE,
    active_bookings,
    profile_session,
)
from tests.support.portal import chaos_served, set_quirks

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session")
async def context(pool: BrowserPool, fresh_portal: RunningPortal) -> AsyncIterator[BrowserContext]:
    async with pool.context() as ctx:
        yield ctx


def _page_requests(context: BrowserContext) -> list[str]:
    """The requests the browser's pages send from now on (the request API's are not)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        seen.append(f"{request.method} {request.url.split('?')[0].rsplit('/', 1)[-1]}")

    context.on("request", note)
    return seen


async def test_a_booking_by_the_forms_own_request_never_loads_the_form(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    """Nor the booking's page: the site's answer named the booking, and «my bookings»
    shows it as it was sent."""
    session = profile_session(fresh_portal, context)
    try:
        room = (await session.availability("main", FRIDAY)).free_rooms(time(10), time(11))[0]
        seen = _page_requests(context)
        made = await session.book(
            room=room, day=FRIDAY, start=time(10), end=time(11), purpose="fast · #f1"
        )
        listed = [b for b in await session.my_bookings() if b.number == made.number]
    finally:
        await session.close()
    assert not any(r.endswith((" book", f" {made.number}")) for r in seen), seen
    assert (made.room, made.building, made.day, made.start, made.end, made.purpose) == (
        room.number, "main", FRIDAY, time(10), time(11), "fast · #f1"
    )  # fmt: skip
    assert [b.model_copy(update={"room_id": made.room_id}) for b in listed] == [made]
    held = await active_bookings(fresh_portal.url, purpose="fast · #f1")
    assert [str(b["id"]) for b in held] == [made.number]


async def test_a_refused_request_is_booked_through_the_page_which_reads_the_sites_words(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    session = profile_session(fresh_portal, context)
    try:
        room = (await session.availability("main", FRIDAY)).free_rooms(time(12), time(13))[0]
        await session.book(room=room, day=FRIDAY, start=time(12), end=time(13), purpose="a #f2")
        seen = _page_requests(context)
        with pytest.raises(SlotTaken) as taken:
            await session.book(room=room, day=FRIDAY, start=time(12), end=time(13), purpose="b #f3")
    finally:
        await session.close()
    assert "GET book" in seen and "POST book" in seen  # the form's page, after the refusal
    assert "занято" in str(taken.value)
    assert await active_bookings(fresh_portal.url, purpose="b #f3") == []


async def test_a_logged_out_context_logs_in_through_the_page_and_books_once(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    session = profile_session(fresh_portal, context)
    try:
        room = (await session.availability("main", FRIDAY)).free_rooms(time(14), time(15))[0]
        await context.clear_cookies()
        made = await session.book(
            room=room, day=FRIDAY, start=time(14), end=time(15), purpose="relogin #f4"
        )
    finally:
        await session.close()
    assert session.logins == 2
    listed = await active_bookings(fresh_portal.url, purpose="relogin #f4")
    assert [str(b["id"]) for b in listed] == [made.number]


async def test_an_answer_the_profile_does_not_expect_is_looked_up_not_sent_again(
    fresh_portal: RunningPortal, context: BrowserContext
) -> None:
    # The profile's booking address is wrong: the redirect after the POST is not it.
    text = PROFILE.read_text(encoding="utf-8").replace(
        "booked: ^/booking/(\\d+)$", "booked: ^/bookings/(\\d+)$"
    )
    session = profile_session(fresh_portal, context, text)
    try:
        room = (await session.availability("main", FRIDAY)).free_rooms(time(16), time(17))[0]
        made = await session.book(
            room=room, day=FRIDAY, start=time(16), end=time(17), purpose="odd answer #f5"
        )
    finally:
        await session.close()
    listed = await active_bookings(fresh_portal.url, purpose="odd answer #f5")
    assert [str(b["id"]) for b in listed] == [made.number]


def _forms_fetched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The pages the fast path fetches for the form's token from now on (each still
    fetched from the site)."""
    fetched: list[str] = []

    async def noting(api: APIRequestContext, address: str) -> PageHtml | None:
        fetched.append(address.split("?")[0].rsplit("/", 1)[-1])
        return await fetch_html(api, address)

    monkeypatch.setattr(fastpath, "fetch_html", noting)
    return fetched


async def _book_in_a_new_session(
    system: ProfileSystem,
    context: BrowserContext,
    start: int,
    purpose: str,
    *,
    before_booking: Callable[[], Awaitable[None]] | None = None,
) -> str:
    session = system.open_session(context, username="club", password="club-demo")
    try:
        free = (await session.availability("main", FRIDAY)).free_rooms(time(start), time(start + 1))
        if before_booking is not None:
            await before_booking()
        made = await session.book(
            room=free[0], day=FRIDAY, start=time(start), end=time(start + 1), purpose=purpose
        )
    finally:
        await session.close()
    return made.number


async def test_the_forms_token_is_kept_for_the_accounts_next_session_on_the_same_cookies(
    fresh_portal: RunningPortal, context: BrowserContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetched = _forms_fetched(monkeypatch)
    system = ProfileSystem(fresh_portal.url, load_site_profile(PROFILE), retry=FAST)
    first = await _book_in_a_new_session(system, context, 9, "kept 1 #k1")
    assert fetched == ["book"]
    seen = _page_requests(context)
    second = await _book_in_a_new_session(system, context, 10, "kept 2 #k2")
    assert fetched == ["book"]  # the second booking sent the kept token
    assert not any(r.endswith(" book") for r in seen), seen
    for number, purpose in ((first, "kept 1 #k1"), (second, "kept 2 #k2")):
        held = await active_bookings(fresh_portal.url, purpose=purpose)
        assert [str(b["id"]) for b in held] == [number]


async def test_a_kept_token_the_site_no_longer_takes_is_replaced_and_the_booking_made_once(
    fresh_portal: RunningPortal, context: BrowserContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetched = _forms_fetched(monkeypatch)
    system = ProfileSystem(fresh_portal.url, load_site_profile(PROFILE), retry=FAST)
    await _book_in_a_new_session(system, context, 11, "before #k3")
    for open_session in fresh_portal.app[STATE].sessions.sessions.values():
        open_session.csrf = secrets.token_urlsafe(24)  # the site's new token, the cookies the same
    seen = _page_requests(context)
    number = await _book_in_a_new_session(system, context, 12, "after #k4")
    assert fetched == ["book", "book"]  # the new token read from the form's page
    assert not any(r.endswith(" book") for r in seen), seen  # and sent by the fast path
    held = await active_bookings(fresh_portal.url, purpose="after #k4")
    assert [str(b["id"]) for b in held] == [number]


async def test_an_unclear_answer_to_a_kept_token_drops_it_and_the_booking_is_made_once(
    fresh_portal: RunningPortal, context: BrowserContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    fetched = _forms_fetched(monkeypatch)
    system = ProfileSystem(fresh_portal.url, load_site_profile(PROFILE), retry=FAST)
    await _book_in_a_new_session(system, context, 13, "before #k5")

    async def fail_the_next_request() -> None:  # the POST with the kept token: a 5xx
        await set_quirks(fresh_portal.url, error_rate=1.0, error_gap=1000)

    try:
        number = await _book_in_a_new_session(
            system, context, 14, "after #k6", before_booking=fail_the_next_request
        )
        assert (await chaos_served(fresh_portal.url))["errors_served"] == 1
    finally:
        await set_quirks(fresh_portal.url)
    # «my bookings» showed nothing made; sent again with the form's token, read anew.
    assert fetched == ["book", "book"]
    held = await active_bookings(fresh_portal.url, purpose="after #k6")
    assert [str(b["id"]) for b in held] == [number]


async def test_a_forms_value_is_read_by_the_inputs_name_in_any_attribute_order() -> None:
    html = (
        '<form><input type="hidden" value="a&amp;b" name="csrf_token">'
        "<input name='room' value='main-201'><input name=next value=/my></form>"
    )
    assert form_value(html, "csrf_token") == "a&b"
    assert form_value(html, "room") == "main-201"
    assert form_value(html, "next") == "/my"
    assert form_value(html, "date") is None
