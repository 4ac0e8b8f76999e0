"""``bench/booking.py --system legacy``: one room of building 1 booked for one hour on the
legacy-style site (``portal/legacy``, started in-process), four ways, each doing the same
job — read the day's grid, take the first room free for the hour, book it, find the
booking in «мои брони»:

1. the profile adapter with ``profiles/legacy.yaml`` on its fast path: the day's grid
   read from its page's HTML (the page runs no script: ``adapters/profile/gridhtml.py``),
   the form's own POST through the logged-in context's request API (the CSRF token read
   from the form's HTML once, then kept while the session's cookies are the same), and
   «мои брони» confirmed from the HTML its search form leads
   to (``formhtml``, ``listhtml``; the address remembered per account after the first
   time): ``availability`` + ``book`` + ``my_bookings``;
2. the same adapter on the page path (the same file without ``book.request``: the form
   is opened, filled and submitted in the page);
3. a bare Playwright script with no framework: the schedule page (building and date
   chosen in its form, «Show»), the room's reservation form (the grid's link), Дата, С,
   До and Comment filled, «Сохранить», then «Мои брони» searched with an empty query
   («Найти») and the new number looked for in the list;
4. plain HTTP (aiohttp, one cookie jar): the schedule page (free rooms read from its
   links), the reservation form (its ``_csrf``; once a session: the site's token is the
   session's, and HTTP keeps it as the adapter does), its POST (the redirect to the
   booking's page followed), ``/my?q=`` and the number looked for.

Interleaved per round, each way on its own day (2-5 days ahead: the site takes at most
14) and each round on its own hour, so none competes for a room. Every way keeps its
saved session: round 0 logs in (the browser ways meet the login page, HTTP posts the
login form) and is left out of the medians. A new browser context per round is opened
with the previous round's cookies (``storage_state``) and a new adapter session, as a
booking run of the bot does; opening the context is not timed. Each booking is
cancelled once made (through the site's own cancel form, from a second HTTP session;
not timed), so that «мои брони» lists just that booking whenever it is read: all four
ways book as «club», and the adapter reads the room of every booking listed from the
booking's own page, so a growing list would slow the profile lines round by round.

Reading the numbers. Page loads (documents the browser fetched, a POST and the page its
redirect leads to counted apart) per booking in a saved session, as measured:
- fast path, 0: requests through the context's request API instead: the day's grid, the
  POST and /my?q= (the list; the address the search form on /my led to, remembered from
  the account's first booking, round 0, as the form's token is), and a round trip to the
  browser for the context's cookies (is the kept token still the session's);
- page path, 6: /schedule?bld=…&day=…, /reserve?…, its POST and /reservation/N where it
  leads, /my and /my?q= (the empty search the list needs);
- script, 7: /schedule, the grid, /reserve?…, the POST, /reservation/N, /my, /my?q=;
- HTTP: 3 requests and the POST's redirect; no page parsed, laid out or scripted.
«grid» includes opening a page in the new context (a renderer process, 0.1-0.3 s here),
which the page path and the script pay once per booking. page path/script is what the
adapter adds: its checks (the grid's caption date, every cell read). fast path/HTTP is
what the browser's request API and reading the HTML as a browser would cost: about 4 ms
a request through Playwright's driver (a round trip to the browser for the context's
cookies among them) against 0.7 ms for aiohttp to a site in the same process, three of
them; and about 11 ms to read the 50 KB grid (that nothing on the page can change it,
every cell's text, spans and probes, the day made of them), twice that when this 2-core
machine is busy, where the HTTP way runs one regex over it. The site runs in the bench's
own process, as the tests run it.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from pathlib import Path
from time import perf_counter
from typing import Any
from urllib.parse import urlsplit

import aiohttp
from playwright.async_api import BrowserContext, Page, Request

from adapters.profile import ProfileSystem, load_site_profile, parse_site_profile
from core.browser import BrowserPool
from portal.legacy.server import running_legacy
from tests.support.drift import page_path_only

__all__ = ["part_legacy"]

PROFILE = Path(__file__).parents[1] / "profiles" / "legacy.yaml"
ACCOUNT = ("club", "club-demo")
BUILDING = "1"  # «Главный корпус», as in tests/adapters/profile/legacy_harness.py
PURPOSE = "bench"
WAYS = ("fast", "page", "script", "http")
LABELS = {
    "fast": "profile, fast path",
    "page": "profile, page path",
    "script": "Playwright script",
    "http": "plain HTTP",
}
_CSRF = re.compile(r'name="_csrf" value="([^"]*)"')
_FREE = re.compile(r"/reserve\?room=(\d+)&(?:amp;)?t=(\d+)&")  # a free cell's link
_BOOKED = re.compile(r"/reservation/(\d+)$")
_LISTED = re.compile(r'<td><a href="/reservation/(\d+)">')


@dataclass
class Run:
    """One booking: seconds per step (the grid, the booking, «мои брони»; round 0's login
    is in its first step), the booking's number, and what went wrong ("" if nothing)."""

    steps: list[float] = field(default_factory=list)
    number: str = ""
    wrong: str = ""
    _last: float = field(default_factory=perf_counter)

    def lap(self) -> None:
        now = perf_counter()
        self.steps.append(now - self._last)
        self._last = now

    @property
    def seconds(self) -> float:
        return sum(self.steps)


