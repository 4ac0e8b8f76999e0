"""The whole bot end to end: real aiogram dispatcher polling the fake Telegram server,
real ChatDispatcher on real storage (SecantusDB + redis-server)."""

from __future__ import annotations

import asyncio

from core.store import RunStatus
from core.texts import Bot, tr
from storage import Storage
from tests.bot.support import ClubScenario, running_bot
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage


def has(text: str):  # type: ignore[no-untyped-def]
    return lambda m: text in (m.text or m.caption or "")


async def ask_club(user: SimUser) -> StoredMessage:
    await user.send("забронируй аудиторию")
    return await user.wait_for_message(lambda m: "Шахматы" in m.labels)


async def test_start_greets_in_the_users_language(tg: FakeTelegram, storage: Storage) -> None:
    anna, john = tg.user(1, "Анна", language_code="ru"), tg.user(2, "John", language_code="en")
    async with running_bot(tg, storage):
        await anna.send("/start")
        greeting = await anna.wait_for_message()
        await john.send("/start")
        english = await john.wait_for_message()
    assert "Анна" in (greeting.text or "") and "забронируй" in (greeting.text or "")
    assert "John" in (english.text or "") and "book" in (english.text or "")
    commands = {c.params.get("language_code") for c in tg.calls_of("setMyCommands")}
    assert {"ru", "en"} <= commands


