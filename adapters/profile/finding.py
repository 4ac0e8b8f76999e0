"""A profile's ``Find`` on a page: its candidates tried in order, the first that matches
anything wins; none matching is, with a ``Pick`` (an LLM), the element it names if that
is exactly one, else a ``ProfileMismatch`` naming the profile's line.

A control to press (``Finder.control``) is held to more: the element a candidate found
must be named as the step names it, and not delete or cancel outside cancelling
(``adapters.profile.pressing``); one that is not is the site changed — the next
candidate, the LLM's pick (held to the same), or ``ControlRenamed``. It is pressed with
the network guard letting changes through only to the addresses its part declares
(``may_change``), and a step whose page sent a change anywhere else heals nothing."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

import structlog
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator as PwLocator
from playwright.async_api import Page

from adapters.profile.errors import ControlRenamed, ProfileMismatch, SentElsewhere
from adapters.profile.history import ProfileHistory
from adapters.profile.loader import LoadedProfile
from adapters.profile.parts import Find, Locator
from adapters.profile.pressing import Refusal, refusal
from core.brain.element import ElementWanted
from core.browser.guard import NetworkGuard, same_endpoint
from core.browser.retry import Transient
from core.browser.summary import summarize

__all__ = ["Finder", "Pick", "StepGuard", "StepHeals", "candidate"]

log = structlog.get_logger("clubman.portal")

# A reading script's answer as a list of one, or empty when nothing matched.
_IF_ANY = "(elements, arg) => elements.length ? [({script})(elements, arg)] : []"

# The parts of a profile whose steps change the site (``may_change``'s keys).
_CHANGING = ("login", "book", "cancel")
# The element the page shows for what a Find wanted, as a new candidate; None: none is.
Pick = Callable[[Page, ElementWanted], Awaitable[Locator | None]]


@dataclass(frozen=True, slots=True)
class StepHeals:
    """What stood in for a Find's first candidate in a step that passed its check."""

    promoted: dict[str, int] = field(default_factory=dict)  # path → its later candidate
    picked: dict[str, Locator] = field(default_factory=dict)  # path → a new candidate

    def __bool__(self) -> bool:
        return bool(self.promoted or self.picked)


@dataclass(frozen=True, slots=True)
class StepGuard:
    """The session's network guard and the addresses each part of the profile may send a
    change to (absolute; none: the part declares none)."""

    network: NetworkGuard
    may_change: Callable[[str], tuple[str, ...]]


# How sites say they are down on a page of their own, answered as any page (HTTP 200):
# a language's words, not a site's («база данных не доступна» is MRBS's).
_DOWN = re.compile(
    r"баз\w* данных\W+(?:\w+\W+)?(?:не ?доступн|недоступн|не отвечает)"
    r"|(?:сайт|сервис|система)\w*\W+(?:\w+\W+)?(?:не ?доступн|недоступн)"
    r"|database\W+(?:\w+\W+){0,2}(?:not available|unavailable|error|connection failed)"
    r"|service (?:is )?(?:temporarily )?unavailable|under maintenance|на техническом обслуживании",
    re.IGNORECASE,
)


