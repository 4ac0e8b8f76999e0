"""Booking benchmarks (issue 6). Prints numbers; asserts nothing.

1. Wall time to book 3 adjacent rooms through the scenario (the real core, Chromium,
   the reference portal), per step, first login and saved session, next to:
   - the same booking with plain HTTP requests (the issue's baseline, target <= 3x);
   - the same pages driven by a short Playwright script with no framework (same
     navigations as the scenario, none of its checks, retries, events or checkpoints);
   and the number of LLM calls made (must be 0).
2. N users booking at once through the shared browser pool, next to a new Chromium
   launched per booking; the ratio, and peak RSS (and PSS) per extra browser context.

3. ``--system indico``: a real Indico 3.2.9 (``tests/support/indico_server.py``, started
   before the clock starts), one room of building 7 booked through the scenario on
   ``IndicoSystem``, next to a bare Playwright script doing the same job: log in through
   Indico's login page, then Indico's own JSON endpoints (rooms, timeline, create, my
   bookings) through the logged-in context. The adapter books only through those JSON
   endpoints (the browser page is for the login), so there is no browser-page line;
   part 2 runs on the reference portal only. One unmeasured booking first warms Indico
   (its first requests import and compile its code).

   Then the profile adapter on the same Indico (``profiles/indico.yaml``), its fast path
   and its page path, next to a bare script clicking through the same pages and plain
   HTTP (``bench/booking_indico.py``).

4. ``--system profile``: the profile adapter with ``profiles/refportal.yaml`` next to the
   hand-written reference-portal adapter and the bare script (``bench/booking_profile.py``).

5. ``--system legacy``: the profile adapter with ``profiles/legacy.yaml`` (fast path and
   page path) on the legacy-style site, next to a bare script and plain HTTP
   (``bench/booking_legacy.py``).

    python bench/booking.py [--system refportal|indico|profile|legacy] [--repeat 3] [--users 8]

Reading the numbers (measured on 2 cores; see the issue's report for a run).

- <= 3x against plain HTTP is out of reach for any real browser here, and the bench
  prints the measured ratio rather than assume it. Against a portal on localhost one
  HTTP request takes about a millisecond; one browser navigation takes 30-70 ms (and
  about 50 ms of CPU across Chromium's browser, renderer and GPU processes): the HTML is
  parsed, the portal's script run, the page laid out, and every Playwright call is a
  round trip Python -> driver -> Chromium. A booking of 3 rooms needs ~12 navigations
  (log in, «Мои брони», rooms page, «Показать», «Мои брони» before booking, a form and
  its POST per room, «Мои брони» to verify), so ~1 s is the floor for a browser.
- The Playwright-script lines are the fair comparison: the same navigations written
  as a bare script (no checks, retries, idempotency, events or checkpoints).
  scenario/script is what our framework adds, script/HTTP what the browser adds.
- The portal runs in its own process, as a real portal would, so it does not share the
  bench's event loop (in-process it slowed both sides).
- Part 2: on 2 cores every booking is CPU-bound in Chromium, so 20 concurrent bookings
  take about 20x the CPU of one whether they share a browser or not; a launch costs a
  fraction of a booking's CPU, so "a browser per booking" is only a little slower and
  the >= 4x target is not met. The pool's real gains are memory (one browser's fixed
  cost, then ~100+ MiB PSS per context) and latency when cores are free. The pool's one
  launch happens before the clock starts (a long-running bot pays it once); the
  per-booking browsers share one Playwright driver, so only the browser differs.
  ``--browsers K`` bounds how many per-booking browsers are alive at once (the output
  says so); by default all start at once. ``--users 20`` is the issue's full run.
- Memory is sampled every 250 ms over the Chromium processes only: RSS counts shared
  libraries once per process, PSS shares them out, so PSS is the honest per-context cost.
- Not done, on purpose: blocking images/fonts with ``context.route`` - the portal loads
  none, and routing makes every request wait for the driver (measured: +25-35% per
  navigation).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import aiohttp
from playwright.async_api import async_playwright
from pydantic import SecretStr

from adapters.indico import IndicoSystem
from adapters.refportal import PROFILE, RefPortal
from core.site.catalogue import Catalogues
from core.site.profile import load_profile
from scenarios.booking.port import BookingSystem

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.app import build_core  # noqa: E402
from core.browser import BrowserPool, chromium_args, find_chromium  # noqa: E402
from core.commands import Command  # noqa: E402
from core.events import BaseEvent, EventBus  # noqa: E402
from core.logging import configure_logging  # noqa: E402
from core.output import Done, Failed, Output, Question, Receipt, receipted  # noqa: E402
from core.settings import load_settings  # noqa: E402
from core.vault import CredentialVault  # noqa: E402
from scenarios.booking import PortalAccount, PortalWork, read_catalogue  # noqa: E402
from scenarios.registry import all_scenarios  # noqa: E402
from storage import Storage, open_storage  # noqa: E402
from tests.support.indico_server import IndicoServer, running_indico_server  # noqa: E402

if TYPE_CHECKING:
    from playwright.async_api import BrowserContext, Playwright

ACCOUNT = ("club", "club-demo")
_CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
_FREE = re.compile(r"^Аудитория (\d+), (\d\d:\d\d)–(\d\d:\d\d), свободно$")
_INDICO_CSRF = re.compile(r'<meta name="csrf-token" id="csrf-token" content="([^"]+)"')


@asynccontextmanager
async def portal_process() -> AsyncIterator[str]:
    """The reference portal in its own process (as a real portal is); yields its URL."""
    code = "from portal.server import serve; serve(host='127.0.0.1', port=0, db=':memory:', "
    code += "seed=1, test_api=False)"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=subprocess.PIPE, cwd=Path(__file__).parents[1]
    )
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        yield line.split("Portal at ", 1)[1].split()[0]
    finally:
        proc.terminate()
        await proc.wait()


class Recorder:
    """Output sink and event subscriber: finished runs, step timings, LLM calls."""

    def __init__(self) -> None:
        self.finished: dict[int, asyncio.Event] = {}
        self.failed: list[str] = []
        self.llm_calls = 0
        self.steps: dict[int, dict[str, float]] = {}  # chat → step → seconds
        self._started: dict[tuple[int, str], float] = {}

    def expect(self, chat_id: int) -> asyncio.Event:
        self.finished[chat_id] = asyncio.Event()
        self.steps.setdefault(chat_id, {})  # summed over the chat's runs
        return self.finished[chat_id]

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        async with receipted(receipt):
            pass  # shown at once (nowhere)
        if isinstance(output, Done | Failed | Question) and output.chat_id in self.finished:
            if not isinstance(output, Done):  # a question would wait for ever: count it failed
                self.failed.append(f"chat {output.chat_id}: {output.text}")
            self.finished[output.chat_id].set()

    async def on_event(self, event: BaseEvent) -> None:
        if event.kind.startswith(("llm", "brain")):
            self.llm_calls += 1
        step, chat = getattr(event, "step", None), event.chat_id
        if step is None or chat is None:
            return
        if event.kind == "step.started":
            self._started[(chat, step)] = time.perf_counter()
        elif event.kind == "step.succeeded" and (chat, step) in self._started:
            spent = time.perf_counter() - self._started.pop((chat, step))
            self.steps[chat][step] = self.steps[chat].get(step, 0.0) + spent


@asynccontextmanager
async def core_on(
    storage: Storage,
    url: str,
    pool: BrowserPool,
    rec: Recorder,
    *,
    system: BookingSystem | None = None,
    account: tuple[str, str] = ACCOUNT,
) -> AsyncIterator[Any]:
    """The core on the reference portal at ``url``, or on ``system`` with ``account``."""
    bus = EventBus(storage.events)
    bus.subscribe(rec.on_event)
    login = PortalAccount(username=account[0], password=SecretStr(account[1]))
    site = system or RefPortal(url)
    work = PortalWork(pool=pool, system=site, account=login, vault=CredentialVault(storage, None))
    # The catalogue as the product reads it (site + the adapter's profile), once per core.
    read = await read_catalogue(pool, site, login)
    profile = load_profile(PROFILE if system is None else None)  # Indico ships none
    catalogues = Catalogues.fixed(profile.apply(read))
    scenarios = all_scenarios(
        work=work, catalogues=catalogues, preferences=storage.preferences, runs=storage.runs
    )
    async with build_core(
        load_settings(), storage, rec, catalogues=catalogues, scenarios=scenarios, bus=bus
    ) as core:
        yield core


async def run_command(core: Any, rec: Recorder, chat: int, user: int, text: str) -> float:
    finished = rec.expect(chat)
    began = time.perf_counter()
    await core.handle(Command(chat_id=chat, user_id=user, text=text))
    await finished.wait()
    return time.perf_counter() - began


def three_adjacent(free: set[int]) -> int:
    return next(n for n in sorted(free) if {n + 1, n + 2} <= free and n // 100 == (n + 2) // 100)


async def _http_login(http: aiohttp.ClientSession, url: str) -> None:
    page = await (await http.get(f"{url}/login")).text()
    login = {"username": ACCOUNT[0], "password": ACCOUNT[1], "next": "/rooms"}
    await http.post(f"{url}/login", data=login | {"csrf_token": _CSRF.findall(page)[0]})


async def _http_free(
    http: aiohttp.ClientSession, url: str, day: date, spans: list[str]
) -> set[int]:
    """Rooms of the main building free in every ``HH:MM-HH:MM`` span."""
    query = {"building": "main", "date": day.isoformat()}
    grid = await (await http.get(f"{url}/api/availability", params=query)).json()
    return {
        int(r["number"])
        for r in grid["rooms"]
        if not any(b["start"] < s[6:] and s[:5] < b["end"] for b in r["busy"] for s in spans)
    }


def _jar() -> aiohttp.CookieJar:
    # unsafe=True: the portal is on an IP address, whose cookies aiohttp drops by default.
    return aiohttp.CookieJar(unsafe=True)


async def free_rooms(url: str, day: date, spans: list[str]) -> list[int]:
    async with aiohttp.ClientSession(cookie_jar=_jar()) as http:
        await _http_login(http, url)
        return sorted(await _http_free(http, url, day, spans))


async def http_booking(url: str, day: date, start: str, end: str) -> float:
    """The same job with plain HTTP: log in, read availability, book 3 adjacent, verify."""
    began = time.perf_counter()
    async with aiohttp.ClientSession(cookie_jar=_jar()) as http:
        await _http_login(http, url)
        first = three_adjacent(await _http_free(http, url, day, [f"{start}-{end}"]))
        for number in (first, first + 1, first + 2):
            fields = {"room": f"main-{number}", "date": day.isoformat(), "start": start, "end": end}
            form = await (await http.get(f"{url}/book", params=fields)).text()
            data = fields | {"purpose": "bench", "csrf_token": _CSRF.findall(form)[0]}
            response = await http.post(f"{url}/book", data=data)
            assert response.status == 200, response.status
        mine = await (await http.get(f"{url}/my")).text()
        assert all(str(n) in mine for n in (first, first + 1, first + 2))
    return time.perf_counter() - began


async def script_booking(
    context: BrowserContext, url: str, day: date, start: str, end: str, *, login: bool
) -> float:
    """The scenario's page flow as a bare Playwright script: same navigations, no checks."""
    began = time.perf_counter()
    page = await context.new_page()
    if login:
        await page.goto(f"{url}/login?next=%2Fmy")
        await page.get_by_label("Имя пользователя").fill(ACCOUNT[0])
        await page.get_by_label("Пароль", exact=True).fill(ACCOUNT[1])
        async with page.expect_navigation():
            await page.get_by_role("button", name="Войти").click()
    else:
        await page.goto(f"{url}/my")
    await page.get_by_role("table", name="Мои брони").inner_text()  # the find step's look
    await page.goto(f"{url}/rooms")
    await page.get_by_label("Корпус", exact=True).select_option("main")
    await page.get_by_label("Дата", exact=True).fill(day.isoformat())
    async with page.expect_navigation():
        await page.get_by_role("button", name="Показать").click()
    grid = page.get_by_role("table", name=re.compile("^Занятость аудиторий"))
    await grid.wait_for()
    labels: list[str] = await grid.get_by_role("link").evaluate_all(
        "(links) => links.map((a) => a.getAttribute('aria-label'))"
    )
    cells: dict[int, set[str]] = {}
    for label in labels:
        if found := _FREE.match(label):
            cells.setdefault(int(found[1]), set()).add(found[2])
    wanted = {f"{m // 60:02d}:{m % 60:02d}" for m in range(_min(start), _min(end), 30)}
    first = three_adjacent({n for n, starts in cells.items() if wanted <= starts})
    await page.goto(f"{url}/my")  # the book step's look at «Мои брони»
    for number in (first, first + 1, first + 2):
        query = f"room=main-{number}&date={day.isoformat()}&start={start}&end={end}"
        await page.goto(f"{url}/book?{query}")  # the portal fills in the date and times
        await page.get_by_label("Цель бронирования", exact=True).fill("bench")
        async with page.expect_navigation():
            await page.get_by_role("button", name="Забронировать").click()
    await page.goto(f"{url}/my")
    text = await page.get_by_role("table", name="Мои брони").inner_text()
    assert all(str(n) in text for n in (first, first + 1, first + 2))
    await page.close()
    return time.perf_counter() - began


