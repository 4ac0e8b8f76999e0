"""Healing a profile: when an element's first locator finds nothing and a later
candidate finds exactly one element — or, all of them finding nothing, the element an
LLM picked from the page (``core.brain.ElementPicker``) is exactly one — and the step it
was found in then passes its own success check (the booking's number read, the list
read, the login taken…), that candidate is moved first in the profile, or the picked
element written in as a new first candidate, as a new version (``ProfileHistory``). A
step that fails writes nothing: an element that was the wrong one is never kept, and
neither is one whose step sent a change where its part may not (``Finder.step_passed``):
the step's own check says nothing of what else a press did.

Only the candidates' lines move or are added: the file's comments and layout stay."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import structlog
from playwright.async_api import Page

from adapters.profile.finding import Finder, StepHeals
from adapters.profile.history import ProfileHistory
from adapters.profile.loader import ProfileInvalid, parse_site_profile
from adapters.profile.parts import Locator

__all__ = ["Healing", "insert_candidate", "promote_candidates"]

log = structlog.get_logger("clubman.portal")
T = TypeVar("T")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _flow_items(line: str, opening: int) -> tuple[int, list[str]] | None:
    """The items of the flow list whose ``[`` is at ``opening`` in ``line`` and the index
    of its ``]``, split at the commas outside braces, brackets and quotes; None when the
    list does not close on this line."""
    items, depth, quote, start = [], 0, "", opening + 1
    for at in range(opening + 1, len(line)):
        char = line[at]
        if quote:
            if char == quote and line[at - 1] != "\\":
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "{[":
            depth += 1
        elif char in "}]" and depth:
            depth -= 1
        elif char == "]":
            items.append(line[start:at].strip())
            return at, [item for item in items if item]
        elif char == "," and not depth:
            items.append(line[start:at].strip())
            start = at + 1
    return None


def _promote_in_flow(line: str, index: int) -> str | None:
    """``line``'s flow list (``[{…}, {…}]``) with its item ``index`` moved first, the rest
    of the line as it was; None when it is not one such list on the line."""
    opening = line.find("[")
    found = _flow_items(line, opening) if opening >= 0 else None
    if found is None or index >= len(found[1]):
        return None
    closing, items = found
    items.insert(0, items.pop(index))
    return line[: opening + 1] + ", ".join(items) + line[closing:]


def promote_candidates(text: str, stood_in: dict[str, int]) -> tuple[str, set[str]]:
    """``text`` with the candidate at each ``path``'s ``index`` moved first: the lines of
    the candidates swapped (or, in a list written on one line, ``[{…}, {…}]``, its items),
    nothing else touched (comments, quotes, layout); and the paths so written."""
    lines = text.splitlines(keepends=True)
    written: set[str] = set()
    where = parse_site_profile(text, "profile").lines
    for path, index in stood_in.items():
        starts: list[int] = []
        while f"{path}.{len(starts)}" in where:
            starts.append(where[f"{path}.{len(starts)}"] - 1)
        if starts and len(set(starts)) == 1 and (flowed := _promote_in_flow(
            lines[starts[0]], index
        )) is not None:  # fmt: skip
            lines[starts[0]] = flowed
            written.add(path)
            continue
        dash = lines[starts[0]].find("-") if starts else -1
        one_per_line = len(set(starts)) == len(starts) > index
        if not one_per_line or any(lines[at].find("-") != dash for at in starts):
            log.warning("profile.heal_not_written", path=path, why="a list this cannot rewrite")
            continue
        end = starts[-1] + 1  # the last candidate runs on while its lines are indented more
        while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > dash):
            end += 1
        while not lines[end - 1].strip():  # blank lines after it are the next part's
            end -= 1
        blocks = [lines[a:b] for a, b in zip(starts, [*starts[1:], end], strict=True)]
        blocks.insert(0, blocks.pop(index))
        lines[starts[0] : end] = [line for block in blocks for line in block]
        written.add(path)
    return "".join(lines), written


def _at(profile: Any, path: str) -> Any:
    for part in path.split("."):
        profile = profile[int(part)] if part.isdigit() else getattr(profile, part)
    return profile


def _written(way: Locator) -> list[tuple[str, str]]:
    """The locator's keys as the profile writes them (``exact`` only when not the default)."""
    keys = way.model_dump(exclude_defaults=True).items()
    return [(k, "false" if k == "exact" else json.dumps(v, ensure_ascii=False)) for k, v in keys]


def insert_candidate(text: str, path: str, way: Locator) -> str | None:
    """``text`` with ``way`` written in as the first candidate of the Find at ``path``,
    in the list's own style (a list on one line gets ``{…}, `` after its ``[``); None
    when it cannot be written so that the file reads back with it first."""
    lines = text.splitlines(keepends=True)
    first = parse_site_profile(text, "profile").lines.get(f"{path}.0")
    if first is None:
        return None
    at = first - 1
    line = lines[at]
    keys = _written(way)
    flow = line.find("[{")
    if flow >= 0:
        item = "{" + ", ".join(f"{k}: {v}" for k, v in keys) + "}, "
        lines[at] = line[: flow + 1] + item + line[flow + 1 :]
    else:
        dash = line.find("-")
        if dash < 0 or line[:dash].strip():
            return None
        block = [" " * dash + "- " + f"{keys[0][0]}: {keys[0][1]}\n"]
        block += [" " * (dash + 2) + f"{k}: {v}\n" for k, v in keys[1:]]
        lines[at:at] = block
    healed = "".join(lines)
    try:
        written = _at(parse_site_profile(healed, "profile").profile, f"{path}.0")
    except (ProfileInvalid, AttributeError, IndexError, KeyError, ValueError):
        return None
    return healed if written == way else None


class Healing:
    """Promotes the candidates that stood in for a step that passed; with no history
    (a profile not read from a file) only says so in the log."""

    def __init__(
        self,
        history: ProfileHistory | None,
        *,
        written: Callable[[str], None] | None = None,
    ) -> None:
        self._history = history
        self._written = written  # told each new version's text (the system reloads it)

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
        except BaseException as exc:
            finder.step_failed()
            await finder.end_step(exc)  # a request the guard stopped is the news
            raise
        await finder.end_step()
        self.passed(finder.step_passed(), step=what, run=run)
        return result

    def passed(self, heals: StepHeals, *, step: str, run: str = "") -> None:
        if not heals:
            return
        said = [
            (path, f"{path}: кандидат {index + 1} стал первым")
            for path, index in heals.promoted.items()
        ] + [
            (path, f"{path}: новый первый кандидат {way.describe()} (выбран LLM)")
            for path, way in heals.picked.items()
        ]
        changes = tuple(change for _, change in said)
        if self._history is None:
            log.info("profile.healed", step=step, changes=changes, written=())
            return
        text = self._history.current()
        healed, kept = promote_candidates(text, heals.promoted)
        for path, way in heals.picked.items():
            inserted = insert_candidate(healed, path, way)
            if inserted is None:
                log.warning("profile.heal_not_written", path=path, why="not written back")
                continue
            healed = inserted
            kept.add(path)
        # A version names only what it changed (a heal that could not be written is not).
        written = tuple(change for path, change in said if path in kept)
        log.info("profile.healed", step=step, changes=changes, written=written)
        if healed != text and written:
            self._history.write(healed, made_by=f"исправлен: {step}", run=run, changes=written)
            if self._written is not None:
                self._written(healed)
