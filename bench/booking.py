"""Booking benchmarks (issue 6). Prints numbers; asserts nothing.

1. Wall time to book 3 adjacent rooms through the scenario (the real core, Chromium,
   the reference portal) next to the same booking done with plain HTTP requests, the
   ratio, and the number of LLM calls made.
2. 20 users booking at once through the shared browser pool, next to a new browser
   launched per booking; the ratio, and peak RSS per extra browser context.

    python bench/booking.py [--users 20]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

import aiohttp
from pydantic import SecretStr

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.app import build_core  # noqa: E402
from core.browser import BrowserPool  # noqa: E402
from core.commands import Command  # noqa: E402
from core.events import BaseEvent, EventBus  # noqa: E402
from core.output import Done, Failed, Output  # noqa: E402
from core.settings import load_settings  # noqa: E402
from core.vault import CredentialVault  # noqa: E402
from portal.server import running_portal  # noqa: E402
from scenarios.booking import PortalAccount, PortalWork  # noqa: E402
from scenarios.registry import all_scenarios  # noqa: E402
from storage import Storage, open_storage  # noqa: E402

ACCOUNT = ("club", "club-demo")
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')


class DoneSink:
    def __init__(self) -> None:
        self.finished: dict[int, asyncio.Event] = {}

    def expect(self, chat_id: int) -> asyncio.Event:
        self.finished[chat_id] = asyncio.Event()
        return self.finished[chat_id]

    async def deliver(self, output: Output) -> None:
        if isinstance(output, Done | Failed):
            if isinstance(output, Failed):
                print(f"  ! chat {output.chat_id}: {output.text}")
            self.finished[output.chat_id].set()


async def http_booking(url: str, day: date, start: str, end: str) -> list[str]:
    """The same job with plain HTTP: log in, read availability, book 3 adjacent, verify."""
    # unsafe=True: the portal is on an IP address, whose cookies aiohttp drops by default.
    async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
        page = await (await http.get(f"{url}/login")).text()
        login = {
            "username": ACCOUNT[0],
            "password": ACCOUNT[1],
            "csrf_token": _CSRF.findall(page)[0],
            "next": "/rooms",
        }
        await http.post(f"{url}/login", data=login)
        grid = await (
            await http.get(
                f"{url}/api/availability", params={"building": "main", "date": day.isoformat()}
            )
        ).json()
        free = [
            r
            for r in grid["rooms"]
            if not any(b["start"] < end and start < b["end"] for b in r["busy"])
        ]
        numbers = sorted(int(r["number"]) for r in free)
        first = next(
            n for n in numbers if {n + 1, n + 2} <= set(numbers) and n // 100 == (n + 2) // 100
        )
        booked = []
        for number in (first, first + 1, first + 2):
            form = await (
                await http.get(
                    f"{url}/book",
                    params={
                        "room": f"main-{number}",
                        "date": day.isoformat(),
                        "start": start,
                        "end": end,
                    },
                )
            ).text()
            data = {
                "room": f"main-{number}",
                "date": day.isoformat(),
                "start": start,
                "end": end,
                "purpose": "bench",
                "csrf_token": _CSRF.findall(form)[0],
            }
            response = await http.post(f"{url}/book", data=data)
            assert response.status == 200, response.status
            booked.append(str(number))
        mine = await (await http.get(f"{url}/my")).text()
        assert all(n in mine for n in booked)
        return booked


def rss_of_tree(pid: int) -> int:
    """Resident memory (bytes) of a process and all its descendants."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    total, todo = 0, [pid]
    while todo:
        current = todo.pop()
        try:
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
        except OSError:
            pass
        todo.extend(children.get(current, []))
    return total


async def scenario_time(
    storage: Storage, url: str, pool: BrowserPool, text: str
) -> tuple[float, int]:
    sink = DoneSink()
    llm_calls = 0

    async def count(event: BaseEvent) -> None:
        nonlocal llm_calls
        if event.kind.startswith(("llm", "brain")):
            llm_calls += 1

    bus = EventBus(storage.events)
    bus.subscribe(count)
    account = PortalAccount(url=url, username=ACCOUNT[0], password=SecretStr(ACCOUNT[1]))
    work = PortalWork(pool=pool, account=account, vault=CredentialVault(storage, None))
    scenarios = all_scenarios(work=work, preferences=storage.preferences)
    async with build_core(load_settings(), storage, sink, scenarios=scenarios, bus=bus) as core:
        finished = sink.expect(1)
        began = time.perf_counter()
        await core.handle(Command(chat_id=1, user_id=1, text=text))
        await finished.wait()
        return time.perf_counter() - began, llm_calls


