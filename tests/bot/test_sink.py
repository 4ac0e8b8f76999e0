"""The Telegram sink against the fake server: coalesced progress edits, final state then
summary, screenshots as photos, long texts split."""

from __future__ import annotations

import asyncio

from aiogram import Bot

from bot.outbox import Outbox
from bot.sink import TelegramSink
from core.output import Done, Failed, Progress, Question, Reply, StepState, StepView
from tests.bot.support import FAST_LIMITS
from tests.fakes.telegram import FakeTelegram

LABELS = ["Вход", "Поиск", "Бронь", "Проверка"]


def progress(done: int, *, running: bool = True, queued: bool = False) -> Progress:
    steps = [
        StepView(
            name=str(i),
            label=label,
            state=StepState.DONE
            if i < done
            else StepState.RUNNING
            if i == done and running
            else StepState.PENDING,
        )
        for i, label in enumerate(LABELS)
    ]
    return Progress(chat_id=1, run_id="run1", title="Бронирование", steps=steps, queued=queued)


async def test_progress_is_one_message_edited_at_most_once_a_second(
    tg: FakeTelegram, bot: Bot
) -> None:
    user = tg.user(1)
    sink = TelegramSink(bot, Outbox(bot), progress_interval=1.0)
    loop = asyncio.get_running_loop()
    started = loop.time()
    await sink.deliver(progress(0, queued=True))
    for _ in range(3):  # the same state again: nothing to edit
        await sink.deliver(progress(0, queued=True))
    for step in range(4):
        await sink.deliver(progress(step))
        await asyncio.sleep(0.15)
    await sink.deliver(Done(chat_id=1, run_id="run1", text="Готово: 405"))
    await sink.outbox.drain()
    elapsed = loop.time() - started
    edits = tg.calls_of("editMessageText")
    assert len(user.messages) == 2  # the progress message and the summary
    board, summary = sorted(user.messages, key=lambda m: m.message_id)
    assert board.edits[0].text == "Бронирование — в очереди\n⏳ Вход\n◦ Поиск\n◦ Бронь\n◦ Проверка"
    assert summary.text == "Готово: 405"
    assert len(edits) <= elapsed / 1.0 + 1
    assert "⏳ Проверка" in (board.text or "")  # the last state before Done
    assert tg.calls_of("sendChatAction")
    await sink.close()
    await sink.outbox.close()


async def test_not_modified_is_not_an_error(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1)
    outbox = Outbox(bot, limits=FAST_LIMITS)
    sink = TelegramSink(bot, outbox, progress_interval=0.05)
    await sink.deliver(progress(1))
    await outbox.drain()
    tg.inject_error(
        method="editMessageText", error_code=400, description="Bad Request: message is not modified"
    )
    await sink.deliver(progress(2))
    await asyncio.sleep(0.2)
    await sink.deliver(Done(chat_id=1, run_id="run1", text="Готово"))
    await outbox.drain()
    assert outbox.stats.failed == 0
    assert [m.text for m in user.messages][-1] == "Готово"
    await sink.close()
    await outbox.close()


async def test_failure_with_screenshot_is_a_photo_with_the_error_as_caption(
    tg: FakeTelegram, bot: Bot
) -> None:
    user = tg.user(1)
    outbox = Outbox(bot, limits=FAST_LIMITS)
    sink = TelegramSink(bot, outbox, progress_interval=0.05)
    await sink.deliver(progress(1))
    await sink.deliver(
        Failed(
            chat_id=1,
            run_id="run1",
            text="Не получилось: портал недоступен",
            screenshot=b"\x89PNG fake",
        )
    )
    await outbox.drain()
    photo = user.last_message
    assert (
        photo is not None and photo.photo and photo.caption == ("Не получилось: портал недоступен")
    )
    assert tg.calls_of("sendPhoto")
    await sink.close()
    await outbox.close()


async def test_long_texts_are_split_and_the_keyboard_goes_last(tg: FakeTelegram, bot: Bot) -> None:
    user = tg.user(1)
    outbox = Outbox(bot, limits=FAST_LIMITS)
    sink = TelegramSink(bot, outbox)
    paragraphs = [f"Абзац {i}: " + "слово " * 300 for i in range(8)]
    await sink.deliver(Reply(chat_id=1, text="\n\n".join(paragraphs)))
    await sink.deliver(Question(chat_id=1, run_id="r", key="k", text="x" * 5000))
    await outbox.drain()
    messages = sorted(user.messages, key=lambda m: m.message_id)
    assert all(len(m.text or "") <= 4096 for m in messages)
    reply_parts = [m for m in messages if (m.text or "").startswith("Абзац")]
    assert len(reply_parts) >= 3
    assert "".join(m.text or "" for m in reply_parts).count("Абзац") == 8
    assert [bool(m.labels) for m in messages[-2:]] == [False, True]
    await sink.close()
    await outbox.close()


class RecordedReceipt:
    """A durable reply's receipt: says whether to send, and what was recorded."""

    def __init__(self, tg: FakeTelegram, *, go: bool) -> None:
        self._tg = tg
        self._go = go
        self.sends_before_attempt: int | None = None
        self.sent_ids: list[int | None] = []

    async def attempting(self) -> bool:
        self.sends_before_attempt = len(self._tg.calls_of("sendMessage"))
        return self._go

    async def sent(self, message_id: int | None) -> None:
        self.sent_ids.append(message_id)


async def test_a_receipted_answer_is_recorded_right_before_and_after_it_leaves(
    tg: FakeTelegram, bot: Bot
) -> None:
    user = tg.user(1)
    sink = TelegramSink(bot, Outbox(bot, limits=FAST_LIMITS))
    receipt = RecordedReceipt(tg, go=True)
    long_summary = "Забронированы 101, 102, 103. " * 200  # two messages: recorded once
    await sink.deliver(Done(chat_id=1, run_id="run1", text=long_summary), receipt)
    await sink.outbox.drain()
    await sink.close()
    assert receipt.sends_before_attempt == 0
    assert len(user.messages) == 2
    assert receipt.sent_ids == [max(m.message_id for m in user.messages)]
    await sink.outbox.close()


async def test_a_receipted_answer_someone_else_sends_is_not_sent(
    tg: FakeTelegram, bot: Bot
) -> None:
    user = tg.user(1)
    sink = TelegramSink(bot, Outbox(bot, limits=FAST_LIMITS))
    receipt = RecordedReceipt(tg, go=False)
    await sink.deliver(Done(chat_id=1, run_id="run1", text="Забронированы 101. " * 300), receipt)
    await sink.deliver(Reply(chat_id=1, text="следующее"))
    await sink.outbox.drain()
    await sink.close()
    assert [m.text for m in user.messages] == ["следующее"]  # neither piece went out
    assert receipt.sent_ids == []
    await sink.outbox.close()
