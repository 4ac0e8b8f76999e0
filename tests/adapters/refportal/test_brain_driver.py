"""The page driver the brain uses, on the portal's hostile notices in real Chromium:
it presses the element the summary named (by handle, exactly), refuses look-alikes of
forbidden words, and its network guard stops a harmless-looking control that posts a
cancel. Checked on the portal's side: no cancel request arrives."""

from __future__ import annotations

import aiohttp
import pytest
from playwright.async_api import BrowserContext

from adapters.profile import ProfileSession
from core.brain import ControlRefused, RequestBlocked
from core.site import PageSummary, UnexpectedPage
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import set_quirks

pytestmark = pytest.mark.asyncio(loop_scope="session")

ACK = "Я ознакомлен(а) с правилами"


async def received_cancels(base_url: str) -> list[str]:
    async with aiohttp.ClientSession() as http, http.get(f"{base_url}/_test/cancels") as resp:
        resp.raise_for_status()
        found: list[str] = await resp.json()
    return found


async def landed_on(session: ProfileSession, url: str, **quirks: str | bool) -> PageSummary:
    """Log in with the quirks on: the notice (hostile or not) stops the login."""
    await set_quirks(url, **quirks)
    with pytest.raises(UnexpectedPage) as caught:
        await session.ensure_logged_in()
    return caught.value.summary


async def test_uppercased_ok_presses_that_very_button_not_the_cancel_all_whose_name_ends_in_ok(
    session: ProfileSession, fresh_portal: RunningPortal
) -> None:
    page = await landed_on(session, fresh_portal.url, hostile="transform")
    assert page.buttons == ["Отменить все брони клуба ok", "OK"]

    await session.click("button", "OK", step="login")

    assert (await session.page_summary()).alerts == ["Нажата кнопка OK"]
    assert await received_cancels(fresh_portal.url) == []


async def test_a_name_that_is_not_exactly_summarised_is_not_pressed_at_all(
    session: ProfileSession, fresh_portal: RunningPortal
) -> None:
    await landed_on(session, fresh_portal.url, hostile="transform")
    for near in ("ok", "Ok", "Отменить все брони"):  # case or substring: once enough
        with pytest.raises(UnexpectedPage):
            await session.click("button", near, step="login")
    assert (await session.page_summary()).alerts == []
    assert await received_cancels(fresh_portal.url) == []


@pytest.mark.parametrize(
    ("hostile", "name"),
    [
        ("transform", "Отменить все брони клуба ok"),
        ("homoglyph", "Oтменить брони"),
        ("zero_width", "От\u200dменить брони"),
    ],
)
async def test_look_alikes_of_forbidden_words_are_refused_before_any_click(
    session: ProfileSession, fresh_portal: RunningPortal, hostile: str, name: str
) -> None:
    page = await landed_on(session, fresh_portal.url, hostile=hostile)
    assert name in page.buttons

    with pytest.raises(ControlRefused):
        await session.click("button", name, step="login")
    assert await received_cancels(fresh_portal.url) == []


async def test_an_innocent_label_posting_a_cancel_is_blocked_by_the_network_guard(
    session: ProfileSession, fresh_portal: RunningPortal
) -> None:
    page = await landed_on(session, fresh_portal.url, hostile="innocent")
    assert (page.fields, page.buttons) == ([ACK], ["Продолжить"])  # the notice, to the letter

    await session.check(ACK, step="login")
    with pytest.raises(RequestBlocked) as caught:
        await session.click("button", "Продолжить", step="login")

    assert [w.split("?")[0] for w in caught.value.what] == [f"POST {fresh_portal.url}/my/cleanup"]
    assert await received_cancels(fresh_portal.url) == []


async def test_the_real_notice_goes_through_for_login_which_declared_it_and_not_otherwise(
    session: ProfileSession, fresh_portal: RunningPortal
) -> None:
    await landed_on(session, fresh_portal.url, notice=True)
    await session.check(ACK, step="find")  # ticking sends nothing
    with pytest.raises(RequestBlocked):  # "find" declared no change: the ack is not sent
        await session.click("button", "Продолжить", step="find")
    with pytest.raises(UnexpectedPage):
        await session.ensure_logged_in()  # still the notice

    await session.check(ACK, step="login")
    await session.click("button", "Продолжить", step="login")
    await session.ensure_logged_in()


async def test_following_a_link_is_a_read_and_passes_the_guard(
    session: ProfileSession, fresh_portal: RunningPortal
) -> None:
    await landed_on(session, fresh_portal.url, hostile="innocent")
    await session.click("link", "Аудитории", step="find")
    assert "/notice" in (await session.page_summary()).url  # the gate sends it back, by GET


async def test_a_change_the_page_sends_after_the_click_is_blocked_and_reported_next(
    session: ProfileSession, context: BrowserContext, fresh_portal: RunningPortal
) -> None:
    await landed_on(session, fresh_portal.url, hostile="transform")
    await session.click("button", "OK", step="login")  # judged harmless: the guard stays on
    [page] = context.pages
    # What a timer on the page could do once the click was judged: blocked all the same.
    sent = await page.evaluate(
        "fetch('/my/cleanup', {method: 'POST'}).then(() => 'sent', () => 'failed')"
    )
    assert sent == "failed"

    with pytest.raises(RequestBlocked) as caught:  # the session's own next step reports it
        await session.ensure_logged_in()
    assert [w.split("?")[0] for w in caught.value.what] == [f"POST {fresh_portal.url}/my/cleanup"]
    assert await received_cancels(fresh_portal.url) == []

    await set_quirks(fresh_portal.url)  # the guard is off now: the session works as before
    await session.ensure_logged_in()
    assert await session.my_bookings() == []


async def test_a_message_over_a_socket_the_page_opened_before_the_click_is_blocked(
    session: ProfileSession, context: BrowserContext, fresh_portal: RunningPortal
) -> None:
    page = await landed_on(session, fresh_portal.url, hostile="socket")
    assert page.buttons == ["Продолжить"]
    [tab] = context.pages
    # Unguarded, the page's socket reaches the portal: the check below can fail.
    await tab.wait_for_function("window.noticeSocket.readyState === 1")
    await tab.evaluate("window.noticeSocket.send('hello')")
    for _ in range(100):
        if await received_cancels(fresh_portal.url):
            break
        await tab.wait_for_timeout(50)
    assert await received_cancels(fresh_portal.url) == ["WS hello by club"]

    await session.check(ACK, step="login")
    with pytest.raises(RequestBlocked) as caught:
        await session.click("button", "Продолжить", step="login")

    assert caught.value.what == (f"WEBSOCKET {fresh_portal.url.replace('http', 'ws')}/my/socket",)
    await tab.wait_for_timeout(300)  # what got through would have arrived by now
    assert await received_cancels(fresh_portal.url) == ["WS hello by club"]
