"""Outgoing flood control: N chats (1000 by default) each get one message through the
bot's sink and outbox, with the fake Telegram server's flood limits on (30/s in total,
~1/s per chat). Prints the sustained rate and how many 429s the server answered.

    python -m bench.flood [--chats 1000]
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import time

from bot.outbox import Outbox
from bot.sink import TelegramSink
from core.logging import configure_logging
from core.output import Reply
from tests.fakes.telegram import FakeTelegram, RateLimits
from tests.fakes.telegram.testing import aiogram_bot

TELEGRAM_LIMITS = RateLimits(per_chat_burst=3, per_chat_rate=1.0, global_burst=30, global_rate=30.0)


async def main(chats: int) -> None:
    async with FakeTelegram(rate_limits=TELEGRAM_LIMITS) as tg, aiogram_bot(tg) as bot:
        for chat_id in range(1, chats + 1):
            tg.user(chat_id)
        outbox = Outbox(bot)
        sink = TelegramSink(bot, outbox)
        started = time.perf_counter()
        for chat_id in range(1, chats + 1):
            await sink.deliver(Reply(chat_id=chat_id, text=f"Напоминание #{chat_id}"))
        await outbox.drain()
        elapsed = time.perf_counter() - started
        sent = [c for c in tg.calls_of("sendMessage") if c.ok]
        too_many = [c for c in tg.calls if c.status == 429]
        delivered = sum(1 for chat_id in range(1, chats + 1) if tg.messages(chat_id))
        # The sustained rate: after the first second's burst, as Telegram measures it.
        times = sorted(c.time for c in sent)
        window = [t for t in times if t >= times[0] + 1.0]
        sustained = (len(window) - 1) / (window[-1] - window[0]) if len(window) > 1 else 0.0
        print(f"chats: {chats}, delivered: {delivered}, sendMessage ok: {len(sent)}")
        print(
            f"elapsed: {elapsed:.2f} s, overall {len(sent) / elapsed:.2f} msg/s, "
            f"sustained {sustained:.2f} msg/s (target >= 28)"
        )
        print(
            f"429 answers from the server: {len(too_many)} (target 0); "
            f"outbox retries: {outbox.stats.retry_after}, failures: {outbox.stats.failed}"
        )
        await sink.close()
        await outbox.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=1000)
    args = parser.parse_args()
    configure_logging("WARNING")
    logging.getLogger("aiogram").setLevel(logging.WARNING)
    asyncio.run(main(args.chats))
