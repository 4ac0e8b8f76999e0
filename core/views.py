"""What a view is given of the core: the dispatcher and the services beside it, and the
sink that keeps what the bot says in the conversation."""

from __future__ import annotations

from dataclasses import dataclass

from core.accounts import AccountService
from core.dispatcher import ChatDispatcher
from core.output import Output, OutputSink, Progress, Receipt
from core.store import Direction, Store

__all__ = ["CoreServices", "RecordingSink"]


@dataclass(frozen=True, slots=True)
class CoreServices:
    """What a view opens the core for: the manager, and the services its handlers get as
    keyword data besides it."""

    manager: ChatDispatcher
    accounts: AccountService | None = None  # None: /login says personal logins are off


class RecordingSink:
    """Stores what the bot says in the conversation, then passes it to the view."""

    def __init__(self, inner: OutputSink, storage: Store) -> None:
        self._inner = inner
        self._storage = storage

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        if not isinstance(output, Progress):
            await self._storage.conversations.append(
                chat_id=output.chat_id,
                direction=Direction.OUT,
                text=output.text,
                run_id=output.run_id,
            )
        await self._inner.deliver(output, receipt)
