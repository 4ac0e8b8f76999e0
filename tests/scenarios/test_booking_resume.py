"""The booking scenario's own guarantees, through the real core on an in-memory site
(issue 31): both adapters happen to protect themselves, so these hold only if the
scenario keeps them.

* The booking step looks in «Мои брони» before it books: a site whose ``book()`` books
  anew every time (as a profile-driven site may) still ends with one booking per room
  when a run killed mid-booking is resumed. A run that has sent no booking yet skips
  that look (nothing carries its mark): its first look is after booking.
* A request with no end time is asked «До скольки?» before any step runs.

No browser: the in-memory site needs no pages, so the pool hands out an empty context."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import date, time
from typing import Any, cast

import pytest
from playwright.async_api import BrowserContext
from pydantic import SecretStr

from app.engine import build_core
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.output import Done, Failed, Output, Question
from core.settings import load_settings
from core.site import Catalogue, OnRetry, Room, Rules
from core.site.catalogue import Catalogues
from core.store import RunStatus
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.models import Booking
from storage import Storage
from tests.support.catalogues import FOREIGN_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.memory_site import MemorySession, MemorySite
from tests.support.sinks import CollectingSink

CATALOGUE: Catalogue = FOREIGN_CATALOGUE.model_copy(
    update={
        "rooms": tuple(
            Room(id=f"lib-{n}", building="lib", number=str(n), floor=1, capacity=12)
            for n in (101, 102, 103)
        ),
        "rules": Rules(opens=time(9), closes=time(18), step_minutes=15, horizon_days=7),
    }
)
TUESDAY = date(2026, 11, 24)  # «завтра» on the test clock
TWO_ROOMS = "забронируй 2 аудитории в библиотеке завтра с 10 до 12"


class BooksAnew(MemorySession):
    """Every ``book()`` is a new booking, even of the very request it made before; with
    ``hang_at`` bookings made, the next one hangs as a process killed mid-step would."""

    def __init__(self, site: ForgetfulSite) -> None:
        super().__init__(site)
        self._forgetful = site

    async def book(
        self,
        *,
        room: Room,
        day: date,
        start: time,
        end: time,
        purpose: str,
        attendees: int | None = None,
    ) -> Booking:
        site = self._forgetful
        if site.hang_at is not None and len(site.bookings) >= site.hang_at:
            if site.lands_first:  # the create reached the site; its answer never came back
                site.record(room, day, start, end, purpose)
            site.hung.set()
            await asyncio.Event().wait()  # never set: the core is closed around it
        return site.record(room, day, start, end, purpose)

    async def my_bookings(self) -> list[Booking]:
        self._forgetful.looks.append(len(self._forgetful.bookings))
        listed = await super().my_bookings()
        return [b for b in listed if b.room not in self._forgetful.unlisted]


class ForgetfulSite(MemorySite):
    """A site whose booking form does not know a request it has seen (not idempotent)."""

    def __init__(self, catalogue: Catalogue) -> None:
        super().__init__(catalogue)
        self.hang_at: int | None = None
        self.hung = asyncio.Event()
        self.looks: list[int] = []  # the bookings made by then, at each look at «Мои брони»
        self.lands_first = False  # the hung booking is made on the site before it hangs
        self.unlisted: set[str] = set()  # rooms «Мои брони» does not show (a short list)

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> BooksAnew:
        return BooksAnew(self)


class NoPages:
    """A browser context with no pages: all the in-memory site needs (and a failed step's
    screenshot finds nothing to take)."""

    pages: list[object] = []


class NoBrowser(BrowserPool):
    """The pool without Chromium."""

    @asynccontextmanager
    async def context(
        self,
        *,
        storage_state: dict[str, Any] | None = None,
        on_queued: Callable[[], Any] | None = None,
    ) -> AsyncIterator[BrowserContext]:
        yield cast(BrowserContext, NoPages())


@pytest.fixture
def site() -> ForgetfulSite:
    return ForgetfulSite(CATALOGUE)


@pytest.fixture
def sink() -> CollectingSink:
    return CollectingSink()


Core = Callable[[], AbstractAsyncContextManager[ChatDispatcher]]


@pytest.fixture
def core(storage: Storage, sink: CollectingSink, clock: ManualClock, site: ForgetfulSite) -> Core:
    """Opens the product's core on the test's storage; each opening is a new process's."""

    @asynccontextmanager
    async def opened() -> AsyncIterator[ChatDispatcher]:
        catalogues = Catalogues.fixed(CATALOGUE)
        work = PortalWork(
            pool=NoBrowser(),
            system=site,
            account=PortalAccount(username="club", password=SecretStr("club-demo")),
            vault=CredentialVault(storage, None),
        )
        scenarios = product_scenarios(storage, work, catalogues=catalogues)
        async with build_core(
            load_settings(), storage, sink, scenarios=scenarios, catalogues=catalogues, clock=clock
        ) as manager:
            yield manager

    return opened


