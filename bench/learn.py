"""Teaching the bot a site, timed: a scripted operator shows ``clubman learn`` the site
once over CDP (as ``tests/support/learning*.py`` play it), and the profile drafted from
the demonstration then books one room on the live site, from a fresh browser (its
login included) — the first replayed booking.

Printed per site: the teaching's wall time (the ``clubman learn`` process from start to
exit, with the operator's own clicks), the prompts answered, the first replayed
booking's time, and ``clubman site check``'s on the drafted profile (every part: login,
«my bookings», the catalogue, a test booking found and cancelled).

    python -m bench.learn [--site NAME]...
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time as clock
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.check import check_site
from core.browser import BrowserPool
from portal.legacy.server import running_legacy
from portal.server import running_portal
from tests.adapters.refportal.helpers import active_bookings
from tests.sites.mrbs import running_mrbs
from tests.support.indico_server import running_indico_server
from tests.support.learning import Demonstration, operators_chromium
from tests.support.learning_indico import demonstrate_indico
from tests.support.learning_legacy import demonstrate_legacy
from tests.support.learning_mrbs import demonstrate_mrbs
from tests.support.learning_refportal import demonstrate_refportal

__all__ = ["main"]


@dataclass(frozen=True)
class Running:
    """A site up: its address, the club's account on it, and its operator's show."""

    url: str
    username: str
    password: str
    show: Callable[[str, Path, date], Awaitable[Demonstration]]  # chromium, work dir, day


@dataclass(frozen=True)
class Site:
    running: Callable[[], AbstractAsyncContextManager[Running]]
    building: str  # where the replayed booking is made


def _next_weekday(weekday: int) -> date:
    today = date.today()
    return today + timedelta(days=(weekday - today.weekday()) % 7 or 7)


@asynccontextmanager
async def _refportal() -> AsyncIterator[Running]:
    async with running_portal(test_api=True) as portal:

        async def show(chromium: str, work: Path, day: date) -> Demonstration:
            taken = {
                b["room_number"]
                for b in await active_bookings(portal.url, date=day.isoformat())
                if b["start"] < "19:00" and b["end"] > "18:00"
            }
            room = next(str(n) for n in range(201, 211) if str(n) not in taken)
            return await demonstrate_refportal(portal.url, chromium, work, room=room, day=day)

        yield Running(portal.url, "club", "club-demo", show)


@asynccontextmanager
async def _legacy() -> AsyncIterator[Running]:
    async with running_legacy(seed=1, test_api=True) as legacy:

        async def show(chromium: str, work: Path, day: date) -> Demonstration:
            return await demonstrate_legacy(legacy.url, chromium, work, day=day)

        yield Running(legacy.url, "club", "club-demo", show)


@asynccontextmanager
async def _indico() -> AsyncIterator[Running]:
    with running_indico_server() as server:  # ~40 s to start, not counted
        club = server.club

        async def show(chromium: str, work: Path, day: date) -> Demonstration:
            # Another member's booking that day: a busy bar for the operator to show.
            other = server.room("7/7-702").id
            server.add_booking(
                other, datetime.combine(day, time(12)), datetime.combine(day, time(13))
            )
            return await demonstrate_indico(
                server.base_url, chromium, work, day=day, username=club.username,
                password=club.password,
            )  # fmt: skip

        yield Running(server.base_url, club.username, club.password, show)


@asynccontextmanager
async def _mrbs() -> AsyncIterator[Running]:
    with running_mrbs() as server:  # ~4 s to start, not counted
        club = server.club

        async def show(chromium: str, work: Path, day: date) -> Demonstration:
            return await demonstrate_mrbs(server, chromium, work, day=day)

        yield Running(server.base_url, club.username, club.password, show)


SITES: dict[str, Site] = {
    "refportal": Site(_refportal, "main"),
    "legacy": Site(_legacy, "1"),
    "indico": Site(_indico, "7"),
    "mrbs": Site(_mrbs, "1"),
}


async def _replay(up: Running, site: Site, shown: Demonstration, day: date) -> tuple[float, float]:
    """Seconds for the first booking by the drafted profile — its login, the day read,
    the booking — of a room free 10:00–11:00 (cancelled after), and for the site check
    of the drafted profile from a fresh session."""
    drafted = (shown.out / f"{shown.recording.name}.yaml").read_text(encoding="utf-8")
    system = ProfileSystem(up.url, parse_site_profile(drafted, "learned.yaml"))
    async with BrowserPool(max_contexts=1) as pool:
        await pool.browser()  # Chromium's own start is not the profile's
        async with pool.context() as context:
            session = system.open_session(context, username=up.username, password=up.password)
            started = clock.perf_counter()
            with tempfile.TemporaryDirectory(prefix="bench-learn-shots-") as shots:
                report = await check_site(
                    session, context, username=up.username, today=date.today(), shots=Path(shots)
                )
            checked = clock.perf_counter() - started
            await session.close()
        assert report.ok, report
        return await _booked(system, up, site, day, pool), checked


async def _booked(
    system: ProfileSystem, up: Running, site: Site, day: date, pool: BrowserPool
) -> float:
    """Seconds for the first booking (see ``_replay``), its own session's login included."""
    async with pool.context() as context:
        session = system.open_session(context, username=up.username, password=up.password)
        started = clock.perf_counter()
        free = (await session.availability(site.building, day)).free_rooms(time(10), time(11))
        made = await session.book(
            room=free[0], day=day, start=time(10), end=time(11), purpose="bench.learn"
        )
        took = clock.perf_counter() - started
        await session.cancel(made.number)
        await session.close()
    return took


async def _one(name: str, site: Site, chromium: str) -> str:
    day = _next_weekday(4)
    with tempfile.TemporaryDirectory(prefix=f"bench-learn-{name}-") as folder:
        async with site.running() as up:
            work = Path(folder)
            started = clock.perf_counter()
            shown = await up.show(chromium, work, day)
            teaching = clock.perf_counter() - started
            replayed, checked = await _replay(up, site, shown, day)
    return f"{name:<10} {teaching:9.1f} s {shown.answers:8d} {replayed:14.2f} s {checked:12.1f} s"


async def main(names: list[str]) -> None:
    print("site       teaching  prompts  first booking (login + book)  site check")
    for name in names:
        # A Chromium of the operator's own per site: a site shown before leaves its windows.
        async with operators_chromium() as chromium:
            print(await _one(name, SITES[name], chromium), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--site", action="append", choices=sorted(SITES))
    args = parser.parse_args()
    asyncio.run(main(args.site or sorted(SITES)))