async def many_through_pool(storage: Storage, url: str, users: int, day: str) -> tuple[float, int]:
    sink = DoneSink()
    async with BrowserPool(max_contexts=users) as pool:
        account = PortalAccount(url=url, username=ACCOUNT[0], password=SecretStr(ACCOUNT[1]))
        work = PortalWork(pool=pool, account=account, vault=CredentialVault(storage, None))
        scenarios = all_scenarios(work=work, preferences=storage.preferences)
        async with build_core(load_settings(), storage, sink, scenarios=scenarios) as core:
            rooms = [*range(201, 211), *range(301, 311), *range(401, 411)][:users]
            waits = [sink.expect(1000 + n) for n in range(users)]
            await pool.browser()  # the one launch the pool ever pays is not the work
            began = time.perf_counter()
            await asyncio.gather(
                *(
                    core.handle(
                        Command(
                            chat_id=1000 + n,
                            user_id=1000 + n,
                            text=f"забронируй {room} в главном {day} с 12 до 13",
                        )
                    )
                    for n, room in enumerate(rooms)
                )
            )
            await asyncio.gather(*(w.wait() for w in waits))
            return time.perf_counter() - began, pool.open_contexts


async def many_with_own_browsers(storage: Storage, url: str, users: int, day: str) -> float:
    sink = DoneSink()

    async def one(n: int, room: int) -> None:
        async with BrowserPool(max_contexts=1) as own:
            account = PortalAccount(url=url, username=ACCOUNT[0], password=SecretStr(ACCOUNT[1]))
            work = PortalWork(pool=own, account=account, vault=CredentialVault(storage, None))
            scenarios = all_scenarios(work=work, preferences=storage.preferences)
            async with build_core(load_settings(), storage, sink, scenarios=scenarios) as core:
                wait = sink.expect(2000 + n)
                await core.handle(
                    Command(
                        chat_id=2000 + n,
                        user_id=2000 + n,
                        text=f"забронируй {room} в главном {day} с 15 до 16",
                    )
                )
                await wait.wait()

    rooms = [*range(201, 211), *range(301, 311), *range(401, 411)][:users]
    began = time.perf_counter()
    await asyncio.gather(*(one(n, room) for n, room in enumerate(rooms)))
    return time.perf_counter() - began


async def context_memory(url: str, contexts: int) -> float:
    import os

    async with BrowserPool(max_contexts=contexts + 1) as pool:
        await pool.browser()
        async with pool.context() as first:
            await (await first.new_page()).goto(f"{url}/login")
            one = rss_of_tree(os.getpid())
            async with asyncio.TaskGroup() as group:
                holders = [pool.context() for _ in range(contexts)]
                opened = [await h.__aenter__() for h in holders]
                for ctx in opened:
                    group.create_task((await ctx.new_page()).goto(f"{url}/login"))
            many = rss_of_tree(os.getpid())
            for holder in holders:
                await holder.__aexit__(None, None, None)
    return (many - one) / contexts


async def main(users: int) -> None:
    data = Path(tempfile.mkdtemp())
    async with (
        open_storage(mongodb_uri=None, redis_url=None, data_dir=data, in_memory=True) as storage,
        running_portal(seed=1) as portal,
    ):
        today = date.today()
        print("1) three adjacent rooms, one user")
        async with BrowserPool() as pool:
            await pool.browser()
            cold, _ = await scenario_time(
                storage,
                portal.url,
                pool,
                "забронируй 3 аудитории рядом в главном послезавтра с 18 до 20",
            )
            warm, llm_calls = await scenario_time(
                storage,
                portal.url,
                pool,
                "забронируй 3 аудитории рядом в главном послезавтра с 20 до 22",
            )
        began = time.perf_counter()
        await http_booking(portal.url, today + timedelta(days=3), "18:00", "20:00")
        plain = time.perf_counter() - began
        print(f"   scenario, first login     {cold:7.2f} s")
        print(f"   scenario, saved session   {warm:7.2f} s")
        print(f"   plain HTTP requests       {plain:7.2f} s")
        print(f"   ratio scenario/HTTP       {warm / plain:7.2f}x (saved session; target <= 3x)")
        print(f"   LLM calls                 {llm_calls:7d}   (must be 0)")

        print(f"2) {users} users booking at once")
        pooled, _ = await many_through_pool(storage, portal.url, users, "через 4 дня")
        separate = await many_with_own_browsers(storage, portal.url, users, "через 4 дня")
        per_context = await context_memory(portal.url, 5)
        print(f"   shared pool               {pooled:7.2f} s")
        print(f"   a browser per booking     {separate:7.2f} s")
        print(f"   ratio browser/pool        {separate / pooled:7.2f}x (target >= 4x)")
        print(f"   peak RSS per extra context {per_context / 2**20:6.1f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--users", type=int, default=20)
    asyncio.run(main(parser.parse_args().users))