def _dmy(day: date) -> str:
    return f"{day:%d.%m.%Y}"


def _seconds(moment: time) -> int:
    return moment.hour * 3600 + moment.minute * 60


def _when(way: int, n: int) -> tuple[date, time, time]:
    """Way ``way``'s day (2-5 days ahead) and round ``n``'s hour (08-09 … 21-22, again
    from 08 after 14 rounds: each booking is cancelled once made)."""
    hour = 8 + n % 14
    return date.today() + timedelta(days=2 + way), time(hour), time(hour + 1)


def _first_free(links: list[tuple[int, int]], start: int, end: int) -> int | None:
    """The first room (in the grid's order) whose every 30-minute row in start-end has a
    free link; ``links`` are (room id, start in seconds) of the grid's links."""
    free = set(links)
    rooms = dict.fromkeys(room for room, _ in links)
    return next((r for r in rooms if all((r, t) in free for t in range(start, end, 1800))), None)


def _free_links(text: str) -> list[tuple[int, int]]:
    """(room id, start in seconds) of every free cell's link in ``text``."""
    return [(int(m[1]), int(m[2])) for m in _FREE.finditer(text)]


async def profile_booking(
    system: ProfileSystem, context: BrowserContext, day: date, start: time, end: time
) -> Run:
    """The adapter's ``availability`` + ``book`` + ``my_bookings`` in a new session."""
    session = system.open_session(context, username=ACCOUNT[0], password=ACCOUNT[1])
    try:
        run = Run()
        grid = await session.availability(BUILDING, day)
        run.lap()
        free = grid.free_rooms(start, end)
        if not free:
            run.wrong = f"no room free on {day} {start}-{end}"
            return run
        made = await session.book(room=free[0], day=day, start=start, end=end, purpose=PURPOSE)
        run.number = made.number
        run.lap()
        listed = {booking.number for booking in await session.my_bookings()}
        run.lap()
    finally:
        await session.close()
    if run.number not in listed:
        run.wrong = f"{run.number} not listed"
    return run


async def _log_in_page(page: Page, url: str) -> None:
    await page.goto(f"{url}/auth/login")
    await page.get_by_label("Логин", exact=True).fill(ACCOUNT[0])
    await page.get_by_label("Password", exact=True).fill(ACCOUNT[1])
    async with page.expect_navigation():  # to the schedule, the site's home
        await page.get_by_role("button", name="Войти").click()