def _min(hhmm: str) -> int:
    return int(hhmm[:2]) * 60 + int(hhmm[3:])


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


def _day(offset: int) -> date:
    return date.today() + timedelta(days=offset)


def _slots(repeat: int) -> list[tuple[str, str]]:
    """2-hour slots 08–10, 10–12, … : two per repetition (first login, saved session)."""
    return [(f"{h:02d}:00", f"{h + 2:02d}:00") for h in range(8, 8 + 4 * repeat, 2)]


async def part_one(storage: Storage, url: str, repeat: int) -> None:
    """Interleaved (scenario, script, HTTP in each round) so that a change in the
    machine's load hits every line alike; each on its own day, so none competes for rooms."""
    rec = Recorder()
    slots = _slots(repeat)
    runs: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "s_cold", "s_warm", "http")}
    async with BrowserPool() as pool:
        await pool.browser()
        async with core_on(storage, url, pool, rec) as core:
            for n in range(repeat):  # user n logs in, then books again on its saved session
                for key, chat, (start, end) in (
                    ("cold", 1 + n, slots[2 * n]),
                    ("warm", 101 + n, slots[2 * n + 1]),
                ):
                    text = (
                        f"забронируй 3 аудитории рядом в главном {_day(2):%d.%m} с {start} до {end}"
                    )
                    runs[key].append(await run_command(core, rec, chat, 1 + n, text))
                async with pool.context() as context:
                    first = await script_booking(context, url, _day(3), *slots[2 * n], login=True)
                    state = await context.storage_state()
                runs["s_cold"].append(first)
                async with pool.context(storage_state=dict(state)) as context:
                    runs["s_warm"].append(
                        await script_booking(context, url, _day(3), *slots[2 * n + 1], login=False)
                    )
                runs["http"].append(await http_booking(url, _day(4), *slots[n]))
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"1) three adjacent rooms, one user (median of {repeat})")
    for first_chat, label, key in ((1, "first login", "cold"), (101, "saved session", "warm")):
        chats = [first_chat + n for n in range(repeat)]
        names = list(rec.steps[first_chat])
        steps = {k: statistics.median(rec.steps[c].get(k, 0.0) for c in chats) for k in names}
        shown = ", ".join(f"{k} {v:.2f}" for k, v in steps.items())
        print(
            f"   steps, {label:13s} {shown}; outside steps {med[key] - sum(steps.values()):.2f} s"
        )
    print(f"   scenario, first login     {med['cold']:7.2f} s   (runs: {_list(runs['cold'])})")
    print(f"   scenario, saved session   {med['warm']:7.2f} s   (runs: {_list(runs['warm'])})")
    print(f"   Playwright script, login  {med['s_cold']:7.2f} s   (runs: {_list(runs['s_cold'])})")
    print(f"   Playwright script, saved  {med['s_warm']:7.2f} s   (runs: {_list(runs['s_warm'])})")
    print(f"   plain HTTP requests       {med['http']:7.3f} s   (runs: {_list(runs['http'], 3)})")
    warm, s_warm, http = med["warm"], med["s_warm"], med["http"]
    print(f"   ratio scenario/HTTP       {warm / http:7.1f}x  (saved session; target <= 3x)")
    print(f"   ratio scenario/script     {warm / s_warm:7.2f}x  (what the framework adds)")
    print(f"   ratio script/HTTP         {s_warm / http:7.1f}x  (what the browser adds)")
    print(f"   LLM calls                 {rec.llm_calls:7d}   (must be 0)")
    for line in rec.failed:
        print(f"   ! {line}")


