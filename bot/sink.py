"""``TelegramSink``: the core's ``OutputSink`` for Telegram. Every output becomes calls
queued in the chat's outbox lane, so a chat sees them in the order the core emitted them."""

from __future__ import annotations

import asyncio
from typing import Any

from aiogram import Bot
from aiogram.enums import ChatAction
from aiogram.methods import (
    EditMessageReplyMarkup,
    EditMessageText,
    SendChatAction,
    SendDocument,
    SendMessage,
    SendPhoto,
)
from aiogram.types import BufferedInputFile, InlineKeyboardMarkup, Message

from bot.keyboards import calendar_keyboard
from bot.outbox import Gate, Outbox, is_not_modified
from bot.progress import ProgressBoard
from bot.render import MAX_CAPTION, MAX_TEXT, render_question, split_text
from core.output import Done, Failed, Output, Progress, Question, Receipt, Reply

__all__ = ["TelegramSink"]


class _Gate:
    """The pieces of one receipted output go out all or none: the first one asks the
    receipt whether to send, the others take its answer."""

    def __init__(self, receipt: Receipt) -> None:
        self._receipt = receipt
        self._open: bool | None = None

    async def __call__(self) -> bool:
        if self._open is None:
            self._open = await self._receipt.attempting()
        return self._open