async def script_booking(
    context: BrowserContext, url: str, day: date, start: time, end: time, *, login: bool
) -> Run:
    """The same job as a bare Playwright script: the site's pages, no checks."""
    run = Run()
    page = await context.new_page()
    try:
        if login:
            await _log_in_page(page, url)
        else:
            await page.goto(f"{url}/schedule")
        await page.get_by_label("Корпус", exact=True).select_option(BUILDING)
        await page.get_by_label("Дата", exact=True).fill(_dmy(day))
        async with page.expect_navigation():
            await page.get_by_role("button", name="Show").click()
        hrefs: list[str] = await page.locator("table.grid a[href]").evaluate_all(
            "(links) => links.map((a) => a.getAttribute('href'))"
        )
        room = _first_free(_free_links(" ".join(hrefs)), _seconds(start), _seconds(end))
        run.lap()
        if room is None:
            run.wrong = f"no room free on {day} {start}-{end}"
            return run
        await page.goto(f"{url}/reserve?room={room}&t={_seconds(start)}&day={_dmy(day)}")
        await page.get_by_label("Дата", exact=True).fill(_dmy(day))
        await page.get_by_label("С", exact=True).select_option(str(_seconds(start)))
        await page.get_by_label("До", exact=True).select_option(str(_seconds(end)))
        await page.get_by_label("Comment", exact=True).fill(PURPOSE)
        async with page.expect_navigation():
            await page.get_by_role("button", name="Сохранить").click()
        booked = _BOOKED.search(urlsplit(page.url).path)
        run.lap()
        await page.goto(f"{url}/my")
        async with page.expect_navigation():
            await page.get_by_role("button", name="Найти").click()
        listed = await page.locator("table.list tr td:first-child").all_inner_texts()
        run.lap()
    finally:
        await page.close()
    if booked is None:
        run.wrong = f"the form led to {page.url}"
    else:
        run.number = booked[1]
        if run.number not in {text.strip() for text in listed}:
            run.wrong = f"{run.number} not listed"
    return run


async def _http_log_in(http: aiohttp.ClientSession, url: str) -> None:
    form = await (await http.get(f"{url}/auth/login")).text()
    token = _CSRF.search(form)
    data = {"j_username": ACCOUNT[0], "j_password": ACCOUNT[1], "back": "/my"}
    async with http.post(f"{url}/auth/login", data=data | {"_csrf": token[1] if token else ""}):
        pass


@dataclass
class HttpSession:
    """Plain HTTP's cookie jar, and the form's token once read: the site's token is the
    session's (on every form), so a client that knows it reads it once, as the adapter
    keeps its own."""

    http: aiohttp.ClientSession
    token: str = ""


async def http_booking(
    way: HttpSession, url: str, day: date, start: time, end: time, *, login: bool
) -> Run:
    """The same job with plain HTTP requests on one cookie jar (logged in once)."""
    run, http = Run(), way.http
    if login:
        await _http_log_in(http, url)
        way.token = ""
    query = {"bld": BUILDING, "day": _dmy(day)}
    grid = await (await http.get(f"{url}/schedule", params=query)).text()
    room = _first_free(_free_links(grid), _seconds(start), _seconds(end))
    run.lap()
    if room is None:
        run.wrong = f"no room free on {day} {start}-{end}"
        return run
    fields = {"room": str(room), "t": str(_seconds(start)), "day": _dmy(day)}
    if not way.token:
        form = await (await http.get(f"{url}/reserve", params=fields)).text()
        token = _CSRF.search(form)
        way.token = token[1] if token else ""
    data = {
        "_csrf": way.token,
        "room": str(room),
        "day": _dmy(day),
        "time_from": str(_seconds(start)),
        "time_to": str(_seconds(end)),
        "comment": PURPOSE,
        "people": "",
    }
    async with http.post(f"{url}/reserve", data=data) as answer:  # 303 → /reservation/N
        await answer.read()
        booked = _BOOKED.search(answer.url.path)
        where = f"{answer.status} at {answer.url.path}"
    run.lap()
    mine = await (await http.get(f"{url}/my", params={"q": ""})).text()
    run.lap()
    if booked is None:
        run.wrong = f"the form answered {where}"
    else:
        run.number = booked[1]
        if run.number not in _LISTED.findall(mine):
            run.wrong = f"{run.number} not listed"
    return run


async def _cancel(http: aiohttp.ClientSession, url: str, number: str) -> None:
    """Cancel through the site's own form (its token is the session's: on every form)."""
    mine = await (await http.get(f"{url}/my", params={"q": ""})).text()
    token = _CSRF.search(mine)
    async with http.post(
        f"{url}/reservation/{number}/cancel",
        data={"_csrf": token[1] if token else ""},
        allow_redirects=False,
    ) as answer:
        if answer.status != 303:
            raise RuntimeError(f"could not cancel booking {number}: HTTP {answer.status}")


def _jar() -> aiohttp.CookieJar:
    # unsafe=True: the site is on an IP address, whose cookies aiohttp drops by default.
    return aiohttp.CookieJar(unsafe=True)