async def test_help_lists_what_works(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send("/help")
        reply = await user.wait_for_message()
    assert "Я бронирую аудитории" in (reply.text or "") and "/bookings" in (reply.text or "")


async def test_clarification_answered_by_tapping(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        question = await ask_club(user)
        assert question.labels == ["Шахматы", "Театр", "Другое…", "Отмена"]
        assert all(len(d.encode()) <= 64 for d in question.callback_data)
        query = await user.tap("Шахматы")
        answer = await user.wait_for_answer(query)
        done = await user.wait_for_message(has("Забронирована 405"))
    assert answer.text == "Принято: Шахматы"
    assert question.text == "Для какого клуба?\n\n→ Шахматы" and question.reply_markup is None
    assert "«Шахматы»" in (done.text or "")
    progress = next(m for m in user.messages if (m.text or "").startswith("Бронирование"))
    assert progress.text == "Бронирование\n✓ Поиск аудитории\n✓ Бронирование"
    assert tg.calls_of("sendChatAction")


async def test_clarification_answered_by_typing_after_other(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        question = await ask_club(user)
        await user.tap("Другое…")
        await user.wait_for_message(
            lambda m: (
                m.message_id == question.message_id
                and "Напишите ответ сообщением" in (m.text or "")
            )
        )
        assert question.reply_markup is None
        await user.send("Клуб любителей рока")
        done = await user.wait_for_message(has("Забронирована 405"))
    assert "«Клуб любителей рока»" in (done.text or "")


async def test_stale_button_after_the_run_finished(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        question = await ask_club(user)
        await user.send("Театр")  # typed: the buttons stay on the old question
        await user.wait_for_message(has("Забронирована 405"))
        assert question.labels
        query = await user.tap("Шахматы", message_id=question.message_id)
        answer = await user.wait_for_answer(query)
        await user.wait_for_message(lambda m: m.message_id == question.message_id and not m.labels)
        assert not any(has("Шахматы»")(m) for m in user.messages)
    assert answer.text == "Этот вопрос уже закрыт."


async def test_stale_buttons_of_cancelled_and_unknown_runs(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        question = await ask_club(user)
        await user.send("/cancel")
        await user.wait_for_message(has("Отменено"))
        answer = await user.wait_for_answer(await user.tap("Театр"))
        assert answer.text == "Этот вопрос уже закрыт."
        await user.wait_for_message(lambda m: m.message_id == question.message_id and not m.labels)
        # A button whose run this bot never had (another deployment, a wiped database).
        fake = await ask_club(user)
        tg.state.find(user.id, fake.message_id).reply_markup = {  # type: ignore[union-attr]
            "inline_keyboard": [[{"text": "Чужая", "callback_data": "a:zzzzzz:1:chess"}]]
        }
        unknown = await user.wait_for_answer(await user.tap("Чужая"))
        assert unknown.text == "Этот вопрос уже закрыт."
    assert not [c for c in tg.calls if not c.ok and c.method != "getUpdates"]


async def test_cancel_button_under_a_question(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        question = await ask_club(user)
        await user.wait_for_answer(await user.tap("Отмена"))
        await user.wait_for_message(has("Отменено"))
    assert question.reply_markup is None
    runs = await storage.runs.active_for_chat(user.id)
    assert runs == []


async def test_restart_between_question_and_tap(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        question = await ask_club(user)
    # The process is gone: no in-memory state survives. A new bot on the same storage.
    async with running_bot(tg, storage):
        answer = await user.wait_for_answer(await user.tap("Театр"))
        done = await user.wait_for_message(has("Забронирована 405"))
    assert answer.text == "Принято: Театр"
    assert question.text == "Для какого клуба?\n\n→ Театр"
    assert "«Театр»" in (done.text or "")


async def test_user_not_on_the_allow_list_gets_one_refusal(
    tg: FakeTelegram, storage: Storage
) -> None:
    member, stranger = tg.user(1, "Анна"), tg.user(666, "Eve", language_code="en")
    async with running_bot(tg, storage, allowed=[member.id]):
        for text in ("/start", "hello", "забронируй аудиторию"):
            await stranger.send(text)
        await member.send("/help")  # after the stranger's messages: they are all handled
        await member.wait_for_message()
        await asyncio.sleep(0.2)
    assert [m.text for m in stranger.messages] == [tr(Bot.REFUSAL, "en", user_id=666)]


async def test_an_update_with_no_sender_is_refused_whatever_it_says(
    tg: FakeTelegram, storage: Storage
) -> None:
    """The allow list covers every update: a message with no sender (a channel's, an
    anonymous admin's) in an allowed user's chat runs nothing."""
    member = tg.user(1, "Анна")
    async with running_bot(tg, storage, allowed=[member.id], allow_all=False):
        tg.put_update(
            {"message": {"message_id": 9001, "date": 1, "text": "/bookings",
                         "chat": {"id": member.id, "type": "private"},
                         "entities": [{"type": "bot_command", "offset": 0, "length": 9}]}}
        )  # fmt: skip
        await member.send("/help")  # the same chat, after it: it has been handled
        await member.wait_for_message()
        await asyncio.sleep(0.2)
    assert len(member.messages) == 1 and "/bookings" in (member.messages[0].text or "")  # help


async def test_a_text_longer_than_telegram_allows_is_refused_in_the_users_language(
    tg: FakeTelegram, storage: Storage
) -> None:
    """A forged update (Telegram itself stops at 4096 characters) starts nothing and gets
    a polite answer saying why, in the sender's language."""
    user = tg.user(1, "Eve", language_code="en")
    async with running_bot(tg, storage):
        tg.put_update(
            {"message": {"message_id": 9002, "date": 1, "text": "book 301 " + "x" * 5000,
                         "chat": {"id": user.id, "type": "private"},
                         "from": {"id": user.id, "is_bot": False, "first_name": "Eve",
                                  "language_code": "en"}}}
        )  # fmt: skip
        refused = await user.wait_for_message(has("too long"))
    assert "5009 characters" in (refused.text or "") and "4096" in (refused.text or "")
    assert await storage.runs.recent_for_chat(user.id) == []


async def test_burst_of_100_messages_in_one_chat_is_handled_in_order(
    tg: FakeTelegram, storage: Storage
) -> None:
    from tests.bot.support import EchoScenario

    user = tg.user(1, "Анна")
    async with running_bot(tg, storage, scenarios=[EchoScenario()]):
        for i in range(100):
            await user.send(f"сообщение {i:03d}")
        await user.wait_for_message(has("echo: сообщение 099"), timeout=60)
    texts = [m.text for m in sorted(user.messages, key=lambda m: m.message_id)]
    assert texts == [f"echo: сообщение {i:03d}" for i in range(100)]


async def test_fifty_chats_at_once(tg: FakeTelegram, storage: Storage) -> None:
    users = [tg.user(1000 + i, f"U{i}") for i in range(50)]

    async def converse(user: SimUser) -> str:
        await ask_club(user)
        await user.wait_for_answer(await user.tap("Шахматы"))
        done = await user.wait_for_message(has("Забронирована 405"), timeout=60)
        return done.text or ""

    async with running_bot(tg, storage):
        results = await asyncio.gather(*(converse(u) for u in users))
    assert all("«Шахматы»" in r for r in results)
    runs = [await storage.runs.active_for_chat(u.id) for u in users]
    assert runs == [[] for _ in users]
    assert not tg.calls_of("sendMessage") or all(c.ok for c in tg.calls_of("sendMessage"))


async def test_status_shows_waiting_and_running_runs(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна")
    scenario = ClubScenario()
    scenario.gate = asyncio.Event()
    async with running_bot(tg, storage, scenarios=[scenario]):
        await ask_club(user)
        await user.send("/status")
        waiting = await user.wait_for_message(has("Текущие задачи"))
        assert "ждёт ответа: Для какого клуба?" in (waiting.text or "")
        await user.wait_for_answer(await user.tap("Шахматы"))
        await user.wait_for_message(has("⏳ Бронирование"))
        await user.send("/status")
        running = await user.wait_for_message(has("Текущие задачи"))
        assert "✓ Поиск аудитории\n⏳ Бронирование" in (running.text or "") or (
            "✓ Поиск аудитории" in (running.text or "")
        )
        scenario.gate.set()
        await user.wait_for_message(has("Забронирована 405"))
        await user.send("/status")
        await user.wait_for_message(has("ничего не выполняется"))
    run = (await storage.runs.with_status(RunStatus.DONE))[0]
    assert run.slots["club"] == "Шахматы"
