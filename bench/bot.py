"""Throughput and latency of the whole Telegram bot (aiogram dispatcher → ChatDispatcher on
SecantusDB + redis-server → sink → outbox) against the fake Bot API server, next to a
bare aiogram echo bot measured in the same run against the same server.

Each of N simulated chats writes M messages one after another (each waits for its reply),
so latency is "update posted → reply recorded by the server"; CPU time of this process per
update is printed too. Every bot runs on the event loop and heap settings `clubman run`
uses. Each round runs the three bots back to back and the ratio reported is the median
of the rounds' ratios: on a shared machine the speed of all of them drifts by tens of
percent from minute to minute, and a round compares them under the same load. Flood
control is off on both sides here (bench/flood.py measures it): this measures our
processing overhead.

    python -m bench.bot [--chats 50] [--messages 10] [--breakdown]

``--breakdown`` adds one more full-stack round with every middleware and core call timed
(``bench.breakdown``) and prints where an update's time goes; that round is not in the
ratio (the timing itself costs).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import logging
import statistics
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from contextlib import ExitStack, asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.runtime import run as run_loop
from app.runtime import settle_heap
from bench.breakdown import Breakdown
from bot.outbox import FloodLimits
from core.commands import Command, Lang
from core.logging import configure_logging
from core.output import OutputSink, Reply
from core.scenario import Shortcut
from core.settings import Settings
from scenarios.help import HelpScenario, UnknownScenario
from storage import Storage, open_storage
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram, SimUser
from tests.fakes.telegram.echo import echo_bot, echo_dispatcher
from tests.fakes.telegram.testing import polling
from tests.support.servers import running_redis, running_secantus

UNLIMITED = FloodLimits(
    per_chat_rate=1e6, per_chat_burst=10**6, global_rate=1e6, global_burst=10**6
)
TEXT = "что ты умеешь?"


@dataclass
class Result:
    updates: int
    elapsed: float
    latencies: list[float]
    cpu: float  # seconds of this process's CPU (bot, fake server and clients alike)

    @property
    def rate(self) -> float:
        return self.updates / self.elapsed

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000

    def line(self, name: str) -> str:
        return (
            f"{name:<11} {self.updates} updates in {self.elapsed:.2f} s: "
            f"{self.rate:7.1f} updates/s, p50 {self.pct(0.5):6.1f} ms, "
            f"p99 {self.pct(0.99):6.1f} ms, {self.cpu / self.updates * 1000:.2f} ms CPU/update"
        )


async def converse(users: Sequence[SimUser], messages: int, *, expect: str = "") -> Result:
    """Each user sends and waits for its reply; a reply not starting with ``expect`` (an
    error answer instead of the work measured) stops the bench rather than skew it."""
    latencies: list[float] = []

    async def chat(user: SimUser) -> None:
        for _ in range(messages):
            posted = time.perf_counter()
            await user.send(TEXT)
            reply = await user.wait_for_message(timeout=60)
            latencies.append(time.perf_counter() - posted)
            if not (reply.text or "").startswith(expect):
                raise RuntimeError(f"the bot answered {reply.text!r}, not {expect!r}…")

    started, cpu = time.perf_counter(), time.process_time()
    await asyncio.gather(*(chat(user) for user in users))
    return Result(
        len(latencies), time.perf_counter() - started, latencies, time.process_time() - cpu
    )


class StubUserSettings:
    async def language(
        self, user_id: int, *, client: Lang | None, name: str = "", text: str = ""
    ) -> Lang:
        return client or "ru"  # the stub keeps no profiles


class StubCore:
    """Stands in for the manager: replies at once, touches no storage. Shows what the
    Telegram layer (dispatcher, middlewares, sink, outbox) costs on its own."""

    def __init__(self, sink: OutputSink) -> None:
        self._sink = sink
        self._turns: dict[int, asyncio.Lock] = {}
        self.user_settings = StubUserSettings()
        self.shortcuts: tuple[Shortcut, ...] = ()  # no job: no job's commands

    @asynccontextmanager
    async def chat_turn(self, chat_id: int) -> AsyncIterator[bool]:
        """Per-chat order in memory only: no Redis lease, as the stub touches no storage."""
        async with self._turns.setdefault(chat_id, asyncio.Lock()):
            yield False

    async def handle(self, command: Command, *, confirm_new: bool = False) -> None:
        await self._sink.deliver(Reply(chat_id=command.chat_id, text=f"stub: {command.text}"))


@asynccontextmanager
async def stub_core(settings: Settings, storage: Storage, sink: OutputSink) -> AsyncIterator[Any]:
    yield StubCore(sink)


def merge(results: Sequence[Result]) -> Result:
    return Result(
        sum(r.updates for r in results),
        sum(r.elapsed for r in results),
        [x for r in results for x in r.latencies],
        sum(r.cpu for r in results),
    )


async def run(
    chats: int, messages: int, rounds: int, workdir: Path, *, freeze: bool, breakdown: bool
) -> None:
    """Each round runs the echo bot, the full stack and the bot layer alone on one fake
    server, in alternating order, so all meet the same server state (the fake slows down a
    little as it records more)."""
    ids = itertools.count(10**6, chats)

    def fresh(tg: FakeTelegram) -> list[SimUser]:
        base = next(ids)
        return [tg.user(base + i) for i in range(chats)]

    echo: list[Result] = []
    full: list[Result] = []
    layer: list[Result] = []
    with ExitStack() as servers:
        redis_url = servers.enter_context(running_redis(workdir))
        mongo_uri = servers.enter_context(running_secantus(workdir))
        async with (
            FakeTelegram() as tg,
            open_storage(
                mongodb_uri=mongo_uri,
                redis_url=redis_url,
                data_dir=workdir,
                db_name=f"b_{uuid.uuid4().hex[:8]}",
            ) as storage,
        ):
            bot = echo_bot(tg.token, tg.api_base)
            if freeze:
                # As `clubman run` does after start-up. One process-wide setting, so the
                # echo bot gains as much as ours: compare like with like.
                settle_heap()
            loop_name = type(asyncio.get_running_loop()).__module__.split(".")[0]

            async def echo_round(warm: bool) -> None:
                async with polling(echo_dispatcher(), bot, polling_timeout=1):
                    result = await converse(fresh(tg), 2 if warm else messages, expect=TEXT)
                if not warm:
                    echo.append(result)

            async def full_round(warm: bool) -> None:
                async with running_bot(
                    tg, storage, scenarios=[HelpScenario(), UnknownScenario()], limits=UNLIMITED
                ):
                    result = await converse(fresh(tg), 2 if warm else messages, expect="Команды:")
                if not warm:
                    full.append(result)

            async def layer_round(warm: bool) -> None:
                async with running_bot(tg, storage, core=stub_core, limits=UNLIMITED):
                    result = await converse(fresh(tg), 2 if warm else messages, expect="stub: ")
                if not warm:
                    layer.append(result)

            phases = [echo_round, full_round, layer_round]
            for phase in phases:
                await phase(True)
            for index in range(rounds):
                for phase in phases if index % 2 == 0 else phases[::-1]:
                    await phase(False)
            timed = Breakdown()
            if breakdown:
                with timed.installed():
                    async with running_bot(
                        tg, storage, scenarios=[HelpScenario(), UnknownScenario()],
                        limits=UNLIMITED,
                    ):  # fmt: skip
                        timed_round = await converse(fresh(tg), messages, expect="Команды:")
            await bot.session.close()

    e, f, b = merge(echo), merge(full), merge(layer)
    print(
        f"{chats} chats x {messages} messages, each waiting for its reply; {rounds} rounds; "
        + ("start-up heap settled for all" if freeze else "CPython's default GC for all")
        + f"; event loop: {loop_name}"
    )
    print(e.line("echo bot"))
    print(f.line("full stack"))
    print(b.line("bot layer") + "  (core stubbed: dispatcher, middlewares, sink, outbox)")
    # Each round runs all three bots back to back, so a round's ratio compares them under
    # the same machine load; the median of those is what the target is checked against.
    ratios = sorted(fr.rate / er.rate for fr, er in zip(full, echo, strict=True))
    print(
        f"ratio: {statistics.median(ratios):.0%} of the echo bot's updates/s (target >= 60%; "
        f"median of {rounds} rounds, each {ratios[0]:.0%}..{ratios[-1]:.0%}; "
        f"all rounds pooled {f.rate / e.rate:.0%}); "
        f"p50 latency x{statistics.median(f.latencies) / statistics.median(e.latencies):.1f}"
    )
    print(f"bot layer alone: {b.rate / e.rate:.0%} of the echo bot's updates/s")
    print(
        f"CPU per update in this process: full stack x{f.cpu / f.updates / (e.cpu / e.updates):.2f}"
        " of the echo bot (SecantusDB and redis-server run in their own processes)"
    )
    if breakdown:
        print(
            f"where a full-stack update's time goes (wall, a timed round of its own: "
            f"{timed_round.rate:.0f} updates/s, p50 {timed_round.pct(0.5):.1f} ms):"
        )
        print("\n".join(timed.lines(timed_round.updates)))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chats", type=int, default=50)
    parser.add_argument("--messages", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--log-level", default="WARNING")
    parser.add_argument(
        "--breakdown", action="store_true", help="also time each middleware and core call"
    )
    parser.add_argument(
        "--no-freeze",
        action="store_true",
        help="skip app.runtime.settle_heap: CPython's default GC (for every bot)",
    )
    args = parser.parse_args()
    configure_logging(args.log_level)
    logging.getLogger("aiogram").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory() as tmp:
        # The event loop `clubman run` uses (uvloop where installed), for every bot alike.
        work = run(
            args.chats, args.messages, args.rounds, Path(tmp),
            freeze=not args.no_freeze, breakdown=args.breakdown,
        )  # fmt: skip
        run_loop(work)
