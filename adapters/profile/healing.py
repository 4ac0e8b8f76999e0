"""Healing a profile without an LLM: when an element's first locator finds nothing and a
later candidate finds exactly one element, and the step it was found in then passes its
own success check (the booking's number read, the list read, the login taken…), that
candidate is moved first in the profile, as a new version (``ProfileHistory``). A step
that fails writes nothing: a candidate that found the wrong element is never promoted.

Only the candidates' lines move: the file's comments and layout stay as written."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import structlog
from playwright.async_api import Page

from adapters.profile.finding import Finder
from adapters.profile.history import ProfileHistory
from adapters.profile.loader import parse_site_profile

__all__ = ["Healing", "promote_candidates"]

log = structlog.get_logger("clubman.portal")
T = TypeVar("T")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def promote_candidates(text: str, stood_in: dict[str, int]) -> str:
    """``text`` with the candidate at each ``path``'s ``index`` moved first: the lines of
    the candidates swapped, nothing else touched (comments, quotes, layout). A list
    written on one line (``[{…}, {…}]``) is left as it is."""
    lines = text.splitlines(keepends=True)
    where = parse_site_profile(text, "profile").lines
    for path, index in stood_in.items():
        starts: list[int] = []
        while f"{path}.{len(starts)}" in where:
            starts.append(where[f"{path}.{len(starts)}"] - 1)
        dash = lines[starts[0]].find("-") if starts else -1
        one_per_line = len(set(starts)) == len(starts) > index
        if not one_per_line or any(lines[at].find("-") != dash for at in starts):
            log.warning("profile.heal_not_written", path=path, why="the list is on one line")
            continue
        end = starts[-1] + 1  # the last candidate runs on while its lines are indented more
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > dash):
            end += 1
        while not lines[end - 1].strip():  # blank lines after it are the next part's
            end -= 1
        blocks = [lines[a:b] for a, b in zip(starts, [*starts[1:], end], strict=True)]
        blocks.insert(0, blocks.pop(index))
        lines[starts[0] : end] = [line for block in blocks for line in block]
    return "".join(lines)


class Healing:
    """Promotes the candidates that stood in for a step that passed; with no history
    (a profile not read from a file) only says so in the log."""

    def __init__(self, history: ProfileHistory | None) -> None:
        self._history = history

    async def step(
        self,
        what: str,
        finder: Finder,
        page: Callable[[], Awaitable[Page]],
        action: Callable[[Page], Awaitable[T]],
        *,
        run: str = "",
    ) -> T:
        """``action`` as one step: the candidates that stood in for a first one in it are
        promoted once it passed, forgotten if it failed."""
        finder.begin_step()
        try:
            result = await action(await page())
        except BaseException:
            finder.step_failed()
            raise
        self.passed(finder.step_passed(), step=what, run=run)
        return result

    def passed(self, stood_in: dict[str, int], *, step: str, run: str = "") -> None:
        if not stood_in:
            return
        changes = tuple(
            f"{path}: кандидат {index + 1} стал первым" for path, index in stood_in.items()
        )
        log.info("profile.healed", step=step, changes=changes, written=self._history is not None)
        if self._history is None:
            return
        text = self._history.current()
        healed = promote_candidates(text, stood_in)
        if healed != text:
            self._history.write(healed, made_by=f"исправлен: {step}", run=run, changes=changes)
