"""The club's events are its members' own, through the real bot on a real Indico 3.2.9
(issue 65): another member's event and another account's event in the club's category
(its description a copy of the member's own mark) are not listed, opened, counted or
cancelled, and naming one is refused plainly; a room booking that Indico fails leaves
no event behind, and the user is told so.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import date, time, timedelta

import pytest

from adapters.indico.api import login
from adapters.indico.events import events_on
from bot.factory import BotApp
from core.browser import BrowserPool
from core.texts import day_label
from tests.adapters.indico.indico_faults import failing_bookings, failing_deletes
from tests.fakes.telegram import FakeTelegram, StoredMessage
from tests.support.indico_server import DbEvent, IndicoServer

WAIT = 120.0  # Chromium and Indico on a busy two-core machine
CLUB_CATEGORY = "Шахматный клуб"  # scripts/indico/seed.json: the club may create events here
ADMIN = 64  # the club's administrator in this module (TELEGRAM__ADMINS)
NOT_YOURS = (
    "Не получилось: Это мероприятие создано не вами: открывать регистрацию, считать "
    "записавшихся и отменять я могу только на мероприятиях, созданных вами через меня."
)


def has(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


@pytest.fixture
def admins() -> list[int]:
    return [ADMIN]


async def _live_events(server: IndicoServer, title: str) -> list[DbEvent]:
    rows = await asyncio.to_thread(server.events)
    return [e for e in rows if e.title == title and not e.is_deleted]


async def _someone_elses(
    server: IndicoServer, *, title: str, day: date, copied_from: DbEvent
) -> DbEvent:
    """An event another account (Indico's admin) makes in the club's category at 14:00,
    its description carrying the run mark of ``copied_from``. On a browser of its own:
    the package's pool lives on the session's event loop, this test on its own."""
    found = re.search(r"#[\w-]+", copied_from.description)
    assert found is not None
    category = await asyncio.to_thread(server.category_id, CLUB_CATEGORY)
    async with BrowserPool(max_contexts=1) as pool, pool.context() as context:
        page = await context.new_page()
        other = server.admin
        await login(page, server.base_url, other.username, other.password)
        someone = await events_on(
            context, server.base_url, category_id=category, timezone=server.stack.timezone
        )
        await someone.create_event(
            title=title, day=day, start=time(14), end=time(15), room_id=None, mark=found.group(0)
        )
    [made] = await _live_events(server, title)
    return made


async def test_another_persons_event_is_not_listed_opened_counted_or_cancelled(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    """«мои мероприятия» listed another person's event in a category the club shares, and
    naming another member's event got «Какое мероприятие?» with one's own as buttons."""
    day = indico_server.today() + timedelta(days=21)
    mine, gleb_s, foreign = (
        f"Лекция Веры {day:%d.%m}",
        f"Турнир Глеба {day:%d.%m}",
        f"Чужой семинар {day:%d.%m}",
    )
    vera = tg.user(61, "Вера", language_code="ru")
    gleb = tg.user(62, "Глеб", language_code="ru")
    await vera.send(f"создай мероприятие «{mine}» {day:%d.%m} с 10 до 11 в 7-701")
    await vera.wait_for_message(has("Создано мероприятие"), timeout=WAIT)
    await gleb.send(f"создай мероприятие «{gleb_s}» {day:%d.%m} с 12 до 13 в 7-701")
    await gleb.wait_for_message(has("Создано мероприятие"), timeout=WAIT)
    [own] = await _live_events(indico_server, mine)
    [glebs] = await _live_events(indico_server, gleb_s)
    theirs = await _someone_elses(indico_server, title=foreign, day=day, copied_from=own)

    await vera.send("мои мероприятия")
    listing = await vera.wait_for_message(has("Мероприятия клуба:"), timeout=WAIT)
    assert mine in (listing.text or "")
    assert gleb_s not in (listing.text or "") and foreign not in (listing.text or "")
    await gleb.send("мои мероприятия")
    listing = await gleb.wait_for_message(has("Мероприятия клуба:"), timeout=WAIT)
    assert gleb_s in (listing.text or "")
    assert mine not in (listing.text or "") and foreign not in (listing.text or "")

    for command in (
        f"открой регистрацию на «{gleb_s}» до 30 человек",
        f"открой регистрацию на «{foreign}»",
        f"сколько записалось на «{gleb_s}»",
        f"сколько записалось на «{foreign}»",
        f"отмени мероприятие «{gleb_s}»",
        f"отмени мероприятие «{foreign}»",
    ):
        await vera.send(command)
        refused = await vera.wait_for_message(has("создано не вами"), timeout=WAIT)
        assert refused.text == NOT_YOURS, command
        assert refused.labels == [], command  # no «which one?» with her own events
    for event in (glebs, theirs):
        assert await asyncio.to_thread(indico_server.regforms, event.id) == []
        row = await asyncio.to_thread(indico_server.event, event.id)
        assert row is not None and not row.is_deleted


async def test_a_room_booking_the_server_fails_leaves_no_event_and_says_so(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    """The event stayed on the site without its room while the user read «Не получилось»."""
    day = indico_server.today() + timedelta(days=22)
    title = f"Сеанс одновременной игры {day:%d.%m}"
    user = tg.user(63, "Ия", language_code="ru")
    with failing_bookings(indico_server.stack, reason_with=title):
        await user.send(f"создай мероприятие «{title}» {day:%d.%m} с 15 до 17 в 7-702")
        failed = await user.wait_for_message(has("забронировать не удалось"), timeout=WAIT)
    assert failed.text == (
        f"Не получилось: Аудиторию 7-702 для мероприятия «{title}» забронировать не удалось "
        "(сайт ответил ошибкой), поэтому мероприятие удалено с сайта: от этой заявки там "
        "ничего не осталось."
    )
    assert await _live_events(indico_server, title) == []
    room = await asyncio.to_thread(indico_server.room, "7/7-702")
    bookings = await asyncio.to_thread(indico_server.bookings, room.id)
    assert [b for b in bookings if title in b.reason and b.state != "cancelled"] == []


async def test_an_administrator_acts_on_every_members_event_but_not_on_anothers(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=23)
    members, foreign = f"Лекция Веры {day:%d.%m}", f"Чужой семинар {day:%d.%m}"
    vera = tg.user(65, "Вера", language_code="ru")
    await vera.send(f"создай мероприятие «{members}» {day:%d.%m} с 10 до 11 в 7-701")
    await vera.wait_for_message(has("Создано мероприятие"), timeout=WAIT)
    [own] = await _live_events(indico_server, members)
    theirs = await _someone_elses(indico_server, title=foreign, day=day, copied_from=own)

    admin = tg.user(ADMIN, "Ада", language_code="ru")
    await admin.send("мои мероприятия")
    listing = await admin.wait_for_message(has("Мероприятия клуба:"), timeout=WAIT)
    assert members in (listing.text or "") and foreign not in (listing.text or "")
    await admin.send(f"сколько записалось на «{members}»")
    counted = await admin.wait_for_message(has("записалось:"), timeout=WAIT)
    assert counted.text == f"На «{members}» записалось: 0."
    await admin.send(f"отмени мероприятие «{foreign}»")
    refused = await admin.wait_for_message(has("создано не клубом"), timeout=WAIT)
    assert refused.text == (
        "Не получилось: Это мероприятие создано не клубом: я распоряжаюсь только "
        "мероприятиями, созданными через меня."
    )
    row = await asyncio.to_thread(indico_server.event, theirs.id)
    assert row is not None and not row.is_deleted


async def test_an_event_that_cannot_be_deleted_either_is_named_and_stays_the_users(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    day = indico_server.today() + timedelta(days=24)
    title = f"Разбор партий {day:%d.%m}"
    user = tg.user(67, "Ян", language_code="ru")
    with (
        failing_bookings(indico_server.stack, reason_with=title),
        failing_deletes(indico_server.stack, title_with=title),
    ):
        await user.send(f"создай мероприятие «{title}» {day:%d.%m} с 15 до 17 в 7-702")
        told = await user.wait_for_message(has("осталось на сайте"), timeout=WAIT)
    [left] = await _live_events(indico_server, title)
    url = f"{indico_server.base_url}/event/{left.id}/"
    assert told.text == (
        f"Не получилось: Мероприятие «{title}» создано ({day_label(day, 'ru')} 15:00–17:00, "
        f"{url}), но аудиторию 7-702 забронировать не удалось (сайт ответил ошибкой), и "
        "удалить мероприятие тоже не получилось: оно осталось на сайте без аудитории. "
        f"Удалите его там или напишите мне «отмени мероприятие «{title}»»."
    )
    assert left.booking_ids == ()
    # What it says to write works: the event is the user's own.
    await user.send(f"отмени мероприятие «{title}»")
    await user.wait_for_message(has("Отменить мероприятие"), timeout=WAIT)
    await user.wait_for_answer(await user.tap("Да"))
    await user.wait_for_message(has(f"Мероприятие «{title}» отменено."), timeout=WAIT)
    assert await _live_events(indico_server, title) == []
