"""Models, summaries, errors and retries without a browser."""

from __future__ import annotations

from datetime import date, time

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from core.browser.retry import Bounced, RetryPolicy, Transient, with_retries
from core.browser.summary import MAX_TEXT, _trim
from core.errors import BrowserError, PortalError
from core.site import (
    LockedOut,
    LoginFailed,
    PageSummary,
    PortalUnavailable,
    Room,
    SessionExpired,
    UnexpectedPage,
)
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.models import Availability, RoomAvailability

DAY = date(2026, 11, 27)
FAST = RetryPolicy(attempts=3, base_delay=0.001, max_delay=0.002)


def test_grid_is_free_checks_overlap_hours_and_unknown_rooms() -> None:
    room = Room(id="lab-501", building="lab", number="501", floor=5, capacity=20)
    grid = Availability(
        building="lab",
        day=DAY,
        rooms=[RoomAvailability(room=room, busy=[(time(10), time(11))])],
    )
    assert grid.is_free("501", time(9), time(10))
    assert grid.is_free("501", time(11), time(12))
    assert not grid.is_free("501", time(10, 30), time(11, 30))
    assert not grid.is_free("501", time(7, 30), time(8, 30))  # before opening
    assert not grid.is_free("501", time(12), time(12))  # empty interval
    assert not grid.is_free("999", time(9), time(10))
    assert grid.free_rooms(time(18), time(20)) == [room]


def test_summary_text_is_trimmed() -> None:
    text = "\n".join(["  строка   с  пробелами  "] * 500)
    trimmed = _trim(text)
    assert len(trimmed) <= MAX_TEXT and trimmed.endswith("…")
    assert trimmed.startswith("строка с пробелами\n")


def test_every_error_is_a_portal_error_with_a_message() -> None:
    summary = PageSummary(url="http://portal/notice", title="t")
    errors: list[PortalError] = [
        PortalUnavailable("a"),
        LoginFailed("b"),
        LockedOut("c"),
        SlotTaken("d", code="slot_taken"),
        BookingRejected("e", code="in_past", hint="h"),
        SessionExpired("f"),
        UnexpectedPage("g", summary),
    ]
    assert all(isinstance(e, PortalError) for e in errors)
    assert str(errors[4]) == "e — h" and errors[4].code == "in_past"  # type: ignore[attr-defined]
    assert errors[6].summary is summary  # type: ignore[attr-defined]


async def test_transient_failures_are_retried_then_unavailable() -> None:
    calls = 0

    async def flaky() -> str:
        nonlocal calls
        calls += 1
        if calls < 3:
            raise Transient("HTTP 502")
        return "ok"

    assert await with_retries(FAST, flaky, what="test") == "ok"
    calls = -10
    with pytest.raises(PortalUnavailable) as caught:
        await with_retries(FAST, flaky, what="test")
    assert isinstance(caught.value.__cause__, Transient)
    assert calls == -7


async def test_playwright_errors_are_translated() -> None:
    async def timeout() -> None:
        raise PlaywrightTimeoutError("Timeout 10ms exceeded.")

    async def refused() -> None:
        raise PlaywrightError("Page.goto: net::ERR_CONNECTION_REFUSED at http://x/")

    async def closed() -> None:
        raise PlaywrightError("Target page, context or browser has been closed")

    for action in (timeout, refused):
        with pytest.raises(PortalUnavailable) as caught:
            await with_retries(FAST, action, what="test")
        assert isinstance(caught.value.__cause__, Transient)
    with pytest.raises(BrowserError):
        await with_retries(FAST, closed, what="test")


async def test_a_bounce_is_not_retried_here() -> None:
    calls = 0

    async def bounced() -> None:
        nonlocal calls
        calls += 1
        raise Bounced()

    with pytest.raises(Bounced):
        await with_retries(FAST, bounced, what="test")
    assert calls == 1