def _list(values: list[float], digits: int = 2) -> str:
    return ", ".join(f"{v:.{digits}f}" for v in values)


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
    day = _day(5)
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


async def indico_script_booking(
    context: BrowserContext,
    url: str,
    account: tuple[str, str],
    day: date,
    start: str,
    end: str,
    *,
    login: bool,
) -> float:
    """One room of building 7 as a bare script: Indico's login page in the browser (or the
    saved cookies), then the JSON endpoints Indico's own room booking app calls."""
    began = time.perf_counter()
    if login:
        page = await context.new_page()
        await page.goto(f"{url}/login/")
        await page.fill("#identifier", account[0])
        await page.fill("#password", account[1])
        async with page.expect_navigation():
            await page.click("button.login-form-button")
        html = await page.content()
        await page.close()
    else:
        html = await (await context.request.get(f"{url}/")).text()
    found = _INDICO_CSRF.search(html)
    assert found is not None, "not logged in"
    api = context.request
    # Non-GET calls need the page's CSRF token; the XHR header makes errors JSON.
    headers = {"X-CSRF-Token": found[1], "X-Requested-With": "XMLHttpRequest"}
    rooms = await (await api.get(f"{url}/rooms/api/rooms/", headers=headers)).json()
    ids = sorted(int(r["id"]) for r in rooms if r["building"] == "7")
    span: dict[str, str | float | bool] = {
        "start_dt": f"{day.isoformat()}T{start}:00",
        "end_dt": f"{day.isoformat()}T{end}:00",
        "repeat_frequency": "NEVER",
        "repeat_interval": 1,
    }
    timeline = await api.post(
        f"{url}/rooms/api/timeline", params=span, data={"room_ids": ids}, headers=headers
    )
    free = [
        int(room_id)
        for room_id, entry in (await timeline.json())["availability"]
        if entry["candidates"].get(day.isoformat())
    ]
    body = span | {"room_id": min(free), "repeat_interval": 0, "reason": "bench"}
    made = await api.post(
        f"{url}/rooms/api/booking/create",
        data=body | {"is_prebooking": False},
        headers=headers,
    )
    assert made.ok, await made.text()
    booking_id = (await made.json())["booking"]["id"]
    mine = await api.post(
        f"{url}/rooms/api/bookings/active",
        params={"my_bookings": "true", "start_dt": f"{day.isoformat()}T00:00:00"},
        data={},
        headers=headers,
    )
    listed = {o["reservation"]["id"] for d in (await mine.json())["bookings"].values() for o in d}
    assert booking_id in listed
    return time.perf_counter() - began


