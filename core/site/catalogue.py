"""``Catalogues``: the booking system's current catalogue, for everything that reads it
(NLU, slot checks, buttons, alternatives, the scheduler).

Read from the site with the club's account at start-up and then once a day, merged
with the profile, and kept in the cache so that a restart while the site is down still
knows its buildings. A failed refresh keeps the catalogue it had. When there is none
(the site down at the first start, no club account), the product starts with an empty
catalogue, tries again every minute, and learns it from the first run's own session.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from datetime import timedelta
from types import TracebackType
from typing import Protocol

import structlog
from pydantic import ValidationError

from core.clock import Clock, SystemClock
from core.errors import ClubError, ConfigError
from core.nlu.places import Places
from core.site.models import Catalogue
from core.site.profile import Profile

__all__ = ["CatalogueCache", "Catalogues"]

log = structlog.get_logger("clubman.catalogue")

_KEEP_SECONDS = 30 * 24 * 3600  # a cached catalogue outlives a month-long site outage
_RETRY_UNREAD = timedelta(minutes=1)  # while no catalogue was ever read


class CatalogueCache(Protocol):
    async def get(self, key: str) -> bytes | None: ...

    async def set(self, key: str, value: bytes, ttl_seconds: int) -> None: ...


class Catalogues:
    def __init__(
        self,
        *,
        read: Callable[[], Awaitable[Catalogue]],
        cache: CatalogueCache,
        key: str,
        profile: Profile,
        clock: Clock,
        refresh_every: timedelta = timedelta(days=1),
    ) -> None:
        self._read = read
        self._cache = cache
        self._key = f"catalogue:{key}"
        self._profile = profile
        self._clock = clock
        self._every = refresh_every
        self._current: Catalogue | None = None
        self._task: asyncio.Task[None] | None = None
        self._fixed = False  # never refreshed
        self._places: tuple[Catalogue, Places] | None = None  # built once per catalogue

    @classmethod
    def fixed(cls, catalogue: Catalogue) -> Catalogues:
        """A catalogue that is never read from a site (tests, and tools with no browser)."""

        async def read() -> Catalogue:
            return catalogue

        found = cls(read=read, cache=_NoCache(), key="", profile=Profile(), clock=SystemClock())
        found._current = catalogue
        found._fixed = True
        return found

    @property
    def current(self) -> Catalogue:
        if self._current is None:
            raise ConfigError("the booking system's catalogue has not been read yet")
        return self._current

    @property
    def places(self) -> Places:
        """The NLU's gazetteer of the current catalogue's buildings."""
        catalogue = self.current
        if self._places is None or self._places[0] is not catalogue:
            self._places = (catalogue, Places.from_catalogue(catalogue))
        return self._places[1]

    async def __aenter__(self) -> Catalogues:
        if self._fixed:
            return self
        if self._current is None:
            try:
                await self.load()
            except ClubError as exc:
                log.warning("catalogue.unread", error=exc.message)
                self._current = Catalogue(system=self._key)  # nothing known yet
        self._task = asyncio.create_task(self._refresh_loop(), name="catalogue-refresh")
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def load(self) -> Catalogue:
        """The cached catalogue if it is fresh, else one read from the site (the cached
        one, however old, when the site cannot be read)."""
        cached = await self.cached()
        if cached is not None and not self._stale(cached):
            self._current = cached
            return cached
        try:
            return await self.refresh()
        except ClubError:
            if cached is None:
                raise
            log.warning("catalogue.stale_kept", read_at=str(cached.read_at))
            self._current = cached
            return cached

    @property
    def known(self) -> bool:
        """Whether any catalogue was read (an unread one names no building)."""
        return self._current is not None and bool(self._current.buildings)

    async def refresh(self) -> Catalogue:
        return await self.learn(await self._read())

    async def learn(self, read: Catalogue) -> Catalogue:
        """Take ``read`` (as the site lists it) as the current catalogue, with the profile."""
        catalogue = self._profile.apply(read).model_copy(update={"read_at": self._clock.now()})
        self._current = catalogue
        await self._cache.set(self._key, catalogue.model_dump_json().encode(), _KEEP_SECONDS)
        log.info("catalogue.read", buildings=len(catalogue.buildings), rooms=len(catalogue.rooms))
        return catalogue

    def _stale(self, catalogue: Catalogue) -> bool:
        return catalogue.read_at is None or self._clock.now() - catalogue.read_at >= self._every

    async def cached(self) -> Catalogue | None:
        """The catalogue last cached, however old, without asking the site; None if none."""
        raw = await self._cache.get(self._key)
        if raw is None:
            return None
        try:
            return Catalogue.model_validate_json(raw)
        except ValidationError:
            return None  # written by an older version: read the site again

    async def _refresh_loop(self) -> None:
        while True:
            wait = self._every if self.known else _RETRY_UNREAD
            await asyncio.sleep(wait.total_seconds())
            try:
                await self.refresh()
            except ClubError as exc:
                log.warning("catalogue.refresh_failed", error=exc.message)


class _NoCache:
    async def get(self, key: str) -> bytes | None:
        return None

    async def set(self, key: str, value: bytes, ttl_seconds: int) -> None:
        return None