class TelegramSink:
    def __init__(
        self, bot: Bot, outbox: Outbox, *, progress_interval: float = 1.0, typing_every: float = 4.5
    ) -> None:
        self._bot = bot
        self._outbox = outbox
        self._board = ProgressBoard(outbox, interval=progress_interval)
        self._typing_every = typing_every
        self._typing_at: dict[int, float] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    @property
    def outbox(self) -> Outbox:
        return self._outbox

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        if not isinstance(output, Progress) and output.in_place_of is not None:
            self._show_in_place(output, output.in_place_of, receipt)
            return
        gate = _Gate(receipt) if receipt is not None else None
        last: asyncio.Future[Message] | None = None
        if isinstance(output, Reply):
            if output.run_id is not None:
                await self._board.finish(output.run_id)
            last = self.send_text(output.chat_id, output.text, gate=gate)
        elif isinstance(output, Question):
            rendered = render_question(output)
            last = self.send_text(
                output.chat_id, rendered.text, keyboard=rendered.keyboard, gate=gate
            )
        elif isinstance(output, Progress):
            last = self._board.show(output)  # the run's progress message, when new
            self.typing(output.chat_id)
        elif isinstance(output, Done):
            await self._board.finish(output.run_id)
            keyboard = calendar_keyboard(output.run_id, output.lang) if output.calendar else None
            last = self.send_text(output.chat_id, output.text, keyboard=keyboard, gate=gate)
        elif isinstance(output, Failed):
            await self._board.finish(output.run_id)
            last = self._send_failure(output, gate)
        if receipt is not None and last is not None:
            last.add_done_callback(lambda sent: self._record(receipt, sent))

    # --- building blocks, also used by handlers ------------------------------------

    def send_text(
        self,
        chat_id: int,
        text: str,
        *,
        keyboard: InlineKeyboardMarkup | None = None,
        gate: Gate | None = None,
    ) -> asyncio.Future[Message]:
        """Send ``text`` (split if long); the keyboard goes on the last piece. Telegram
        refuses empty messages: an empty text becomes a dash (still carrying the keyboard)."""
        pieces = split_text(text, MAX_TEXT) if text.strip() else ["—"]
        future: asyncio.Future[Message] | None = None
        for index, piece in enumerate(pieces):
            markup = keyboard if index == len(pieces) - 1 else None
            future = self._outbox.post(
                chat_id, SendMessage(chat_id=chat_id, text=piece, reply_markup=markup), gate=gate
            )
        assert future is not None
        return future

    def send_document(
        self, chat_id: int, content: bytes, *, filename: str, caption: str | None = None
    ) -> asyncio.Future[Message]:
        document = BufferedInputFile(content, filename=filename)
        return self._outbox.post(
            chat_id, SendDocument(chat_id=chat_id, document=document, caption=caption)
        )

    def edit_text(
        self,
        chat_id: int,
        message_id: int,
        text: str,
        *,
        keyboard: InlineKeyboardMarkup | None = None,
    ) -> asyncio.Future[Any]:
        """Replace a message's text; its keyboard goes unless a new one is given."""
        return self._outbox.post(
            chat_id,
            EditMessageText(
                chat_id=chat_id, message_id=message_id, text=text[:MAX_TEXT], reply_markup=keyboard
            ),
        )

    def remove_keyboard(self, chat_id: int, message_id: int) -> asyncio.Future[Any]:
        return self._outbox.post(
            chat_id, EditMessageReplyMarkup(chat_id=chat_id, message_id=message_id)
        )

    def typing(self, chat_id: int) -> None:
        """Show "typing…" (lasts ~5 s in clients); not rate-limited by Telegram, best effort."""
        loop = asyncio.get_running_loop()
        if loop.time() - self._typing_at.get(chat_id, -1e9) < self._typing_every:
            return
        if len(self._typing_at) > 10_000:  # forget chats that went quiet long ago
            cutoff = loop.time() - self._typing_every
            self._typing_at = {c: at for c, at in self._typing_at.items() if at > cutoff}
        self._typing_at[chat_id] = loop.time()
        self._spawn(self._bot(SendChatAction(chat_id=chat_id, action=ChatAction.TYPING)))

    async def close(self) -> None:
        await self._board.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def _send_failure(self, output: Failed, gate: Gate | None) -> asyncio.Future[Message]:
        if output.screenshot is None:
            return self.send_text(output.chat_id, output.text, gate=gate)
        photo = BufferedInputFile(output.screenshot, filename="screenshot.png")
        fits = len(output.text) <= MAX_CAPTION
        sent = self._outbox.post(
            output.chat_id,
            SendPhoto(chat_id=output.chat_id, photo=photo, caption=output.text if fits else None),
            gate=gate,
        )
        return sent if fits else self.send_text(output.chat_id, output.text, gate=gate)

    def _show_in_place(
        self, output: Reply | Question | Done | Failed, message_id: int, receipt: Receipt | None
    ) -> None:
        """A reply whose sending ended unknown, shown by editing the run's progress message
        (``core.replies``): an edit notifies nobody, and one that changes nothing (shown
        already) counts as shown. A screenshot cannot be added by an edit: text only."""
        text, keyboard = output.text, None
        if isinstance(output, Question):
            rendered = render_question(output)
            text, keyboard = rendered.text, rendered.keyboard
        elif isinstance(output, Done) and output.calendar:
            keyboard = calendar_keyboard(output.run_id, output.lang)
        edit = EditMessageText(
            chat_id=output.chat_id,
            message_id=message_id,
            text=text[:MAX_TEXT] if text.strip() else "—",
            reply_markup=keyboard,
        )
        gate = _Gate(receipt) if receipt is not None else None
        edited = self._outbox.post(output.chat_id, edit, gate=gate)
        if receipt is not None:
            edited.add_done_callback(lambda done: self._record_edit(receipt, message_id, done))

    def _record_edit(self, receipt: Receipt, message_id: int, done: asyncio.Future[Any]) -> None:
        if done.cancelled():
            return
        error = done.exception()
        if error is None or is_not_modified(error):
            self._spawn(receipt.sent(message_id))

    def _record(self, receipt: Receipt, sent: asyncio.Future[Message]) -> None:
        """The last piece of a receipted output, or a run's new progress message, went
        out: tell the receipt its id."""
        if not sent.cancelled() and sent.exception() is None:
            self._spawn(receipt.sent(sent.result().message_id))

    def _spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if not task.cancelled():
            task.exception()  # a lost "typing" is not worth a log line