async def part_indico(storage: Storage, server: IndicoServer, repeat: int) -> None:
    """As part 1, on Indico: the scenario and the bare script interleaved, each on its
    own day and slot so that none competes for a room."""
    rec = Recorder()
    slots = _slots(repeat)
    account = (server.club.username, server.club.password)
    system = IndicoSystem(server.base_url)
    runs: dict[str, list[float]] = {k: [] for k in ("cold", "warm", "s_cold", "s_warm")}
    async with BrowserPool() as pool:
        await pool.browser()
        # Indico's first requests import and compile its code (seconds): one unmeasured
        # booking warms it, so that the first measured run does not pay for it.
        async with pool.context() as context:
            await indico_script_booking(
                context, server.base_url, account, _day(4), *slots[0], login=True
            )
        async with core_on(
            storage, server.base_url, pool, rec, system=system, account=account
        ) as core:
            for n in range(repeat):  # user n logs in, then books again on its saved session
                for key, chat, (start, end) in (
                    ("cold", 1 + n, slots[2 * n]),
                    ("warm", 101 + n, slots[2 * n + 1]),
                ):
                    text = f"забронируй аудиторию в 7 корпусе {_day(2):%d.%m} с {start} до {end}"
                    runs[key].append(await run_command(core, rec, chat, 1 + n, text))
                async with pool.context() as context:
                    runs["s_cold"].append(
                        await indico_script_booking(
                            context, server.base_url, account, _day(3), *slots[2 * n], login=True
                        )
                    )
                    state = await context.storage_state()
                async with pool.context(storage_state=dict(state)) as context:
                    runs["s_warm"].append(
                        await indico_script_booking(
                            context,
                            server.base_url,
                            account,
                            _day(3),
                            *slots[2 * n + 1],
                            login=False,
                        )
                    )
    med = {k: statistics.median(v) for k, v in runs.items()}
    print(f"1) one room of building 7 on Indico 3.2.9, one user (median of {repeat})")
    for first_chat, label in ((1, "first login"), (101, "saved session")):
        chats = [first_chat + n for n in range(repeat)]
        names = list(rec.steps[first_chat])
        steps = {k: statistics.median(rec.steps[c].get(k, 0.0) for c in chats) for k in names}
        shown = ", ".join(f"{k} {v:.2f}" for k, v in steps.items())
        key = "cold" if first_chat == 1 else "warm"
        print(
            f"   steps, {label:13s} {shown}; outside steps {med[key] - sum(steps.values()):.2f} s"
        )
    print(f"   scenario, first login     {med['cold']:7.2f} s   (runs: {_list(runs['cold'])})")
    print(f"   scenario, saved session   {med['warm']:7.2f} s   (runs: {_list(runs['warm'])})")
    print(f"   JSON script, login        {med['s_cold']:7.2f} s   (runs: {_list(runs['s_cold'])})")
    print(f"   JSON script, saved        {med['s_warm']:7.2f} s   (runs: {_list(runs['s_warm'])})")
    cold, warm = med["cold"] / med["s_cold"], med["warm"] / med["s_warm"]
    print(f"   ratio scenario/script     {cold:7.2f}x  (first login; what the framework adds)")
    print(f"   ratio scenario/script     {warm:7.2f}x  (saved session)")
    print(f"   LLM calls                 {rec.llm_calls:7d}   (must be 0)")
    print("   (the adapter books through Indico's JSON endpoints only: no browser-page line)")
    for line in rec.failed:
        print(f"   ! {line}")
    from bench.booking_indico import part_indico_profile  # it imports this module

    async with BrowserPool() as pool:
        await pool.browser()
        await part_indico_profile(storage, server, pool, repeat)


