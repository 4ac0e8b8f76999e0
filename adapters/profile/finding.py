"""A profile's ``Find`` on a page: its candidates tried in order, the first that matches
anything wins; none matching is a ``ProfileMismatch`` naming the profile's line."""

from __future__ import annotations

import structlog
from playwright.async_api import Locator as PwLocator
from playwright.async_api import Page

from adapters.profile.errors import ProfileMismatch
from adapters.profile.loader import LoadedProfile
from adapters.profile.parts import Find, Locator
from core.browser.summary import summarize

__all__ = ["Finder", "candidate"]

log = structlog.get_logger("clubman.portal")


def candidate(scope: Page | PwLocator, way: Locator) -> PwLocator:
    """The Playwright locator for one candidate, inside ``scope``."""
    exact = way.exact
    if way.role is not None:
        return scope.get_by_role(way.role, name=way.name, exact=exact)  # type: ignore[arg-type]
    if way.label is not None:
        return scope.get_by_label(way.label, exact=exact)
    if way.text is not None:
        return scope.get_by_text(way.text, exact=exact)
    if way.css is not None:
        return scope.locator(way.css)
    return scope.locator(f"xpath={way.xpath}")


class Finder:
    """Finds a profile's elements for one session, naming the profile's line on failure.

    The first time a ``Find`` is used, its candidates are counted in order and the one
    that matched is remembered; later uses go straight to it (a round trip fewer per
    element, as a hand-written page object does). An element missing then is the
    browser's timeout, a transient failure, as in the hand-written adapters."""

    def __init__(self, loaded: LoadedProfile) -> None:
        self._loaded = loaded
        self._matched: dict[int, int] = {}  # id of a Find → the candidate that matched
        # Finds whose first candidate found nothing and a later one exactly one element,
        # in the step under way: path → (id of the Find, the candidate).
        self._stood_in: dict[str, tuple[int, int]] = {}

    def begin_step(self) -> None:
        self._stood_in.clear()

    def step_passed(self) -> dict[str, int]:
        """The stand-ins of the step that just passed its check (path → candidate)."""
        passed = {path: index for path, (_, index) in self._stood_in.items()}
        self._stood_in.clear()
        return passed

    def step_failed(self) -> None:
        """Stand-ins of a failed step are tried afresh next time, not trusted."""
        for found, _ in self._stood_in.values():
            self._matched.pop(found, None)
        self._stood_in.clear()

    def any_of(self, scope: Page | PwLocator, find: Find) -> PwLocator:
        """All candidates as one locator (``or``): for waiting until one of them shows."""
        combined = candidate(scope, find[0])
        for way in find[1:]:
            combined = combined.or_(candidate(scope, way))
        return combined

    async def first(
        self, page: Page, find: Find, *, path: str, what: str, scope: PwLocator | None = None
    ) -> PwLocator:
        """The first candidate that matches something (its first match)."""
        known = self._matched.get(id(find))
        if known is not None:
            return candidate(scope or page, find[known]).first
        for index, way in enumerate(find):
            located = candidate(scope or page, way)
            count = await located.count()
            if count:
                self._matched[id(find)] = index
                if index and count == 1:
                    self._stood_in[path] = (id(find), index)
                return located.first
        raise await self.mismatch(page, find, path=path, what=what)

    async def maybe(self, scope: Page | PwLocator, find: Find) -> PwLocator | None:
        located = await self._matching(scope, find)
        return located.first if located is not None else None

    async def every(self, page: Page, find: Find, *, path: str, what: str) -> PwLocator:
        """Every match of the first candidate that matches something."""
        located = await self._matching(page, find)
        if located is None:
            raise await self.mismatch(page, find, path=path, what=what)
        return located

    async def _matching(self, scope: Page | PwLocator, find: Find) -> PwLocator | None:
        for way in find:
            located = candidate(scope, way)
            if await located.count():
                return located
        return None

    async def mismatch(self, page: Page, find: Find, *, path: str, what: str) -> ProfileMismatch:
        # The line of the first candidate tried (the others follow it in the file).
        where, tried = self._loaded.where(f"{path}.0"), " | ".join(w.describe() for w in find)
        log.warning("profile.mismatch", what=what, where=where, tried=tried, url=page.url)
        return ProfileMismatch(
            f"На странице нет {what}", where=where, tried=tried, summary=await summarize(page)
        )
