"""A profile's versions: every change the bot makes to a profile file (a heal) is a new
version, kept beside it in ``NAME.history/`` with when, which step and which run made
it; ``clubman site history`` shows them with their diffs, ``clubman site revert`` makes
an old one current again (as a new version: the history only grows).

Version 1 is the file as it was before the first change.

Beside the versions are the LLM's picks a step rejected (``rejected.json``, read and
written by ``core.brain.RejectedPicks``), each held for the version of its part."""

from __future__ import annotations

import difflib
import hashlib
import os
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from core.brain.rejected import RejectedPicks

__all__ = ["ProfileHistory", "Version"]


class Version(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    number: int
    at: datetime
    made_by: str  # «исходный», «правка вручную», «исправлен: бронирование», «возврат к версии 2»
    run: str = ""  # the run that made it, when known
    changes: tuple[str, ...] = ()  # what changed, in words


class ProfileHistory:
    """The versions of the profile at ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._dir = path.with_name(path.stem + ".history")
        self._log = self._dir / "versions.jsonl"

    def rejected_picks(self, profile: BaseModel) -> RejectedPicks:
        """The LLM's picks that a step rejected, of ``profile`` (the one read from
        ``path``), kept beside its versions; each for the version of its part (``book``
        for ``book.submit``: healed or edited, the question is new). A profile not read
        from a file keeps them for the session."""

        def version(place: str) -> str:
            part = getattr(profile, place.partition(".")[0], profile)
            blob = part.model_dump_json() if isinstance(part, BaseModel) else repr(part)
            return hashlib.sha256(blob.encode()).hexdigest()[:16]

        kept = self._dir / "rejected.json" if self.path.is_file() else None
        return RejectedPicks(kept, version=version)

    def current(self) -> str:
        return self.path.read_text(encoding="utf-8")

    def versions(self) -> list[Version]:
        if not self._log.exists():
            return []
        lines = self._log.read_text(encoding="utf-8").splitlines()
        return [Version.model_validate_json(line) for line in lines if line.strip()]

    def text(self, number: int) -> str:
        return (self._dir / f"{number}.yaml").read_text(encoding="utf-8")

    def diff(self, number: int) -> str:
        """What version ``number`` changed from the one before it."""
        if number <= 1:
            return ""
        before, after = self.text(number - 1), self.text(number)
        return "".join(
            difflib.unified_diff(
                before.splitlines(keepends=True),
                after.splitlines(keepends=True),
                f"{self.path.name} v{number - 1}",
                f"{self.path.name} v{number}",
            )
        )

    def write(
        self, text: str, *, made_by: str, run: str = "", changes: tuple[str, ...] = ()
    ) -> Version:
        """``text`` as the profile's new current version."""
        known = self.versions()
        if not known:  # the file as it was, before the bot changed it
            known = [
                self._keep(1, self.current(), Version(number=1, at=_now(), made_by="исходный"))
            ]
        elif (edited := self.current()) != self.text(known[-1].number):
            # Changed by hand since the last version: a version of its own, so that going
            # back past the next one does not drop the hand's edit with it.
            number = known[-1].number + 1
            known.append(self._keep(number, edited, Version(
                number=number, at=_now(), made_by="правка вручную"
            )))  # fmt: skip
        version = Version(
            number=known[-1].number + 1, at=_now(), made_by=made_by, run=run, changes=changes
        )
        self._keep(version.number, text, version)
        _replace(self.path, text)
        return version

    def revert(self, number: int) -> Version:
        return self.write(self.text(number), made_by=f"возврат к версии {number}")

    def _keep(self, number: int, text: str, version: Version) -> Version:
        self._dir.mkdir(exist_ok=True)
        _replace(self._dir / f"{number}.yaml", text)
        with self._log.open("a", encoding="utf-8") as log:
            log.write(version.model_dump_json() + "\n")
        return version


def _now() -> datetime:
    return datetime.now(UTC).replace(microsecond=0)


def _replace(path: Path, text: str) -> None:
    """Written whole or not at all: a reader never sees half a profile."""
    partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)