async def on_indico(server: IndicoServer, repeat: int) -> None:
    """Part 3 on a running Indico (the tests pass the session's own: another costs ~40 s)."""
    data = Path(tempfile.mkdtemp())
    async with open_storage(
        mongodb_uri=None, redis_url=None, data_dir=data, in_memory=True
    ) as storage:
        await part_indico(storage, server, repeat)


async def main(args: argparse.Namespace) -> None:
    configure_logging("WARNING")
    if args.system == "legacy":
        from bench.booking_legacy import part_legacy

        await part_legacy(args.repeat)
        return
    data = Path(tempfile.mkdtemp())
    if args.system == "profile":
        from bench.booking_profile import part_profile

        async with (
            open_storage(
                mongodb_uri=None, redis_url=None, data_dir=data, in_memory=True
            ) as storage,
            portal_process() as url,
        ):
            await part_profile(storage, url, args.repeat)
        return
    if args.system == "indico":
        # Indico starts (PostgreSQL, redis, Indico, seed) before any clock starts.
        with running_indico_server() as server:
            await on_indico(server, args.repeat)
        return
    async with (
        open_storage(mongodb_uri=None, redis_url=None, data_dir=data, in_memory=True) as storage,
        portal_process() as url,
    ):
        if not args.skip_one:
            await part_one(storage, url, args.repeat)
        if args.users > 0:
            await part_two(storage, url, args.users, args.browsers)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--system",
        choices=("refportal", "indico", "profile", "legacy"),
        default="refportal",
        help="the booking system (indico: part 1 on a real Indico, no part 2; profile: the "
        "profile adapter on the reference portal next to the hand-written one; legacy: the "
        "profile adapter on the legacy-style site)",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="runs per measurement in part 1 (1-3; profile, legacy: any)",
    )
    parser.add_argument("--users", type=int, default=8, help="users in part 2 (0: skip it)")
    parser.add_argument(
        "--browsers",
        type=int,
        default=0,
        help="part 2: per-booking browsers alive at once (0: all)",
    )
    parser.add_argument("--skip-one", action="store_true", help="run part 2 only")
    arguments = parser.parse_args()
    if arguments.system not in ("profile", "legacy") and not 1 <= arguments.repeat <= 3:
        parser.error("--repeat is 1, 2 or 3 (part 1 books two 2-hour slots a repetition)")
    asyncio.run(main(arguments))
