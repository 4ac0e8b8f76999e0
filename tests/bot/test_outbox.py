"""The outbox against the fake server: order per chat, nothing dropped, 429 delays one chat."""

from __future__ import annotations

import asyncio

from aiogram import Bot
from aiogram.exceptions import TelegramBadRequest
from aiogram.methods import SendMessage

from bot.outbox import FloodLimits, Outbox
from tests.fakes.telegram import FakeTelegram, RateLimits

FAST = RateLimits(per_chat_burst=3, per_chat_rate=10.0, global_burst=30, global_rate=60.0)
FAST_OURS = FloodLimits(per_chat_rate=9.0, per_chat_burst=2, global_rate=55.0, global_burst=10)


def _texts(tg: FakeTelegram, chat_id: int) -> list[str]:
    return [m.text or "" for m in sorted(tg.messages(chat_id), key=lambda m: m.message_id)]


async def test_burst_in_one_chat_keeps_order_and_never_hits_429(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1)
    tg.set_rate_limits(FAST)
    outbox = Outbox(bot, limits=FAST_OURS)
    futures = [outbox.post(1, SendMessage(chat_id=1, text=f"m{i}")) for i in range(25)]
    await asyncio.gather(*futures)
    assert _texts(tg, 1) == [f"m{i}" for i in range(25)]
    assert outbox.stats.retry_after == 0
    await outbox.close()


async def test_many_chats_stay_under_the_global_limit(tg: FakeTelegram, bot: Bot) -> None:
    tg.set_rate_limits(FAST)
    for chat in range(1, 81):
        tg.user(chat)
    outbox = Outbox(bot, limits=FAST_OURS)
    await asyncio.gather(*(outbox.post(c, SendMessage(chat_id=c, text="hi")) for c in range(1, 81)))
    assert all(_texts(tg, c) == ["hi"] for c in range(1, 81))
    assert outbox.stats.retry_after == 0
    await outbox.close()


async def test_retry_after_delays_only_that_chat_then_retries(tg: FakeTelegram, bot: Bot) -> None:
    slow, fast = tg.user(1), tg.user(2)
    outbox = Outbox(bot, limits=FAST_OURS)
    tg.inject_error(method="sendMessage", error_code=429, retry_after=1)
    loop = asyncio.get_running_loop()
    started = loop.time()
    first = outbox.post(slow.id, SendMessage(chat_id=slow.id, text="a0"))
    rest = [outbox.post(slow.id, SendMessage(chat_id=slow.id, text=f"a{i}")) for i in (1, 2)]
    await asyncio.sleep(0.2)  # the slow chat got its 429 and waits
    await asyncio.gather(
        *(outbox.post(fast.id, SendMessage(chat_id=fast.id, text=f"b{i}")) for i in range(3))
    )
    fast_done = loop.time() - started
    assert not first.done()
    await asyncio.gather(first, *rest)
    slow_done = loop.time() - started
    assert fast_done < 0.9 <= slow_done
    assert _texts(tg, slow.id) == ["a0", "a1", "a2"]
    assert _texts(tg, fast.id) == ["b0", "b1", "b2"]
    assert outbox.stats.retry_after == 1
    await outbox.close()


async def test_real_429s_from_flood_control_lose_nothing(tg: FakeTelegram, bot: Bot) -> None:
    # Our limiter is set too generous on purpose: the server's flood control answers 429s.
    tg.user(1)
    tg.set_rate_limits(
        RateLimits(per_chat_burst=2, per_chat_rate=2.0, global_burst=30, global_rate=30.0)
    )
    outbox = Outbox(
        bot,
        limits=FloodLimits(
            per_chat_rate=100, per_chat_burst=100, global_rate=100, global_burst=100
        ),
    )
    await asyncio.gather(*(outbox.post(1, SendMessage(chat_id=1, text=f"m{i}")) for i in range(5)))
    assert _texts(tg, 1) == [f"m{i}" for i in range(5)]
    assert outbox.stats.retry_after >= 1
    await outbox.close()


async def test_a_bad_request_fails_its_call_only(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1)
    outbox = Outbox(bot)
    tg.inject_error(method="sendMessage", error_code=400, description="Bad Request: boom")
    bad = outbox.post(1, SendMessage(chat_id=1, text="lost"))
    good = outbox.post(1, SendMessage(chat_id=1, text="kept"))
    await good
    assert isinstance(bad.exception(), TelegramBadRequest)
    assert _texts(tg, 1) == ["kept"]
    assert outbox.stats.failed == 1
    await outbox.close()


async def test_server_errors_are_retried(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1)
    outbox = Outbox(bot)
    tg.inject_error(method="sendMessage", error_code=502, times=2)
    await outbox.call(1, SendMessage(chat_id=1, text="eventually"))
    assert _texts(tg, 1) == ["eventually"]
    await outbox.close()


async def test_idle_lanes_are_forgotten_and_come_back(tg: FakeTelegram, bot: Bot) -> None:
    tg.user(1), tg.user(2)
    outbox = Outbox(bot, idle_seconds=0.05)
    await outbox.call(1, SendMessage(chat_id=1, text="one"))
    await asyncio.sleep(0.2)
    await outbox.call(2, SendMessage(chat_id=2, text="other"))
    assert list(outbox._lanes) == [2]
    await outbox.call(1, SendMessage(chat_id=1, text="two"))
    assert _texts(tg, 1) == ["one", "two"]
    await outbox.close()
