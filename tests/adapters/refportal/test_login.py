"""Logging in: saved sessions, wrong passwords, lockout, expiry mid-flow, the rules notice."""

from __future__ import annotations

from datetime import time, timedelta
from urllib.parse import urlsplit

import pytest
from playwright.async_api import BrowserContext, Request

from adapters.profile import ProfileSession
from core.browser import BrowserPool
from core.site.errors import LockedOut, LoginFailed, SessionExpired, UnexpectedPage
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import FRIDAY, make_session, room_of, set_quirks
from tests.portal.helpers import TestClock, free_room

pytestmark = pytest.mark.asyncio(loop_scope="session")


async def test_saved_storage_state_skips_the_login_page(
    session: ProfileSession, pool: BrowserPool, portal: RunningPortal
) -> None:
    await session.ensure_logged_in()
    assert session.logins == 1
    state = await session.storage_state()
    assert any(cookie["name"] == "portal_session" for cookie in state["cookies"])
    assert "club-demo" not in str(state)

    async with pool.context(storage_state=state) as later:
        paths: list[str] = []

        def record(request: Request) -> None:
            paths.append(urlsplit(request.url).path)

        later.on("request", record)
        again = make_session(later, portal)
        await again.ensure_logged_in()
        grid = await again.availability("lab", FRIDAY)
        await again.close()
    assert again.logins == 0
    assert "/login" not in paths
    assert len(grid.rooms) == 6


async def test_ensure_logged_in_twice_logs_in_once(session: ProfileSession) -> None:
    await session.ensure_logged_in()
    await session.ensure_logged_in()
    assert session.logins == 1


async def test_wrong_password_is_login_failed_without_the_password(
    context: BrowserContext, portal: RunningPortal
) -> None:
    wrong = make_session(context, portal, password="s3cret-guess")
    with pytest.raises(LoginFailed) as caught:
        await wrong.ensure_logged_in()
    assert "Неверное имя пользователя или пароль" in caught.value.message
    assert wrong.logins == 1  # a refused password is never retried
    summary = await wrong.page_summary()
    assert "Пароль" in summary.fields and "Войти" in summary.buttons
    for text in (str(caught.value), repr(wrong), summary.model_dump_json()):
        assert "s3cret" not in text


async def test_five_failures_lock_the_account(
    context: BrowserContext, portal: RunningPortal
) -> None:
    wrong = make_session(context, portal, username="chess", password="nope")
    for _ in range(4):
        with pytest.raises(LoginFailed):
            await wrong.ensure_logged_in()
    with pytest.raises(LockedOut) as caught:
        await wrong.ensure_logged_in()
    assert "временно заблокирован" in caught.value.message
    right = make_session(context, portal, username="chess", password="chess-demo")
    with pytest.raises(LockedOut):
        await right.ensure_logged_in()


async def test_session_expiry_mid_flow_logs_in_again_transparently(
    session: ProfileSession, portal: RunningPortal, clock: TestClock
) -> None:
    await set_quirks(portal.url, session_lifetime=60)
    await session.ensure_logged_in()
    clock.advance(timedelta(seconds=61))
    grid = await session.availability("main", FRIDAY)
    assert len(grid.rooms) == 30
    assert session.logins == 2
    clock.advance(timedelta(seconds=61))
    assert await session.my_bookings() == []
    assert session.logins == 3


async def test_a_session_that_expires_at_once_is_session_expired(
    session: ProfileSession, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, session_lifetime=0)
    with pytest.raises(SessionExpired):
        await session.availability("main", FRIDAY)


async def test_rules_notice_is_an_unexpected_page_that_can_be_resolved(
    session: ProfileSession, portal: RunningPortal
) -> None:
    await set_quirks(portal.url, notice=True)
    with pytest.raises(UnexpectedPage) as caught:
        await session.ensure_logged_in()
    summary = caught.value.summary
    assert summary.heading == "Правила бронирования изменились"
    assert "Правила бронирования изменились" in summary.text
    assert "Я ознакомлен(а) с правилами" in summary.fields
    assert "Продолжить" in summary.buttons
    assert (await session.page_summary()).heading == summary.heading

    with pytest.raises(UnexpectedPage):  # still there for any action until acknowledged
        await session.my_bookings()
    await session.check("Я ознакомлен(а) с правилами", step="login")
    await session.click("button", "Продолжить", step="login")  # login may post the notice
    assert (await session.page_summary()).heading != summary.heading
    await session.ensure_logged_in()
    assert len((await session.availability("lab", FRIDAY)).rooms) == 6
    assert session.logins == 1


async def test_click_on_a_missing_element_is_an_unexpected_page(session: ProfileSession) -> None:
    await session.ensure_logged_in()
    with pytest.raises(UnexpectedPage) as caught:
        await session.click("button", "Нет такой кнопки")
    assert caught.value.summary.heading == "Мои брони"
    with pytest.raises(ValueError):
        await session.click("heading", "Мои брони")


async def test_my_bookings_right_after_logging_in_is_not_loaded_again(
    context: BrowserContext, portal: RunningPortal
) -> None:
    loads: list[str] = []

    def record(request: Request) -> None:
        if request.is_navigation_request():
            loads.append(urlsplit(request.url).path)

    context.on("request", record)
    session = make_session(context, portal)
    await session.ensure_logged_in()
    assert loads[:3] == ["/login", "/login", "/my"]  # the form, its POST, where it led
    after_login = len(loads)
    assert await session.my_bookings() == []
    assert len(loads) == after_login

    room_id = await free_room(portal.url, "lab", FRIDAY, "18:00", "19:00")
    booked = await session.book(
        room=room_of(room_id), day=FRIDAY, start=time(18), end=time(19), purpose="Клуб"
    )
    # Read anew after booking (by the list's call: no page).
    assert [b.number for b in await session.my_bookings()] == [booked.number]
    await session.close()