async def _says_down(page: Page) -> bool:
    """Whether the page says, in words, that the site is down."""
    try:
        text = await page.locator("body").inner_text(timeout=2000)
    except PlaywrightError:
        return False
    return _DOWN.search(text) is not None


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

    def __init__(
        self, loaded: LoadedProfile, *, pick: Pick | None = None, guard: StepGuard | None = None
    ) -> None:
        self._loaded = loaded
        self._pick = pick
        self._guard = guard
        self._sent_before = 0  # the changes the context had sent when the step began
        self._held: tuple[Page, str, str] | None = None  # the press the guard holds: where
        self._matched: dict[int, int] = {}  # id of a Find → the candidate that matched
        self._picked: dict[int, Locator] = {}  # id of a Find → the element picked for it
        # Finds whose first candidate found nothing and a later one (or a picked element)
        # exactly one element, in the step under way: path → (id of the Find, which).
        self._stood_in: dict[str, tuple[int, int]] = {}
        self._picked_in: dict[str, tuple[int, Locator]] = {}
        # Paths promoted by a step that passed in this session: the file now has their
        # stand-in first, so the same index again would move the old first back up.
        self._promoted: set[str] = set()
        # Picks whose step then failed, per path: told to the LLM when it is asked again
        # (so it is asked afresh, not answered the same from the response cache); kept
        # beside the profile's versions, so in later sessions too.
        self._wrong = ProfileHistory(Path(loaded.file)).rejected_picks(loaded.profile)

    def begin_step(self) -> None:
        self._stood_in.clear()
        self._picked_in.clear()
        if self._guard is not None:
            self._sent_before = len(self._guard.network.changes)

    def step_passed(self) -> StepHeals:
        """The stand-ins of the step that just passed its check; none when a change was
        sent meanwhile where their part may not send one (a check that passed then says
        nothing of what the stand-in did)."""
        passed = StepHeals(
            promoted={path: index for path, (_, index) in self._stood_in.items()},
            picked={path: way for path, (_, way) in self._picked_in.items()},
        )
        if passed and (elsewhere := self._sent_elsewhere([*passed.promoted, *passed.picked])):
            log.warning("profile.heal_dropped", sent=elsewhere, paths=sorted(passed.promoted))
            passed = StepHeals()
            self.step_failed()  # neither trusted next time
        self._promoted |= set(passed.promoted)
        self.begin_step()
        return passed

    def stood_in(self, path: str, found: object, index: int) -> None:
        """Candidate ``index`` of ``found`` (a Find, or a Pick's alternatives) stood in
        for its first at ``path`` in the step under way: promoted when the step passes
        (``step_passed``), once a session."""
        if index and path not in self._promoted:
            self._stood_in[path] = (id(found), index)

    def _sent_elsewhere(self, paths: list[str]) -> tuple[str, ...]:
        """The changes sent in this step to an address a part of ``paths`` does not
        declare. A part that may change the site but declares no address (a profile
        written before ``may_change``) is not held to any."""
        if self._guard is None:
            return ()
        sent = self._guard.network.changes[self._sent_before :]
        found: list[str] = []
        for part in {path.partition(".")[0] for path in paths}:
            declared = self._guard.may_change(part)
            if not declared and part in _CHANGING:
                continue
            found += [one for one in sent if not same_endpoint(one.partition(" ")[2], declared)]
        return tuple(dict.fromkeys(found))

    async def end_step(self, failure: BaseException | None = None) -> None:
        """Take off the guard a press put on; a step that failed after the guard stopped
        one of its requests is ``SentElsewhere`` (nothing was sent: not an unknown
        outcome, and not worth sending again)."""
        held, self._held = self._held, None
        if self._guard is None or held is None:
            return
        blocked = await self._guard.network.let_go()
        if not blocked:
            return
        page, path, what = held
        log.warning("profile.sent_elsewhere", path=path, blocked=blocked)
        if failure is not None:
            part = path.partition(".")[0]
            raise SentElsewhere(
                what, blocked=blocked, where=self._loaded.where(f"may_change.{part}"),
                summary=await summarize(page), where_part=f"may_change.{part}",
            ) from failure  # fmt: skip

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
        """All candidates (and an element picked for them) as one locator (``or``): only
        for waiting until one of them shows. Which one did is then found by ``first``,
        ``maybe`` or ``every`` at the Find's path, which records a later one as a stand-in:
        this locator itself uses none."""
        combined = candidate(scope, find[0])
        for way in find[1:]:
            combined = combined.or_(candidate(scope, way))
        if (picked := self._picked.get(id(find))) is not None:
            combined = combined.or_(candidate(scope, picked))
        return combined

    async def first(
        self, page: Page, find: Find, *, path: str, what: str, scope: PwLocator | None = None
    ) -> PwLocator:
        """The first candidate that matches something (its first match); none matching,
        the LLM's pick (``picked``), else ``ProfileMismatch``."""
        known = self._matched.get(id(find))
        if known is not None:
            return candidate(scope or page, find[known]).first
        if (picked := self._picked.get(id(find))) is not None:
            return candidate(scope or page, picked).first
        found = await self._first_matching(scope or page, find, path=path)
        if found is not None:
            return found
        if (chosen := await self.picked(page, find, path=path, what=what, scope=scope)) is not None:
            return chosen
        raise await self.mismatch(page, find, path=path, what=what)

    async def picked(
        self, page: Page, find: Find, *, path: str, what: str, scope: PwLocator | None = None
    ) -> PwLocator | None:
        """The element the LLM picks for ``find`` when it is exactly one, or None (no LLM,
        no pick). Only for an element whose step has its own success check that proves
        the result (a login taken, a booking's number read at its address or in the
        list, a list or a day that reads): a wrong pick fails that check, and nothing is
        kept (``step_failed``). Never for what may rightly be absent (``maybe``: a
        message, a «taken» marker), nor for a list (``every``: a pick names one element)."""
        if self._pick is None:
            return None
        wanted = ElementWanted(
            path=path,
            what=what,
            tried=_tried(find),
            kind=_kind(find),
            wrong=tuple(self._wrong.get(path, ())),
        )
        chosen = await self._pick(page, wanted)
        if chosen is None or await (located := candidate(scope or page, chosen)).count() != 1:
            return None
        self._picked[id(find)] = chosen
        self._picked_in[path] = (id(find), chosen)
        return located

    async def control(
        self, page: Page, find: Find, *, path: str, what: str, scope: PwLocator | None = None
    ) -> PwLocator:
        """The control to press for ``find``: as ``first`` finds it, but only an element
        the step names so and that does not delete or cancel (outside cancelling: see
        ``adapters.profile.pressing``). One that is not is passed over as if it were not
        there: the next candidate, else the LLM's pick (held to the same), else
        ``ControlRenamed``. Returned with the guard on for the part's addresses."""
        where = scope or page
        named = [candidate(where, way) for way in find if way.name or way.text or way.label]
        texts = [(" ".join(way.text.split()), way.exact) for way in find if way.text]
        cancels = path.startswith("cancel.")
        known, picked = self._matched.get(id(find)), self._picked.get(id(find))
        if known is not None or picked is not None:
            way = find[known] if known is not None else picked
            assert way is not None
            located = candidate(where, way).first
            ways = named if known is not None else [candidate(where, way)]
            if await located.count() and not await refusal(
                located, ways, texts if known is not None else [], cancels=cancels
            ):
                return await self._hold(page, located, path=path, what=what)
            self._matched.pop(id(find), None)  # gone or changed since: looked for afresh
            self._picked.pop(id(find), None)
        refused: list[Refusal] = []
        for index, way in enumerate(find):
            located = candidate(where, way)
            count = await located.count()
            if not count:
                continue
            if found := await refusal(located.first, named, texts, cancels=cancels):
                log.warning("profile.control_refused", path=path, way=way.describe(),
                            said=found.said, destructive=found.destructive)  # fmt: skip
                refused.append(found)
                continue
            self._matched[id(find)] = index
            self._stood_in.pop(path, None)  # what ``showing`` found first is not it
            if count == 1:
                self.stood_in(path, find, index)
            return await self._hold(page, located.first, path=path, what=what)
        if self._pick is not None:
            wanted = ElementWanted(
                path=path,
                what=what,
                tried=_tried(find),
                kind=_kind(find),
                wrong=tuple(self._wrong.get(path, ()))
                + tuple(f"«{r.said}» (не то, что ищем)" for r in refused),
            )
            chosen = await self._pick(page, wanted)
            if chosen is not None:
                located = candidate(where, chosen)
                if await located.count() == 1:
                    found = await refusal(located, [located], [], cancels=cancels)
                    if found is None:
                        self._picked[id(find)] = chosen
                        self._picked_in[path] = (id(find), chosen)
                        return await self._hold(page, located, path=path, what=what)
                    refused.append(found)
                    self._wrong.keep(path, chosen.describe())
        if not refused:
            raise await self.mismatch(page, find, path=path, what=what)
        raise await self._renamed(page, find, refused[0], path=path, what=what)

    async def _hold(self, page: Page, element: PwLocator, *, path: str, what: str) -> PwLocator:
        """``element``, the guard put on for the part's addresses (a part that declares
        none, as a profile written before ``may_change``, is not held)."""
        if self._guard is not None and (declared := self._guard.may_change(path.split(".")[0])):
            await self._guard.network.hold(may_change=declared)
            self._held = (page, path, what)
        return element

    async def _renamed(
        self, page: Page, find: Find, found: Refusal, *, path: str, what: str
    ) -> ControlRenamed:
        names = " или ".join(f"«{way.name or way.text or way.label}»" for way in find
                             if way.name or way.text or way.label)  # fmt: skip
        where, tried = self._loaded.where(f"{path}.0"), _tried(find)
        log.warning("profile.control_renamed", what=what, where=where, said=found.said,
                    destructive=found.destructive, url=page.url)  # fmt: skip
        return ControlRenamed(
            what, names=names, said=found.said, destructive=found.destructive,
            where=where, tried=tried, summary=await summarize(page), path=path,
        )  # fmt: skip

    async def showing(self, page: Page, find: Find, *, path: str) -> bool:
        """Whether ``first`` would find ``find`` now, without picking; what it finds is
        remembered as ``first`` remembers it (``first`` then looks no more)."""
        if id(find) in self._matched or id(find) in self._picked:
            if await candidate(page, self.way(find)).count():
                return True
            # What matched before is not what shows now (a list's rows, then its «nothing
            # found»): looked for afresh.
            self._matched.pop(id(find), None)
            self._picked.pop(id(find), None)
        return await self._first_matching(page, find, path=path) is not None

    async def _first_matching(
        self, scope: Page | PwLocator, find: Find, *, path: str
    ) -> PwLocator | None:
        for index, way in enumerate(find):
            located = candidate(scope, way)
            count = await located.count()
            if count:
                self._matched[id(find)] = index
                if count == 1:
                    self.stood_in(path, find, index)
                return located.first
        return None

    async def maybe(self, scope: Page | PwLocator, find: Find, *, path: str) -> PwLocator | None:
        """The first match of the first candidate that matches something, or None; a later
        candidate that matched stands in as in ``first`` (promoted when the step passes).
        No LLM pick: what this looks for may rightly be absent (a message, a «taken»
        marker, the login form), and its absence is what the step reads."""
        return await self._first_matching(scope, find, path=path)

    async def every_shown(self, page: Page, find: Find, *, path: str) -> PwLocator | None:
        """Every match of the first candidate that matches something (a later one stands
        in: promoted when the step passes, as ``first``'s), or None."""
        for index, way in enumerate(find):
            located = candidate(page, way)
            if await located.count():
                self.stood_in(path, find, index)
                return located
        return None

    async def every(self, page: Page, find: Find, *, path: str, what: str) -> PwLocator:
        """``every_shown``, or ``ProfileMismatch`` (no LLM pick: it names one element, and
        a list is many)."""
        found = await self.every_shown(page, find, path=path)
        if found is None:
            raise await self.mismatch(page, find, path=path, what=what)
        return found

    async def read_every(
        self, page: Page, find: Find, script: str, arg: object = None, *, path: str, what: str
    ) -> Any:
        """``script`` (a function of the elements and ``arg``) run on every match of the
        first candidate that matches something: counted and read in one round trip."""
        for index, way in enumerate(find):
            read = await candidate(page, way).evaluate_all(_IF_ANY.format(script=script), arg)
            if read:
                self.stood_in(path, find, index)  # promoted when the step passes
                return read[0]
        raise await self.mismatch(page, find, path=path, what=what)

    async def mismatch(
        self, page: Page, find: Find, *, path: str, what: str, tried: str = "", said: str = ""
    ) -> ProfileMismatch:
        """What the profile expected, not on the page: the site changed — unless the page
        says the site is down, in the words sites use for it (``Transient``: tried again,
        then «сайт не отвечает»), where the profile names no ``unavailable`` page.
        ``tried``: what was looked for at ``path`` when it is not ``find`` (a value's
        column in the table ``find`` found); ``said``: the whole sentence, where «На
        странице нет …» would not say it."""
        if self._loaded.profile.unavailable is None and await _says_down(page):
            raise Transient(f"the page says the site is down at {urlsplit(page.url).path}")
        # The line of the first candidate tried (the others follow it in the file).
        where, tried = self._loaded.where(f"{path}.0"), tried or _tried(find)
        log.warning("profile.mismatch", what=what, where=where, tried=tried, url=page.url)
        return ProfileMismatch(
            said or f"На странице нет {what}", where=where, tried=tried,
            summary=await summarize(page), path=path,
        )  # fmt: skip
