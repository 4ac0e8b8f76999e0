"""``profiles/refportal.yaml`` as the loader tests edit it: one mistake put in, and the
line of the edited text the error must name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adapters.profile.loader import ProfileInvalid, parse_site_profile

__all__ = ["FILE", "REFPORTAL", "ROOT", "TEXT", "bad", "edited", "line_of", "refused"]

ROOT = Path(__file__).resolve().parents[3]
REFPORTAL = ROOT / "profiles" / "refportal.yaml"
TEXT = REFPORTAL.read_text(encoding="utf-8")
FILE = "profiles/mysite.yaml"


def edited(old: str, new: str) -> str:
    """refportal.yaml with ``old`` (found exactly once) replaced by ``new``."""
    assert TEXT.count(old) == 1, f"{old!r} is not in refportal.yaml exactly once"
    return TEXT.replace(old, new)


def line_of(text: str, start: str | tuple[str, str]) -> int:
    """The number of the one line of ``text`` that starts with ``start``; for a pair
    (part, start), the first such line in the part that starts a line with ``part``."""
    lines = text.splitlines()
    if isinstance(start, tuple):
        part, start = start
        after = line_of(text, part)
        return next(n for n, line in enumerate(lines, 1) if n > after and line.startswith(start))
    found = [n for n, line in enumerate(lines, 1) if line.startswith(start)]
    assert len(found) == 1, f"{start!r} starts {len(found)} lines, not one"
    return found[0]


def refused(text: str) -> ProfileInvalid:
    with pytest.raises(ProfileInvalid) as caught:
        parse_site_profile(text, FILE)
    return caught.value


def bad(name: str, text: str, line: str | tuple[str, str], *words: str) -> Any:  # a pytest.param
    """One bad profile: the error names the line starting with ``line`` and ``words``."""
    return pytest.param(text, line, words, id=name)
