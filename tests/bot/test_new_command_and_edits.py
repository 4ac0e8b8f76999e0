"""Issue 16 through the real aiogram stack on the fake Bot API: a new complete command
while a question waits is asked about («Начать новое?»), and an edited message is a
correction while its request still collects details, else answered with a notice."""

from __future__ import annotations

from collections.abc import Callable

from storage import Storage
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram, StoredMessage

PARTIAL = "забронируй аудиторию"  # the test scenario asks «Для какого клуба?»
FULL = "забронируй 3 аудитории рядом в этот четверг с 18 до 20"  # the parser: execute


def says(text: str) -> Callable[[StoredMessage], bool]:
    def check(message: StoredMessage) -> bool:
        return text in (message.text or "")

    return check


async def test_a_full_command_while_a_question_waits_is_asked_about_and_no_keeps_it(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send(PARTIAL)
        question = await user.wait_for_message()
        await user.send(FULL)
        ask = await user.wait_for_message()
        assert ask.text == "Я жду ответа на вопрос «Для какого клуба?». Начать новое?"
        assert ask.labels == ["Да, новое", "Нет, ответить на вопрос"]

        tapped = await user.tap("Нет, ответить на вопрос")
        again = await user.wait_for_message(lambda m: m.message_id > ask.message_id)
        await user.wait_for_answer(tapped)
        assert again.text == question.text and again.labels == question.labels
        assert ask.text is not None and ask.text.endswith(
            "Начать новое?\n\n→ Нет, ответить на вопрос"
        )
        assert ask.reply_markup is None

        await user.wait_for_answer(await user.tap("Шахматы"))
        done = await user.wait_for_message(says("Забронирована"))
    assert done.text == "Забронирована 405 для клуба «Шахматы»"
    assert await storage.runs.active_for_chat(user.id) == []
    assert not any("Отменено" in (m.text or "") for m in user.messages)


async def test_yes_cancels_the_waiting_run_and_starts_the_new_command(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(2, "John", language_code="en")
    async with running_bot(tg, storage):
        await user.send("book a room")
        first = await user.wait_for_message()
        await user.send("book two adjacent rooms next Friday 10-12")
        ask = await user.wait_for_message()
        assert (
            ask.text
            == "I am waiting for an answer to “Which club is it for?”. Start a new request?"
        )
        assert ask.labels == ["Yes, a new one", "No, answer the question"]
        await user.wait_for_answer(await user.tap("Yes, a new one"))
        cancelled = await user.wait_for_message(says("Cancelled"))
        second = await user.wait_for_message(lambda m: m.text == "Which club is it for?")
        await user.wait_for_answer(await user.tap("Театр", message_id=second.message_id))
        await user.wait_for_message(says("Забронирована"))
        # The first question's buttons now belong to a cancelled run: a tap is answered.
        stale = await user.wait_for_answer(await user.tap("Шахматы", message_id=first.message_id))
    assert cancelled.text == "Cancelled: Booking."
    assert stale.text == "This question is already closed."
    assert await storage.runs.active_for_chat(user.id) == []


async def test_a_partial_command_still_answers_the_question(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send(PARTIAL)
        await user.wait_for_message()
        await user.send("забронируй аудиторию для театра")  # partial: no date, no time
        done = await user.wait_for_message(says("Забронирована"))
    assert done.text == "Забронирована 405 для клуба «забронируй аудиторию для театра»"
    assert not any("Начать новое" in (m.text or "") for m in user.messages)


async def test_an_edit_while_the_request_collects_details_corrects_it(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        sent = await user.send(PARTIAL)
        await user.wait_for_message(says("Для какого клуба?"))
        await user.edit(sent["message_id"], "забронируй аудиторию в пятницу")
        corrected = await user.wait_for_message()
        asked = await user.wait_for_message()
        assert asked.text == "Для какого клуба?" and asked.message_id > corrected.message_id
        await user.wait_for_answer(await user.tap("Театр", message_id=asked.message_id))
        await user.wait_for_message(says("Забронирована"))
    assert corrected.text == "Учёл исправление: «Бронирование» начинаю заново."
    assert await storage.runs.active_for_chat(user.id) == []


async def test_an_edit_after_the_request_ran_gets_a_notice(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        sent = await user.send(PARTIAL)
        await user.wait_for_message(says("Для какого клуба?"))
        await user.wait_for_answer(await user.tap("Шахматы"))
        await user.wait_for_message(says("Забронирована"))
        await user.edit(sent["message_id"], "забронируй аудиторию в пятницу")
        notice = await user.wait_for_message()
    assert notice.text == (
        "Изменённое сообщение я не учёл: оно уже обработано. Если нужно другое, напишите "
        "новым сообщением."
    )
    assert await storage.runs.active_for_chat(user.id) == []


async def test_yes_after_a_restart_still_starts_the_held_back_command(
    tg: FakeTelegram, storage: Storage
) -> None:
    """Issue 67: the text held back behind «Начать новое?» waits in Redis, not in the
    process: «Да, новое» tapped on the next bot still starts it."""
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send(PARTIAL)
        await user.wait_for_message(says("Для какого клуба?"))
        await user.send(FULL)
        ask = await user.wait_for_message(says("Начать новое?"))
    # The process is gone; the held text waits under the bot's namespace, for a day at most.
    bot_id = tg.token.split(":", 1)[0]  # aiogram's Bot.id
    held = f"clubman:fsm:{bot_id}:{user.id}:{user.id}:data"
    assert await storage.redis.exists(held)
    assert 0 < await storage.redis.ttl(held) <= 24 * 3600

    async with running_bot(tg, storage):  # a new bot on the same storage
        await user.wait_for_answer(await user.tap("Да, новое", message_id=ask.message_id))
        cancelled = await user.wait_for_message(says("Отменено"))
        asked = await user.wait_for_message(
            lambda m: m.text == "Для какого клуба?" and m.message_id > ask.message_id
        )
        await user.wait_for_answer(await user.tap("Театр", message_id=asked.message_id))
        done = await user.wait_for_message(says("Забронирована"))
    assert ask.text is not None and ask.text.endswith("Начать новое?\n\n→ Да, новое")
    assert cancelled.text == "Отменено: Бронирование."
    assert done.text == "Забронирована 405 для клуба «Театр»"
    assert not await storage.redis.exists(held)  # taken out when it was used
    assert await storage.runs.active_for_chat(user.id) == []
