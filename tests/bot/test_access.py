"""The allow list's middleware on its own (``bot.middlewares.access``), update by update:
who gets through to the handlers, who gets the one refusal, and that a stranger's button
tap only stops the client's spinner (issue 31). Real aiogram updates and a real Bot on
the fake Telegram server; no dispatcher, no storage."""

from __future__ import annotations

from typing import Any

import pytest
from aiogram import Bot
from aiogram.types import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    TelegramObject,
    Update,
    User,
)
from structlog.testing import capture_logs

from bot.middlewares.access import AccessMiddleware
from core.texts import Bot as BotTexts
from core.texts import tr
from tests.fakes.telegram import FakeTelegram, SimUser

MEMBER, STRANGER = 1, 666


class Seen:
    """The handler behind the middleware, the refusal's sender and its once-only claim."""

    def __init__(self) -> None:
        self.handled: list[TelegramObject] = []
        self.refused: list[tuple[int, str]] = []
        self.claimed: list[int] = []

    async def handler(self, event: TelegramObject, data: dict[str, Any]) -> str:
        self.handled.append(event)
        return "handled"

    async def first_refusal(self, user_id: int) -> bool:
        first = user_id not in self.claimed
        self.claimed.append(user_id)
        return first

    def refuse(self, chat_id: int, text: str) -> None:
        self.refused.append((chat_id, text))


def middleware(seen: Seen, *, allow_all: bool = False) -> AccessMiddleware:
    return AccessMiddleware(
        allowed=[MEMBER],
        allow_all=allow_all,
        first_refusal=seen.first_refusal,
        refuse=seen.refuse,
    )


def update(bot: Bot, body: dict[str, Any]) -> Update:
    return Update.model_validate({"update_id": 1, **body}, context={"bot": bot})


async def message(bot: Bot, user: SimUser, text: str = "hello") -> Update:
    return update(bot, {"message": await user.send(text)})


async def tap(bot: Bot, tg: FakeTelegram, user: SimUser) -> tuple[Update, str]:
    """``user`` taps a button under a bot message in their chat: the update and its id."""
    button = InlineKeyboardButton(text="Да", callback_data="yes")
    sent = await bot.send_message(
        user.chat.id, "?", reply_markup=InlineKeyboardMarkup(inline_keyboard=[[button]])
    )
    query_id = user.press("yes", message_id=sent.message_id)
    body = next(u for u in reversed(tg.queue.pending) if "callback_query" in u)
    return update(bot, {"callback_query": body["callback_query"]}), query_id


def sender(event: Update) -> User | None:
    """Who sent ``event``, as aiogram's user context puts it in the handler data."""
    for inner in (event.message, event.edited_message, event.callback_query):
        if inner is not None:
            return inner.from_user
    return None


async def through(access: AccessMiddleware, seen: Seen, event: Update) -> Any:
    """The middleware on ``event``, with the sender aiogram would put in the data."""
    return await access(seen.handler, event, {"event_from_user": sender(event)})


async def test_a_member_gets_through_and_the_handlers_answer_is_passed_back(
    bot: Bot, tg: FakeTelegram
) -> None:
    seen = Seen()
    event = await message(bot, tg.user(MEMBER, "Анна"))
    assert await through(middleware(seen), seen, event) == "handled"
    assert seen.handled == [event] and seen.refused == [] and seen.claimed == []


@pytest.mark.parametrize("allow_all", [False, True])
async def test_a_stranger_gets_through_only_when_everyone_is_allowed(
    bot: Bot, tg: FakeTelegram, allow_all: bool
) -> None:
    seen = Seen()
    access = middleware(seen, allow_all=allow_all)
    event = await message(bot, tg.user(STRANGER, "Eve"))
    assert await through(access, seen, event) == ("handled" if allow_all else None)
    assert seen.handled == ([event] if allow_all else [])
    assert access.allows(STRANGER) is allow_all
    assert access.allows(MEMBER)


@pytest.mark.parametrize(("language", "lang"), [("en", "en"), ("ru", "ru"), (None, "ru")])
async def test_a_strangers_first_message_gets_one_refusal_in_their_language(
    bot: Bot, tg: FakeTelegram, language: str | None, lang: str
) -> None:
    seen = Seen()
    access = middleware(seen)
    eve = tg.user(STRANGER, "Eve", language_code=language)
    with capture_logs() as logs:
        for text in ("/start", "hello", "забронируй аудиторию"):
            assert await through(access, seen, await message(bot, eve, text)) is None
    # The operator's log names who was refused, so they can be added to the list.
    refused = {"event": "access.refused", "user_id": STRANGER, "log_level": "info"}
    assert logs == [refused] * 3
    refusal = tr(BotTexts.REFUSAL, "en" if lang == "en" else "ru", user_id=STRANGER)
    assert seen.refused == [(STRANGER, refusal)]
    assert seen.claimed == [STRANGER] * 3 and seen.handled == []


async def test_a_strangers_tap_is_answered_with_nothing_and_goes_no_further(
    bot: Bot, tg: FakeTelegram
) -> None:
    seen = Seen()
    access = middleware(seen)
    eve = tg.user(STRANGER, "Eve", language_code="en")
    event, query_id = await tap(bot, tg, eve)
    assert await through(access, seen, event) is None
    assert seen.handled == []
    [answer] = tg.state.callback_answers
    assert (answer.callback_query_id, answer.text, answer.show_alert) == (query_id, None, False)
    assert seen.refused == [] and seen.claimed == []  # the one refusal is not used up


async def test_a_members_tap_gets_through(bot: Bot, tg: FakeTelegram) -> None:
    seen = Seen()
    event, _ = await tap(bot, tg, tg.user(MEMBER, "Анна"))
    assert await through(middleware(seen), seen, event) == "handled"
    assert tg.state.callback_answers == []  # the handlers answer it


async def test_a_strangers_edit_gets_nothing(bot: Bot, tg: FakeTelegram) -> None:
    """Not a message: no refusal, and the one refusal is left for a message."""
    seen = Seen()
    eve = tg.user(STRANGER, "Eve")
    sent = await eve.send("hello")
    edited = update(bot, {"edited_message": await eve.edit(sent["message_id"], "hi")})
    assert await through(middleware(seen), seen, edited) is None
    assert seen.handled == [] and seen.refused == [] and seen.claimed == []


async def test_an_update_with_no_sender_gets_nothing(bot: Bot, tg: FakeTelegram) -> None:
    seen = Seen()
    access = middleware(seen, allow_all=True)
    event = await message(bot, tg.user(MEMBER, "Анна"))
    with capture_logs() as logs:
        assert await access(seen.handler, event, {}) is None
    assert seen.handled == [] and seen.refused == []
    assert logs == [{"event": "access.no_sender", "log_level": "info"}]


async def test_a_strangers_event_below_the_update_level_is_dropped_quietly(
    bot: Bot, tg: FakeTelegram
) -> None:
    """Registered on a message observer, a stranger's message is neither handled nor
    refused there (the refusal is the update level's)."""
    seen = Seen()
    event = await message(bot, tg.user(STRANGER, "Eve"))
    assert event.message is not None
    data = {"event_from_user": sender(event)}
    assert await middleware(seen)(seen.handler, event.message, data) is None
    assert seen.handled == [] and seen.refused == [] and seen.claimed == []
