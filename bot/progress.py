"""One progress message per run, edited in place; edits are coalesced to about one a second.

The first ``Progress`` of a run is sent at once (queued in the chat's lane, so it keeps its
place among the chat's messages); later ones only replace the text to show, and one flusher
task per run edits the message with the newest text at most every ``interval`` seconds.
The sink reports the new message's id to the core, which may later show there a reply
whose sending ended unknown (``core.replies``).
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass

import structlog
from aiogram.methods import EditMessageText, SendMessage
from aiogram.types import Message

from bot.outbox import Outbox, is_not_modified
from bot.render import MAX_TEXT, progress_text
from core.output import Progress

__all__ = ["ProgressBoard"]

log = structlog.get_logger("clubman.bot.progress")


@dataclass
class _Board:
    chat_id: int
    sent: asyncio.Future[Message]
    shown: str
    latest: str
    edited_at: float
    flusher: asyncio.Task[None] | None = None


class ProgressBoard:
    def __init__(self, outbox: Outbox, *, interval: float = 1.0) -> None:
        self._outbox = outbox
        self._interval = interval
        self._boards: dict[str, _Board] = {}

    def show(self, progress: Progress) -> asyncio.Future[Message] | None:
        """The new progress message, when this is the run's first ``Progress`` here."""
        text = progress_text(progress)[:MAX_TEXT]
        board = self._boards.get(progress.run_id)
        now = asyncio.get_running_loop().time()
        if board is None:
            sent = self._outbox.post(
                progress.chat_id, SendMessage(chat_id=progress.chat_id, text=text)
            )
            self._boards[progress.run_id] = _Board(progress.chat_id, sent, text, text, now)
            return sent
        board.latest = text
        if board.flusher is None and board.latest != board.shown:
            board.flusher = asyncio.create_task(self._flush(board), name="progress-flush")
        return None

    async def finish(self, run_id: str, final: Progress | None = None) -> None:
        """Show the run's last state now (no waiting for the interval) and forget the run."""
        board = self._boards.pop(run_id, None)
        if board is None:
            return
        if final is not None:
            board.latest = progress_text(final)[:MAX_TEXT]
        if board.flusher is not None:
            board.flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await board.flusher
        await self._edit(board)

    async def close(self) -> None:
        flushers = [b.flusher for b in self._boards.values() if b.flusher is not None]
        for task in flushers:
            task.cancel()
        await asyncio.gather(*flushers, return_exceptions=True)
        self._boards.clear()

    async def _flush(self, board: _Board) -> None:
        loop = asyncio.get_running_loop()
        try:
            while board.latest != board.shown:
                delay = board.edited_at + self._interval - loop.time()
                if delay > 0:
                    await asyncio.sleep(delay)
                await self._edit(board)
        finally:
            board.flusher = None

    async def _edit(self, board: _Board) -> None:
        text = board.latest
        if text == board.shown:
            return
        try:
            message = await board.sent
            await self._outbox.call(
                board.chat_id,
                EditMessageText(chat_id=board.chat_id, message_id=message.message_id, text=text),
            )
        except Exception as exc:
            if not is_not_modified(exc):
                log.warning("progress.edit_failed", chat_id=board.chat_id, error=str(exc))
        board.shown = text
        board.edited_at = asyncio.get_running_loop().time()
