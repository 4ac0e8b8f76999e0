"""What the MCP process does with the core's outputs: it keeps none of them.

The MCP client hears of a run through the tool's result and progress notifications
(``core.agent.watch`` reads them from storage). What the user must read in Telegram — a
run's final answer or its question — is an owed reply (``core.replies``): this sink
leaves it owed, never marking it attempted, so the bot process's sweep sends it, exactly
once, with its buttons, within a few seconds. Sending from here instead would need the
bot's token and its Telegram client in this process, and two senders to keep in step;
the outbox already orders them.

Outputs without a receipt (progress, a passing notice) are not owed to anyone and are
dropped: the MCP client sees progress its own way.
"""

from __future__ import annotations

from core.output import Output, Receipt

__all__ = ["TelegramLeftToBot"]


class TelegramLeftToBot:
    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        return None
