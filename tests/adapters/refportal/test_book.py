"""Booking through the form: success, taken slots, every rule the portal enforces."""

from __future__ import annotations

from datetime import time, timedelta

import pytest
from playwright.async_api import BrowserContext, Route

from adapters.profile import ProfileSession
from core.site.errors import OutcomeUnconfirmed, OutcomeUnknown, PortalUnavailable
from portal.server import RunningPortal
from scenarios.booking.errors import BookingRejected, SlotTaken
from tests.adapters.refportal.helpers import (
    FAST,
    FRIDAY,
    TODAY,
    active_bookings,
    make_session,
    room_of,
    set_quirks,
)
from tests.portal.helpers import TestClock, busy_booking, free_room

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_book_appears_in_my_bookings_and_on_the_portal(
    session: ProfileSession, portal: RunningPortal
) -> None:
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:30")
    booking = await session.book(
        room=room_of(room_id),
        day=FRIDAY,
        start=time(18),
        end=time(19, 30),
        purpose="Заседание клуба",
        attendees=10,
    )
    assert booking.number.isdigit()
    assert (booking.building, booking.building_name) == ("main", "Главный корпус")
    assert booking.room_id == room_id
    assert (booking.day, booking.start, booking.end) == (FRIDAY, time(18), time(19, 30))
    assert (booking.purpose, booking.status) == ("Заседание клуба", "active")

    # «My bookings» does not say the site's id of the room (its number and building).
    assert await session.my_bookings() == [booking.model_copy(update={"room_id": ""})]
    [stored] = await active_bookings(portal.url, user="club")
    assert (str(stored["id"]), stored["room"], stored["attendees"]) == (
        booking.number,
        room_id,
        10,
    )


async def test_taken_slot_is_slot_taken(session: ProfileSession, portal: RunningPortal) -> None:
    taken = await busy_booking(portal.url, FRIDAY)
    with pytest.raises(SlotTaken) as caught:
        await session.book(
            room=room_of(taken["room"]),
            day=FRIDAY,
            start=time.fromisoformat(taken["start"]),
            end=time.fromisoformat(taken["end"]),
            purpose="Клуб",
        )
    assert caught.value.message == "Это время уже занято: выберите другое."
    assert caught.value.code == "slot_taken"
    assert await active_bookings(portal.url, user="club") == []


_CASES = [
    # (code, day, start, end, purpose, attendees, the portal's message)
    ("bad_time", FRIDAY, "19:00", "18:00", "Клуб", None,
     "Время окончания должно быть позже времени начала."),
    ("outside_hours", FRIDAY, "07:00", "08:00", "Клуб", None,
     "Аудитории можно бронировать только с 08:00 до 22:00."),
    ("not_aligned", FRIDAY, "18:15", "19:00", "Клуб", None,
     "Начало и окончание должны быть кратны 30 минутам."),
    ("too_long", FRIDAY, "10:00", "14:30", "Клуб", None,
     "Одна бронь не может быть длиннее 4 часов."),
    ("in_past", TODAY, "08:00", "08:30", "Клуб", None,
     "Нельзя забронировать аудиторию на прошедшее время."),
    ("too_far", TODAY + timedelta(days=15), "18:00", "19:00", "Клуб", None,
     "Бронировать можно не более чем на 14 дней вперёд."),
    ("purpose_required", FRIDAY, "18:00", "19:00", "   ", None,
     "Укажите цель бронирования."),
    ("over_capacity", FRIDAY, "18:00", "19:00", "Клуб", 1000,
     "Участников больше, чем мест в аудитории"),
]  # fmt: skip


async def test_each_portal_rule_is_booking_rejected_with_its_message(
    session: ProfileSession, portal: RunningPortal
) -> None:
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    for code, day, start, end, purpose, attendees, message in _CASES:
        with pytest.raises(BookingRejected) as caught:
            await session.book(
                room=room_of(room_id),
                day=day,
                start=time.fromisoformat(start),
                end=time.fromisoformat(end),
                purpose=purpose,
                attendees=attendees,
            )
        assert (caught.value.code, caught.value.message[: len(message)]) == (code, message)
    assert await active_bookings(portal.url, user="club") == []
    assert session.logins == 1


async def test_the_browser_form_check_is_booking_rejected(
    session: ProfileSession, portal: RunningPortal
) -> None:
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    for purpose, attendees, label in (("Клуб", 0, "Количество участников"), ("", 5, "Цель")):
        with pytest.raises(BookingRejected) as caught:
            await session.book(
                room=room_of(room_id),
                day=FRIDAY,
                start=time(18),
                end=time(19),
                purpose=purpose,
                attendees=attendees,
            )
        assert caught.value.code == "client_validation"
        assert caught.value.message.startswith(label)


async def test_unknown_room_is_rejected(session: ProfileSession) -> None:
    with pytest.raises(BookingRejected) as caught:
        await session.book(
            room=room_of("main-999"), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
        )
    assert caught.value.code == "unknown_room"