def _collect(paths: list[str]) -> Callable[[Request], None]:
    def collect(request: Request) -> None:
        if request.resource_type == "document":
            paths.append(urlsplit(request.url).path)

    return collect


async def part_legacy(repeat: int) -> None:
    if repeat < 1:
        raise SystemExit("--repeat must be at least 1")
    runs: dict[str, list[Run]] = {way: [] for way in WAYS}
    page_loads: dict[str, list[int]] = {way: [] for way in WAYS if way != "http"}
    fast_taken = 0  # bookings the fast path made (the form never opened in the page)
    async with (
        running_legacy(seed=1, test_api=True) as site,
        BrowserPool() as pool,
        aiohttp.ClientSession(cookie_jar=_jar()) as http,
        aiohttp.ClientSession(cookie_jar=_jar()) as cleanup,
    ):
        url, plain = site.url, HttpSession(http)
        await pool.browser()  # the one launch is not the work
        await _http_log_in(cleanup, url)
        # The default retry policy, as the bot runs it (nothing fails here to retry).
        fast = ProfileSystem(url, load_site_profile(PROFILE))
        page_text = page_path_only(PROFILE.read_text(encoding="utf-8"))
        page = ProfileSystem(url, parse_site_profile(page_text, "page.yaml"))
        states: dict[str, dict[str, Any] | None] = dict.fromkeys(page_loads)
        for n in range(repeat + 1):
            for index, way in enumerate(WAYS):
                day, start, end = _when(index, n)
                if way == "http":
                    run = await http_booking(plain, url, day, start, end, login=n == 0)
                else:
                    loads: list[str] = []  # the paths of the documents the pages loaded
                    async with pool.context(storage_state=states[way]) as context:
                        context.on("request", _collect(loads))
                        if way == "script":
                            run = await script_booking(context, url, day, start, end, login=n == 0)
                        else:
                            system = fast if way == "fast" else page
                            run = await profile_booking(system, context, day, start, end)
                        states[way] = dict(await context.storage_state())
                    page_loads[way].append(len(loads))
                    if way == "fast" and run.number and "/reserve" not in loads:
                        fast_taken += 1
                runs[way].append(run)
                if run.number:  # «мои брони» lists one booking for every way and round
                    await _cancel(cleanup, url, run.number)
    _report(repeat, runs, page_loads, fast_taken)


def _median_steps(runs: list[Run]) -> str:
    names = ("grid", "book", "my")
    return "  ".join(
        f"{name} {1000 * statistics.median(run.steps[i] for run in runs):6.1f}"
        for i, name in enumerate(names)
        if all(len(run.steps) > i for run in runs)
    )


def _report(
    repeat: int, runs: dict[str, list[Run]], page_loads: dict[str, list[int]], fast_taken: int
) -> None:
    """Round 0 (logging in) apart; medians of the rounds after it."""
    med = {way: statistics.median(run.seconds for run in done[1:]) for way, done in runs.items()}
    print(f"legacy site: one room of building 1 for an hour, saved session (median of {repeat})")
    for way in WAYS:
        shown = ", ".join(f"{run.seconds:.3f}" for run in runs[way][1:])
        print(f"   {LABELS[way]:25s} {med[way]:7.3f} s   (runs: {shown})")
    print("   steps (median ms; «grid» includes opening the page), page loads per booking")
    for way in WAYS:
        loads = page_loads.get(way)
        pages = f"   {statistics.median(loads[1:]):.0f} page loads" if loads else ""
        print(f"     {LABELS[way]:23s} {_median_steps(runs[way][1:])}{pages}")
    first = ", ".join(f"{way} {runs[way][0].seconds:.2f}" for way in WAYS)
    print(f"   round 0, logging in       {first} s (left out)")
    print(f"   ratio fast path/HTTP       {med['fast'] / med['http']:6.1f}x  (goal <= 3x)")
    print(f"   ratio page path/script     {med['page'] / med['script']:6.2f}x  (goal <= 1.1x)")
    print(f"   ratio fast path/page path  {med['fast'] / med['page']:6.2f}x")
    print(
        f"   fast path taken            {fast_taken} of {repeat + 1} bookings "
        "(else the form was opened in the page)"
    )
    for way in WAYS:
        for n, run in enumerate(runs[way]):
            if run.wrong:
                print(f"   ! round {n}, {LABELS[way]}: {run.wrong}")
