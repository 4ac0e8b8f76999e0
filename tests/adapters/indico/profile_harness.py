"""The contract's ``SiteHarness`` for Indico driven through its web pages by the profile
adapter with ``profiles/indico.yaml``; everything else as ``IndicoHarness``."""

from __future__ import annotations

import asyncio
from datetime import date, datetime, time, timedelta
from pathlib import Path

from playwright.async_api import BrowserContext, Request

from adapters.profile import ProfileSystem, load_site_profile, parse_site_profile
from adapters.profile.session import ProfileSession
from core.browser.retry import RetryPolicy
from core.site.models import Room
from tests.adapters.indico.harness import IndicoHarness
from tests.support.indico_server import IndicoServer

__all__ = ["PROFILE", "IndicoPagesHarness", "pages_asked", "profile_session"]

PROFILE = Path(__file__).parents[3] / "profiles" / "indico.yaml"
_FAST = RetryPolicy(attempts=4, base_delay=0.1, max_delay=0.5)


class IndicoPagesHarness(IndicoHarness):
    def __init__(self, server: IndicoServer) -> None:
        super().__init__(server)
        self.day = server.today() + timedelta(days=6)  # not the API contract's day
        self.system = ProfileSystem(server.base_url, load_site_profile(PROFILE), retry=_FAST)

    async def book_as_someone_else(self, room: Room, day: date, start: time, end: time) -> None:
        # The profile's room id is the room's full name («7/7-701»), as its pages show it.
        site_room = await asyncio.to_thread(self.server.room, room.id)
        await asyncio.to_thread(
            self.server.add_booking,
            site_room.id,
            datetime.combine(day, start),
            datetime.combine(day, end),
            user="other",
        )


def profile_session(
    server: IndicoServer, context: BrowserContext, replace: tuple[str, str] | None = None
) -> ProfileSession:
    """A session of the club's on ``profiles/indico.yaml``, with one text of it replaced
    (``replace``: the text, found once, and what it becomes), retrying briefly."""
    text = PROFILE.read_text(encoding="utf-8")
    if replace is not None:
        assert text.count(replace[0]) == 1, replace[0]
        text = text.replace(*replace)
    loaded = parse_site_profile(text, "indico.yaml")
    retry = RetryPolicy(attempts=4, base_delay=0.1, max_delay=0.5)
    return ProfileSystem(server.base_url, loaded, retry=retry).open_session(
        context, username=server.club.username, password=server.club.password
    )


def pages_asked(context: BrowserContext) -> list[str]:
    """What the browser's pages ask the site for from now on, as «METHOD path?query» (the
    request API's calls are not among them)."""
    seen: list[str] = []

    def note(request: Request) -> None:
        seen.append(f"{request.method} {request.url.split('/', 3)[-1]}")

    context.on("request", note)
    return seen
