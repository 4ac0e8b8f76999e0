"""The fake Telegram server, driven by the real aiogram client and dispatcher."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest
from aiogram import Bot
from aiogram.exceptions import (
    TelegramBadRequest,
    TelegramConflictError,
    TelegramForbiddenError,
    TelegramUnauthorizedError,
)
from aiogram.types import (
    BotCommand,
    BufferedInputFile,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
)

from tests.fakes.telegram import FakeTelegram, MessageTimeout, NoSuchButton
from tests.fakes.telegram.echo import echo_dispatcher
from tests.fakes.telegram.testing import aiogram_bot, polling

QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"
NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup "
    "are exactly the same as a current content and reply markup of the message"
)


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram() as fake:
        yield fake


@pytest.fixture
async def bot(tg: FakeTelegram) -> AsyncIterator[Bot]:
    async with aiogram_bot(tg) as client:
        yield client


def keyboard(*labels_and_data: tuple[str, str]) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        inline_keyboard=[
            [InlineKeyboardButton(text=t, callback_data=d)] for t, d in labels_and_data
        ]
    )


async def test_echo_bot_in_polling_mode_replies_and_updates_are_confirmed(
    tg: FakeTelegram, bot: Bot
) -> None:
    user = tg.user(user_id=1001, first_name="Anna", language_code="ru")
    async with polling(echo_dispatcher(), bot):
        sent = await user.send("/start забронируй зал")
        reply = await user.wait_for_message(lambda m: m.text == "/start забронируй зал", timeout=5)
        await user.send("второе")
        second = await user.wait_for_message(timeout=5)
    assert sent["entities"] == [{"type": "bot_command", "offset": 0, "length": 6}]
    assert sent["from"]["language_code"] == "ru" and sent["chat"]["type"] == "private"
    assert (reply.message_id, second.message_id, second.text) == (2, 4, "второе")
    assert [m.text for m in user.messages] == ["/start забронируй зал", "второе"]
    assert user.last_message is second
    assert tg.pending_updates == []  # confirmed by the next getUpdates offset
    assert [c.params["text"] for c in tg.calls_of("sendMessage")] == [reply.text, second.text]


async def test_get_me_and_tokens(tg: FakeTelegram, bot: Bot) -> None:
    me = await bot.get_me()
    assert (me.id, me.is_bot, me.username) == (123456, True, "club_manager_test_bot")
    async with aiogram_bot(tg, token="123456:WRONG") as stranger:
        with pytest.raises(TelegramUnauthorizedError, match="Unauthorized"):
            await stranger.get_me()
    async with aiohttp.ClientSession() as http:
        async with http.get(f"{tg.api_base}/botnot-a-token/getMe") as resp:
            assert (resp.status, await resp.json()) == (
                404,
                {"ok": False, "error_code": 404, "description": "Not Found"},
            )
        async with http.post(f"{tg.api_base}/bot{tg.token}/sendMessage", json={}) as resp:
            body = await resp.json()
    assert (resp.status, body["description"]) == (400, "Bad Request: chat_id is empty")


async def test_send_message_text_validation(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1001)
    with pytest.raises(TelegramBadRequest, match="Bad Request: message text is empty"):
        await bot.send_message(1001, "   ")
    with pytest.raises(TelegramBadRequest, match="Bad Request: message is too long"):
        await bot.send_message(1001, "я" * 4097)
    assert (await bot.send_message(1001, "я" * 4096)).message_id == 1
    with pytest.raises(TelegramBadRequest, match="Bad Request: chat not found"):
        await bot.send_message(777, "hi")
    assert [c.status for c in tg.calls_of("sendMessage")] == [400, 400, 200, 400]


async def test_html_parse_mode_is_parsed_and_broken_tags_rejected(
    tg: FakeTelegram, bot: Bot
) -> None:
    tg.user(1001)
    msg = await bot.send_message(1001, "Зал <b>101</b> &amp; <i>202</i>", parse_mode="HTML")
    assert msg.text == "Зал 101 & 202"
    assert [(e.type, e.offset, e.length) for e in msg.entities or []] == [
        ("bold", 4, 3),
        ("italic", 10, 3),
    ]
    with pytest.raises(TelegramBadRequest, match="can't parse entities: Can't find end tag"):
        await bot.send_message(1001, "<b>unclosed", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match='Unsupported start tag "div"'):
        await bot.send_message(1001, "<div>x</div>", parse_mode="HTML")
    with pytest.raises(TelegramBadRequest, match="Character '.' is reserved"):
        await bot.send_message(1001, "Done.", parse_mode="MarkdownV2")


async def test_keyboard_validation(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1001)
    ok = await bot.send_message(1001, "x", reply_markup=keyboard(("Главный", "ж" * 32)))
    assert ok.reply_markup is not None  # 64 bytes of callback data are fine
    with pytest.raises(TelegramBadRequest, match="Bad Request: BUTTON_DATA_INVALID"):
        await bot.send_message(1001, "x", reply_markup=keyboard(("Главный", "ж" * 32 + "a")))
    too_many = keyboard(*[(str(i), str(i)) for i in range(101)])
    with pytest.raises(TelegramBadRequest, match="Bad Request: reply markup is too long"):
        await bot.send_message(1001, "x", reply_markup=too_many)


async def test_edit_message_text_history_and_not_modified(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    markup = keyboard(("Да", "yes"))
    sent = await bot.send_message(1001, "Бронирую…", reply_markup=markup)
    edited = await bot.edit_message_text(
        "Забронированы", chat_id=1001, message_id=sent.message_id, reply_markup=markup
    )
    assert not isinstance(edited, bool) and edited.edit_date is not None
    with pytest.raises(TelegramBadRequest) as exc_info:
        await bot.edit_message_text(
            "Забронированы", chat_id=1001, message_id=sent.message_id, reply_markup=markup
        )
    assert exc_info.value.message == NOT_MODIFIED
    with pytest.raises(TelegramBadRequest, match="message is not modified"):
        await bot.edit_message_reply_markup(
            chat_id=1001, message_id=sent.message_id, reply_markup=markup
        )
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to edit not found"):
        await bot.edit_message_text("x", chat_id=1001, message_id=99)
    await bot.edit_message_reply_markup(chat_id=1001, message_id=sent.message_id)
    state = user.last_message
    assert state is not None and state.text == "Забронированы" and state.labels == []
    assert [(e.text, e.reply_markup is not None) for e in state.edits] == [
        ("Бронирую…", True),
        ("Забронированы", True),
    ]


async def test_wait_for_message_sees_edits(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    sent = await bot.send_message(1001, "Бронирую…")

    async def edit_later() -> None:
        await asyncio.sleep(0.05)
        await bot.edit_message_text("Забронированы", chat_id=1001, message_id=sent.message_id)

    editor = asyncio.create_task(edit_later())
    msg = await user.wait_for_message(lambda m: "Забронированы" in (m.text or ""), timeout=5)
    await editor
    assert msg.message_id == sent.message_id and len(msg.edits) == 1


async def test_consecutive_waits_walk_through_replies(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    await user.send("/book")
    await bot.send_message(1001, "Бронирую…")
    await bot.send_message(1001, "Готово")
    assert (await user.wait_for_message(timeout=1)).text == "Бронирую…"
    assert (await user.wait_for_message(timeout=1)).text == "Готово"
    assert (await user.wait_for_message(lambda m: m.text == "Готово", since=0)).text == "Готово"
    with pytest.raises(MessageTimeout, match="Готово"):
        await user.wait_for_message(timeout=0.05)


async def test_raw_http_bodies_and_response_shape(tg: FakeTelegram) -> None:
    tg.user(1001)
    url = f"{tg.api_base}/bot{tg.token}/sendMessage"
    async with aiohttp.ClientSession() as http:
        async with http.post(url, json={"chat_id": 1001, "text": "json"}) as resp:
            by_json = await resp.json()
        async with http.post(url, data={"chat_id": "1001", "text": "form"}) as resp:
            by_form = await resp.json()
        async with http.get(url, params={"chat_id": "1001", "text": "query"}) as resp:
            by_query = await resp.json()
        async with http.get(f"{tg.api_base}/bot{tg.token}/noSuchMethod") as resp:
            unknown = (resp.status, await resp.json())
    assert [b["result"]["text"] for b in (by_json, by_form, by_query)] == ["json", "form", "query"]
    assert set(by_json) == {"ok", "result"} and by_json["ok"] is True
    assert by_form["result"]["chat"] == {"id": 1001, "type": "private", "first_name": "User"}
    assert by_query["result"]["from"]["is_bot"] is True
    assert unknown == (404, {"ok": False, "error_code": 404, "description": "Not Found"})


async def test_delete_message(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    sent = await bot.send_message(1001, "temp")
    assert await bot.delete_message(1001, sent.message_id) is True
    assert user.messages == [] and tg.messages(1001, include_deleted=True)[0].deleted
    with pytest.raises(TelegramBadRequest, match="Bad Request: message to delete not found"):
        await bot.delete_message(1001, sent.message_id)


async def test_tap_answer_and_answer_twice(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    await bot.send_message(1001, "old", reply_markup=keyboard(("Главный", "room:old")))
    newest = await bot.send_message(1001, "new", reply_markup=keyboard(("Главный", "room:main")))
    async with polling(echo_dispatcher(), bot):
        query_id = await user.tap("Главный")
        answer = await user.wait_for_answer(query_id, timeout=5)
    assert answer.text == "room:main" and not answer.show_alert
    assert tg.state.callbacks[query_id].message_id == newest.message_id
    with pytest.raises(TelegramBadRequest, match=QUERY_TOO_OLD):
        await bot.answer_callback_query(query_id)
    with pytest.raises(TelegramBadRequest, match=QUERY_TOO_OLD):
        await bot.answer_callback_query("12345")
    with pytest.raises(NoSuchButton, match="Отмена"):
        await user.tap("Отмена")
    first = tg.messages(1001)[0]
    assert (await user.tap("Главный", message_id=first.message_id)).isdigit()
    update = tg.pending_updates[-1]["callback_query"]
    assert update["data"] == "room:old" and update["message"]["message_id"] == first.message_id


async def test_blocked_user_is_forbidden(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1001).block()
    with pytest.raises(TelegramForbiddenError, match="bot was blocked by the user"):
        await bot.send_message(1001, "hi")


async def test_send_photo_multipart_and_chat_action(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    photo = BufferedInputFile(b"\x89PNG fake bytes", filename="plan.png")
    sent = await bot.send_photo(1001, photo, caption="<b>План</b>", parse_mode="HTML")
    assert sent.caption == "План" and sent.photo is not None
    file_id = sent.photo[-1].file_id
    assert tg.state.files[file_id] == b"\x89PNG fake bytes"
    again = await bot.send_photo(1001, file_id)
    assert again.photo is not None and again.photo[-1].file_id == file_id
    with pytest.raises(TelegramBadRequest, match="wrong file identifier/HTTP URL specified"):
        await bot.send_photo(1001, "no-such-file")
    with pytest.raises(TelegramBadRequest, match="there is no text in the message to edit"):
        await bot.edit_message_text("x", chat_id=1001, message_id=sent.message_id)
    assert await bot.send_chat_action(1001, "typing") is True
    with pytest.raises(TelegramBadRequest, match="wrong parameter action"):
        await bot.send_chat_action(1001, "dancing")
    assert len(user.messages) == 2


async def test_my_commands(tg: FakeTelegram, bot: Bot) -> None:
    commands = [BotCommand(command="book", description="Забронировать")]
    assert await bot.set_my_commands(commands) is True
    assert [c.command for c in await bot.get_my_commands()] == ["book"]
    assert await bot.get_my_commands(language_code="en") == []
    with pytest.raises(TelegramBadRequest, match="BOT_COMMAND_INVALID"):
        await bot.set_my_commands([BotCommand(command="Book Room", description="x")])
    await bot.delete_my_commands()
    assert await bot.get_my_commands() == []


async def test_long_poll_returns_as_soon_as_an_update_arrives(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1001)
    loop = asyncio.get_running_loop()
    started = loop.time()
    poll = asyncio.create_task(bot.get_updates(timeout=10))
    await asyncio.sleep(0.1)  # the poll is now waiting on the server
    await user.send("hello")
    updates = await poll
    assert loop.time() - started < 2
    assert [u.message.text for u in updates if u.message] == ["hello"]
    assert await bot.get_updates(offset=updates[-1].update_id + 1, timeout=0) == []
    assert tg.pending_updates == []


async def test_second_poller_terminates_the_first(tg: FakeTelegram, bot: Bot) -> None:
    first = asyncio.create_task(bot.get_updates(timeout=10))
    await asyncio.sleep(0.05)
    second = asyncio.create_task(bot.get_updates(timeout=0))
    with pytest.raises(TelegramConflictError, match="terminated by other getUpdates request"):
        await first
    assert await second == []
