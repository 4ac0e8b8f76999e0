"""Part 2 of ``bench/booking.py``: N users booking at once through the shared browser pool,
next to a new Chromium launched per booking; the ratio, and peak RSS (and PSS) per extra
browser context."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from playwright.async_api import async_playwright

from bench.booking_refportal import free_rooms
from bench.booking_rig import Recorder, core_on, day_ahead
from core.browser import BrowserPool, chromium_args, find_chromium
from core.commands import Command
from storage import Storage

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Playwright


__all__ = ["BrowserPerBooking", "many", "memory_of_tree", "part_two", "peak_memory"]


class BrowserPerBooking(BrowserPool):
    """The baseline: every run launches its own Chromium (on the one Playwright driver,
    so only the browser differs from the pool) and closes it when the run ends."""

    def __init__(self, *, at_once: int) -> None:
        super().__init__()
        self._gate = asyncio.Semaphore(at_once) if at_once > 0 else None
        self._driver: Playwright | None = None

    async def start(self) -> None:
        self._driver = await async_playwright().start()

    async def close(self) -> None:
        if self._driver is not None:
            await self._driver.stop()
        await super().close()

    @asynccontextmanager
    async def context(
        self,
        *,
        storage_state: dict[str, Any] | None = None,
        on_queued: Callable[[], Awaitable[None]] | None = None,
    ) -> AsyncIterator[BrowserContext]:
        assert self._driver is not None, "start() first"
        async with AsyncExitStack() as stack:
            if self._gate is not None:
                await stack.enter_async_context(self._gate)
            browser = await self._driver.chromium.launch(
                executable_path=find_chromium(), headless=True, args=chromium_args()
            )
            stack.push_async_callback(browser.close)
            context = await browser.new_context(
                storage_state=storage_state,  # type: ignore[arg-type]
                locale="ru-RU",
                timezone_id="Europe/Moscow",
            )
            stack.push_async_callback(context.close)
            yield context


def memory_of_tree(pid: int) -> tuple[int, int]:
    """(RSS, PSS) in bytes of the Chromium processes among ``pid``'s descendants (Linux
    /proc). RSS counts the libraries every Chromium process shares once per process;
    PSS splits shared pages among their users, so it sums to what the tree really holds."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    rss = pss = 0
    todo = list(children.get(pid, []))
    while todo:
        current = todo.pop()
        todo.extend(children.get(current, []))
        try:
            if b"chrom" not in Path(f"/proc/{current}/cmdline").read_bytes()[:200]:
                continue
            for line in Path(f"/proc/{current}/smaps_rollup").read_text().splitlines():
                if line.startswith(("Rss:", "Pss:")):
                    kib = int(line.split()[1]) * 1024
                    rss, pss = (rss + kib, pss) if line.startswith("Rss") else (rss, pss + kib)
        except OSError:
            pass
    return rss, pss


@asynccontextmanager
async def peak_memory(pid: int) -> AsyncIterator[list[int]]:
    """Samples the tree every 250 ms while the block runs; yields [peak RSS, peak PSS]."""
    peak = [0, 0]

    async def sample() -> None:
        while True:
            rss, pss = await asyncio.to_thread(memory_of_tree, pid)
            peak[0], peak[1] = max(peak[0], rss), max(peak[1], pss)
            await asyncio.sleep(0.25)

    task = asyncio.create_task(sample())
    try:
        yield peak
    finally:
        task.cancel()


async def many(core: Any, rec: Recorder, rooms: list[int], base: int, when: str) -> float:
    """All users send their command at once; the time until the last one is done."""
    waits = [rec.expect(base + n) for n in range(len(rooms))]
    began = time.perf_counter()
    for n, room in enumerate(rooms):
        text = f"забронируй {room} в главном {when}"
        await core.handle(Command(chat_id=base + n, user_id=base + n, text=text))
    await asyncio.gather(*(w.wait() for w in waits))
    return time.perf_counter() - began


async def part_two(storage: Storage, url: str, users: int, at_once: int) -> None:
    pid, rec = os.getpid(), Recorder()
    day = day_ahead(5)
    rooms = (await free_rooms(url, day, ["12:00-13:00", "15:00-16:00"]))[:users]
    if len(rooms) < users:
        print(f"   (only {len(rooms)} rooms are free for the run; {users} asked)")
    async with (
        BrowserPool(max_contexts=len(rooms)) as pool,
        core_on(storage, url, pool, rec) as core,
    ):
        await pool.browser()  # the one launch the pool ever pays is not the work
        await asyncio.sleep(0.5)
        idle_rss, idle_pss = memory_of_tree(pid)
        async with peak_memory(pid) as peak:
            pooled = await many(core, rec, rooms, 1000, f"{day:%d.%m} с 12 до 13")
    per_rss, per_pss = (peak[0] - idle_rss) / len(rooms), (peak[1] - idle_pss) / len(rooms)
    per_booking = BrowserPerBooking(at_once=at_once)
    async with per_booking:
        # The Playwright driver, shared: not the work. Started before the core, whose
        # catalogue read opens a context too.
        await per_booking.start()
        async with core_on(storage, url, per_booking, rec) as core:
            separate = await many(core, rec, rooms, 2000, f"{day:%d.%m} с 15 до 16")
    bound = f"at most {at_once} browsers alive at once" if at_once > 0 else "all at once"
    print(f"2) {len(rooms)} users booking at once")
    print(f"   shared pool ({len(rooms)} contexts)  {pooled:7.2f} s   (browser launched before)")
    print(f"   a browser per booking     {separate:7.2f} s   ({bound})")
    print(f"   ratio browser/pool        {separate / pooled:7.2f}x  (target >= 4x)")
    print(
        f"   peak RSS per extra context {per_rss / 2**20:6.1f} MiB  (PSS {per_pss / 2**20:.1f} MiB)"
    )
    print(
        f"     Chromium: idle {idle_rss / 2**20:.0f} MiB RSS ({idle_pss / 2**20:.0f} PSS), "
        f"peak {peak[0] / 2**20:.0f} MiB RSS ({peak[1] / 2**20:.0f} PSS)"
    )
    for line in rec.failed:
        print(f"   ! {line}")