async def test_a_post_with_an_unknown_outcome_is_found_in_my_bookings_not_sent_again(
    context: BrowserContext, portal: RunningPortal
) -> None:
    """The booking is made but the answer is lost (a 502 from a proxy): one POST only,
    and the booking is read from «Мои брони»."""
    posts: list[str] = []

    async def lose_the_answer(route: Route) -> None:
        if route.request.method != "POST":
            await route.continue_()
            return
        posts.append(route.request.url)
        await route.fetch()  # the portal does book it…
        await route.fulfill(status=502, body="<h1>502 Bad Gateway</h1>", content_type="text/html")

    await context.route("**/book", lose_the_answer)
    session = make_session(context, portal, page_path=True)  # the browser's POST
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    booking = await session.book(
        room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
    )
    assert len(posts) == 1
    assert (booking.room, booking.start, booking.purpose) == (
        room_id.rpartition("-")[2],
        time(18),
        "Клуб",
    )
    assert [str(b["id"]) for b in await active_bookings(portal.url, user="club")] == [
        booking.number
    ]
    await session.close()


async def test_a_post_lost_before_the_portal_saw_it_is_sent_again_once(
    context: BrowserContext, portal: RunningPortal
) -> None:
    """A 502 from a proxy that never passed the POST on: not in «Мои брони», so resent."""
    posts = 0

    async def drop_the_first_post(route: Route) -> None:
        nonlocal posts
        if route.request.method == "POST":
            posts += 1
            if posts == 1:
                await route.fulfill(status=502, body="<h1>502</h1>", content_type="text/html")
                return
        await route.continue_()

    await context.route("**/book", drop_the_first_post)
    session = make_session(context, portal, page_path=True)  # the browser's POST
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    booking = await session.book(
        room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
    )
    assert posts == 2
    assert [str(b["id"]) for b in await active_bookings(portal.url, user="club")] == [
        booking.number
    ]
    await session.close()


async def test_a_post_that_is_always_lost_before_the_portal_is_unavailable_in_the_end(
    context: BrowserContext, portal: RunningPortal
) -> None:
    """Never passed on: each time the day shows the room free (not made), so it is sent
    again up to the policy's attempts, then the site is unavailable (nothing was made)."""
    posts = 0

    async def drop_every_post(route: Route) -> None:
        nonlocal posts
        if route.request.method == "POST":
            posts += 1
            await route.fulfill(status=502, body="<h1>502</h1>", content_type="text/html")
            return
        await route.continue_()

    await context.route("**/book", drop_every_post)
    session = make_session(context, portal, page_path=True)  # the browser's POST
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    with pytest.raises(PortalUnavailable) as caught:
        await session.book(
            room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
        )
    assert not isinstance(caught.value, OutcomeUnknown | OutcomeUnconfirmed)
    assert posts == FAST.attempts
    assert await active_bookings(portal.url, user="club") == []
    await session.close()


async def test_a_post_made_whose_answer_is_lost_and_not_listed_is_never_sent_again(
    context: BrowserContext, portal: RunningPortal
) -> None:
    """The portal books it, the answer is lost, and «Мои брони» (shown as a site that
    lists only the next days would) does not have it: the day shows the room held, so
    the POST is not sent again and the outcome is unconfirmed, with what to check."""
    posts = 0

    async def lose_the_answer(route: Route) -> None:
        nonlocal posts
        if route.request.method != "POST":
            await route.continue_()
            return
        posts += 1
        await route.fetch()  # the portal does book it…
        await route.fulfill(status=502, body="<h1>502</h1>", content_type="text/html")

    await context.route("**/book", lose_the_answer)
    await set_quirks(portal.url, drift=["short_list"])
    session = make_session(context, portal, page_path=True)  # the browser's POST
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    with pytest.raises(OutcomeUnconfirmed) as caught:
        await session.book(
            room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
        )
    assert posts == 1
    assert caught.value.room == room_id.rpartition("-")[2]
    assert len(await active_bookings(portal.url, user="club")) == 1
    await session.close()


async def test_a_post_bounced_to_login_is_sent_again_after_logging_in(
    context: BrowserContext, portal: RunningPortal, clock: TestClock
) -> None:
    """The session expires between the form and its POST: the portal refuses, so redo it."""
    await set_quirks(portal.url, session_lifetime=60)
    posts = 0

    async def expire_before_the_first_post(route: Route) -> None:
        nonlocal posts
        if route.request.method == "POST":
            posts += 1
            if posts == 1:
                clock.advance(timedelta(seconds=61))
        await route.continue_()

    await context.route("**/book", expire_before_the_first_post)
    session = make_session(context, portal, page_path=True)  # the browser's POST
    await session.ensure_logged_in()
    room_id = await free_room(portal.url, "main", FRIDAY, "18:00", "19:00")
    booking = await session.book(
        room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
    )
    assert (posts, session.logins) == (2, 2)
    assert [str(b["id"]) for b in await active_bookings(portal.url, user="club")] == [
        booking.number
    ]
    await session.close()