async def settled(sink: CollectingSink, *, after: int = 0) -> Output:
    """The first answer, question or failure from output ``after`` on."""
    waits = [
        asyncio.ensure_future(sink.wait_for(kind, timeout=30, after=after))
        for kind in (Done, Failed, Question)
    ]
    finished, pending = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    for waiting in pending:
        waiting.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return finished.pop().result()


def cmd(text: str) -> Command:
    return Command(chat_id=100, user_id=100, text=text)


def live_rooms(site: MemorySite) -> Counter[str]:
    return Counter(b.room for b in site.bookings if b.is_live)


async def test_a_run_killed_mid_booking_books_each_room_once_on_a_site_that_books_anew(
    core: Core, sink: CollectingSink, site: ForgetfulSite, storage: Storage
) -> None:
    """Killed after the first room was booked and before the step was recorded: the
    resumed step runs again from its start, and only its own look in «Мои брони» stops it
    booking the first room a second time."""
    site.hang_at = 1
    async with core() as manager:
        await manager.handle(cmd(TWO_ROOMS))
        await asyncio.wait_for(site.hung.wait(), 30)
    assert live_rooms(site) == Counter({"101": 1})
    (run,) = await storage.runs.with_status(RunStatus.RUNNING)
    assert run.done_steps() == {"login", "find"}  # «book» is run again on resume

    site.hang_at = None
    seen = len(sink.outputs)
    async with core():  # a new process: the run resumes
        outcome = await settled(sink, after=seen)
    assert isinstance(outcome, Done), outcome
    assert outcome.text == "Забронированы 101, 102 (Библиотека, вт 24.11, 10:00–12:00)"
    assert live_rooms(site) == Counter({"101": 1, "102": 1})
    assert {(b.day, b.start, b.end) for b in site.bookings} == {(TUESDAY, time(10), time(12))}
    assert site.looks == [1, 2]  # the resumed step looked before booking; then the check


async def test_a_resumed_run_never_resends_a_room_the_day_shows_held_and_the_list_hides(
    core: Core, sink: CollectingSink, site: ForgetfulSite, storage: Storage
) -> None:
    """Killed after the second room's create reached the site and before its answer, on a
    site whose «Мои брони» does not show that booking: the resumed step finds the first
    room's booking, and the second room held on the day — it may be the run's own, so it
    is not sent again, and the user is told what was booked and what to check."""
    site.hang_at, site.lands_first, site.unlisted = 1, True, {"102"}
    async with core() as manager:
        await manager.handle(cmd(TWO_ROOMS))
        await asyncio.wait_for(site.hung.wait(), 30)
    assert live_rooms(site) == Counter({"101": 1, "102": 1})

    site.hang_at = None
    seen = len(sink.outputs)
    async with core():  # a new process: the run resumes
        outcome = await settled(sink, after=seen)
    assert isinstance(outcome, Failed), outcome
    assert outcome.text == (
        "Забронированы: 101. Бронь 102 (Библиотека, вт 24.11, 10:00–12:00) отправлена на "
        "сайт, но сайт не показал, сделана ли она. Снова я её не отправляю, чтобы не "
        "забронировать дважды: проверьте «Мои брони» на сайте."
    )
    assert live_rooms(site) == Counter({"101": 1, "102": 1})  # nothing booked twice


async def test_a_fresh_run_first_looks_in_its_bookings_after_booking(
    core: Core, sink: CollectingSink, site: ForgetfulSite, storage: Storage
) -> None:
    """Nothing on the site carries a new run's mark before it sends its first booking, so
    neither the search for free rooms nor the booking step looks for its bookings: the
    one look is the check that they are listed. The mark that it may have sent is stored
    before it sends."""
    async with core() as manager:
        await manager.handle(cmd(TWO_ROOMS))
        outcome = await settled(sink)
    assert isinstance(outcome, Done), outcome
    assert live_rooms(site) == Counter({"101": 1, "102": 1})
    assert site.looks == [2]
    (run,) = await storage.runs.with_status(RunStatus.DONE)
    assert run.acted == ["book"]


async def test_a_request_without_an_end_is_asked_until_when(
    core: Core, sink: CollectingSink, site: ForgetfulSite
) -> None:
    """«с 10» and nothing more: the scenario asks for the end before it books anything,
    offering an hour, an hour and a half and two hours from the start."""
    async with core() as manager:
        await manager.handle(cmd("забронируй аудиторию в библиотеке завтра с 10"))
        question = await settled(sink)
        assert isinstance(question, Question), question
        assert question.text == "До скольки?"
        assert [o.label for o in question.options] == ["11:00", "11:30", "12:00"]
        assert site.bookings == []

        accepted = await manager.answer(
            Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, text="12:00")
        )
        assert accepted.accepted, accepted.note
        done = await settled(sink, after=sink.outputs.index(question) + 1)
    assert isinstance(done, Done), done
    assert done.text == "Забронирована 101 (Библиотека, вт 24.11, 10:00–12:00)"
    assert [(b.room, b.start, b.end) for b in site.bookings] == [("101", time(10), time(12))]
