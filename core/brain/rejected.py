"""``RejectedPicks``: elements the LLM picked (``ElementPicker``) whose step then failed its
own check, per place in a site profile, kept in a file across sessions and restarts.

Kept for one session only, a rejected pick came back in the next one from the LLM
response cache (an hour): the same prompt, the same answer, pressed again with no call.
Kept here, each rejection goes into the next ``ElementWanted.wrong``: the prompt differs,
so the cache key does (a new call), and the picker's validator refuses the element
whatever a cache says. A rejection holds for the version of the place it was made against
(``version``: e.g. a hash of the profile's ``book`` for ``book.submit``): once the place is
healed or edited, its candidates are new and so is the question. Where the file lives and
what a version is are the adapter's to say (a profile keeps them beside its versions:
``adapters.profile.history``); core names no adapter's layout.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import structlog

__all__ = ["MAX_PER_PLACE", "RejectedPicks"]

log = structlog.get_logger("clubman.brain")

MAX_PER_PLACE = 20  # more wrong picks than that for one element is a site to look at


class RejectedPicks(dict[str, list[str]]):
    """Place in the profile (``book.submit``) → its rejected picks, as ``ElementWanted.wrong``
    describes them, those of the place's current ``version`` read from ``file``. A dict,
    so a session may add to it for itself (``setdefault``); ``keep`` adds one and writes
    it to ``file`` (None: kept for the session only)."""

    def __init__(self, file: Path | None, *, version: Callable[[str], str]) -> None:
        super().__init__()
        self._file = file
        self._version = version
        for place, entry in self._read().items():
            if entry.get("version") == version(place):
                self[place] = [str(w) for w in entry.get("wrong", [])]

    def keep(self, place: str, wrong: str) -> None:
        """``wrong`` rejected at ``place``, for this session and the ones after it."""
        picks = self.setdefault(place, [])
        if wrong not in picks:
            picks.append(wrong)
        if self._file is None:
            return
        stored = self._read()
        version = self._version(place)
        entry = stored.get(place, {})
        known = [str(w) for w in entry.get("wrong", [])] if entry.get("version") == version else []
        known = [w for w in known if w != wrong][-(MAX_PER_PLACE - 1) :] + [wrong]
        stored[place] = {"version": version, "wrong": known}
        try:
            self._file.parent.mkdir(parents=True, exist_ok=True)
            spare = self._file.with_name(f".{self._file.name}.{os.getpid()}")
            spare.write_text(json.dumps(stored, ensure_ascii=False, indent=1), encoding="utf-8")
            spare.replace(self._file)  # whole or not at all, whoever reads it meanwhile
        except OSError as exc:  # the session still knows it; only a later one may ask again
            log.warning("brain.rejected_pick_not_kept", place=place, error=str(exc))

    def _read(self) -> dict[str, dict[str, Any]]:
        if self._file is None or not self._file.is_file():
            return {}
        try:
            data = json.loads(self._file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:  # a broken file costs a new question, no more
            log.warning("brain.rejected_picks_unreadable", file=str(self._file), error=str(exc))
            return {}
        if not isinstance(data, dict):
            return {}
        return {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, dict)}
