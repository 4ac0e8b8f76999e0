"""A profile's ``Find`` on a page: its candidates tried in order, the first that matches
anything wins; none matching is, with a ``Pick`` (an LLM), the element it names if that
is exactly one, else a ``ProfileMismatch`` naming the profile's line."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

import structlog
from playwright.async_api import Locator as PwLocator
from playwright.async_api import Page

from adapters.profile.errors import ProfileMismatch
from adapters.profile.loader import LoadedProfile
from adapters.profile.parts import Find, Locator
from core.brain.element import ElementWanted
from core.brain.rejected import RejectedPicks
from core.browser.summary import summarize

__all__ = ["Finder", "Pick", "StepHeals", "candidate"]

log = structlog.get_logger("clubman.portal")

# A reading script's answer as a list of one, or empty when nothing matched.
_IF_ANY = "(elements, arg) => elements.length ? [({script})(elements, arg)] : []"

# The element the page shows for what a Find wanted, as a new candidate; None: none is.
Pick = Callable[[Page, ElementWanted], Awaitable[Locator | None]]


@dataclass(frozen=True, slots=True)
class StepHeals:
    """What stood in for a Find's first candidate in a step that passed its check."""

    promoted: dict[str, int] = field(default_factory=dict)  # path → its later candidate
    picked: dict[str, Locator] = field(default_factory=dict)  # path → a new candidate

    def __bool__(self) -> bool:
        return bool(self.promoted or self.picked)


def _tried(find: Find) -> str:
    return " | ".join(way.describe() for way in find)


def _kind(find: Find) -> Literal["button", "link", "field", "control"]:
    first = find[0]
    if first.label is not None:
        return "field"
    if first.role == "button":
        return "button"
    return "link" if first.role == "link" else "control"


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

    def __init__(self, loaded: LoadedProfile, *, pick: Pick | None = None) -> None:
        self._loaded = loaded
        self._pick = pick
        self._matched: dict[int, int] = {}  # id of a Find → the candidate that matched
        self._picked: dict[int, Locator] = {}  # id of a Find → the element picked for it
        # Finds whose first candidate found nothing and a later one (or a picked element)
        # exactly one element, in the step under way: path → (id of the Find, which).
        self._stood_in: dict[str, tuple[int, int]] = {}
        self._picked_in: dict[str, tuple[int, Locator]] = {}
        # Picks whose step then failed, per path: told to the LLM when it is asked again
        # (so it is asked afresh, not answered the same from the response cache); kept
        # beside the profile's versions, so in later sessions too.
        self._wrong = RejectedPicks.of_profile(loaded.file, loaded.profile)

    def begin_step(self) -> None:
        self._stood_in.clear()
        self._picked_in.clear()

    def step_passed(self) -> StepHeals:
        """The stand-ins of the step that just passed its check."""
        passed = StepHeals(
            promoted={path: index for path, (_, index) in self._stood_in.items()},
            picked={path: way for path, (_, way) in self._picked_in.items()},
        )
        self.begin_step()
        return passed

    def step_failed(self) -> None:
        """Stand-ins of a failed step are tried afresh next time, not trusted."""
        for found, _ in self._stood_in.values():
            self._matched.pop(found, None)
        for path, (found, way) in self._picked_in.items():
            self._picked.pop(found, None)
            self._wrong.keep(path, way.describe())
        self.begin_step()

    def way(self, find: Find) -> Locator:
        """The candidate ``first`` would try first: the one that matched (or was picked)
        before, else the profile's first."""
        known = self._matched.get(id(find))
        if known is not None:
            return find[known]
        return self._picked.get(id(find), find[0])

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
        if (picked := self._picked.get(id(find))) is not None:
            return candidate(scope or page, picked).first
        found = await self._first_matching(scope or page, find, path=path)
        if found is not None:
            return found
        if self._pick is not None:
            wanted = ElementWanted(
                path=path,
                what=what,
                tried=_tried(find),
                kind=_kind(find),
                wrong=tuple(self._wrong.get(path, ())),
            )
            picked = await self._pick(page, wanted)
            if (
                picked is not None
                and await (located := candidate(scope or page, picked)).count() == 1
            ):
                self._picked[id(find)] = picked
                self._picked_in[path] = (id(find), picked)
                return located
        raise await self.mismatch(page, find, path=path, what=what)

    async def showing(self, page: Page, find: Find, *, path: str) -> bool:
        """Whether ``first`` would find ``find`` now, without picking; what it finds is
        remembered as ``first`` remembers it (``first`` then looks no more)."""
        if id(find) in self._matched or id(find) in self._picked:
            return await candidate(page, self.way(find)).count() > 0
        return await self._first_matching(page, find, path=path) is not None

    async def _first_matching(
        self, scope: Page | PwLocator, find: Find, *, path: str
    ) -> PwLocator | None:
        for index, way in enumerate(find):
            located = candidate(scope, way)
            count = await located.count()
            if count:
                self._matched[id(find)] = index
                if index and count == 1:
                    self._stood_in[path] = (id(find), index)
                return located.first
        return None

    async def maybe(self, scope: Page | PwLocator, find: Find) -> PwLocator | None:
        located = await self._matching(scope, find)
        return located.first if located is not None else None

    async def every(self, page: Page, find: Find, *, path: str, what: str) -> PwLocator:
        """Every match of the first candidate that matches something."""
        located = await self._matching(page, find)
        if located is None:
            raise await self.mismatch(page, find, path=path, what=what)
        return located

    async def read_every(
        self, page: Page, find: Find, script: str, arg: object = None, *, path: str, what: str
    ) -> Any:
        """``script`` (a function of the elements and ``arg``) run on every match of the
        first candidate that matches something: counted and read in one round trip."""
        for way in find:
            read = await candidate(page, way).evaluate_all(_IF_ANY.format(script=script), arg)
            if read:
                return read[0]
        raise await self.mismatch(page, find, path=path, what=what)

    async def _matching(self, scope: Page | PwLocator, find: Find) -> PwLocator | None:
        for way in find:
            located = candidate(scope, way)
            if await located.count():
                return located
        return None

    async def mismatch(self, page: Page, find: Find, *, path: str, what: str) -> ProfileMismatch:
        # The line of the first candidate tried (the others follow it in the file).
        where, tried = self._loaded.where(f"{path}.0"), _tried(find)
        log.warning("profile.mismatch", what=what, where=where, tried=tried, url=page.url)
        return ProfileMismatch(
            f"На странице нет {what}", where=where, tried=tried, summary=await summarize(page)
        )
