"""``IndicoHarness``: the contract's view of a real Indico from the outside.

Someone else's bookings go through Indico's own Python API (as ``other``); what got
booked is read from Indico's PostgreSQL; an expired session is Indico's session store
(redis, ``flask-session/*`` keys in the cache database) emptied; an outage is Indico's
database refusing connections, so every request fails inside Indico with a 500, as
when its PostgreSQL is down (stopping the cluster itself would orphan the restarted
postgres, which must die with the test process).
"""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, datetime, time, timedelta

from adapters.indico import IndicoSystem
from core.browser.retry import RetryPolicy
from core.site.models import Room
from scenarios.booking.port import BookingSystem
from tests.adapters.contract import SiteBooking
from tests.support.indico_server import IndicoServer

__all__ = ["FAST", "IndicoHarness"]

FAST = RetryPolicy(attempts=4, base_delay=0.1, max_delay=0.5)
_LIVE = ("pending", "accepted")
# Delete every key of Indico's session store (ScopedCache 'flask-session'), nothing else.
_FLUSH_SESSIONS = (
    "local n = 0 for _, k in ipairs(redis.call('KEYS', ARGV[1])) do"
    " redis.call('DEL', k) n = n + 1 end return n"
)


class IndicoHarness:
    building = "7"  # rooms 701–706 on floor 7
    start = time(18, 0)
    end = time(20, 0)

    def __init__(self, server: IndicoServer) -> None:
        self.server = server
        self.system: BookingSystem = IndicoSystem(server.base_url, retry=FAST)
        self.username = server.club.username
        self.password = server.club.password
        self.day = server.today() + timedelta(days=5)  # no seeded booking that day
        # Bookings with a higher id are this harness's: the server is shared, and other
        # contracts on it book with the same purposes.
        self.since = max((b.id for b in server.bookings()), default=0)

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None:
        await asyncio.to_thread(
            self.server.add_booking,
            int(room.id),
            datetime.combine(day, start),
            datetime.combine(day, end),
            user="other",
        )

    async def site_bookings(self, purpose: str) -> list[SiteBooking]:
        rooms = {r.id: r.number for r in await asyncio.to_thread(self.server.rooms)}
        club = self.server.club.id
        return [
            SiteBooking(
                room=rooms[b.room_id],
                day=b.start.date(),
                start=b.start.time(),
                end=b.end.time(),
                purpose=b.reason,
                live=b.state in _LIVE,
            )
            for b in await asyncio.to_thread(self.server.bookings)
            if b.reason == purpose
            and club in (b.booked_for_id, b.created_by_id)
            and b.id > self.since
        ]

    async def expire_sessions(self) -> None:
        url = self.server.stack.redis_url + "/1"  # REDIS_CACHE_URL (indico.conf.in)
        argv = ["redis-cli", "-u", url, "EVAL", _FLUSH_SESSIONS, "0", "*flask-session*"]
        out = await asyncio.to_thread(subprocess.run, argv, capture_output=True, text=True)
        assert out.returncode == 0 and int(out.stdout.strip() or 0) > 0, out.stdout + out.stderr

    def _postgres(self, *sql: str) -> None:
        stack = self.server.stack
        argv = [str(stack.psql_bin), "-h", "127.0.0.1", "-p", str(stack.pg_port), "-U"]
        argv += ["postgres", "-d", "postgres", "-X", "-q", "-v", "ON_ERROR_STOP=1"]
        for statement in sql:
            argv += ["-c", statement]
        subprocess.run(argv, check=True, capture_output=True)

    @asynccontextmanager
    async def outage(self) -> AsyncIterator[None]:
        await asyncio.to_thread(
            self._postgres,
            "ALTER DATABASE indico ALLOW_CONNECTIONS false",
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = 'indico' AND pid <> pg_backend_pid()",
        )
        try:
            yield
        finally:
            await asyncio.to_thread(self._postgres, "ALTER DATABASE indico ALLOW_CONNECTIONS true")
