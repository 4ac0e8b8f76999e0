"""The one check of a new event's title, whichever way it arrives (quoted in the command,
typed as an answer, read by an LLM): one line of visible text, at most 250 characters.

Nothing is changed silently: a title that does not pass is asked for again with the
reason, never cut, joined or cleaned (a control character once reached the site as a
raw «HTTP 400», a newline and titles of 4,004 characters were sent as they were).
"""

from __future__ import annotations

import unicodedata

from core.commands import Lang
from core.texts import tr
from scenarios.events.texts import EventTexts

__all__ = ["LONGEST_TITLE", "title_problem"]

LONGEST_TITLE = 250
# Line breaks of every kind, told apart from other control characters in the answer.
_LINE_BREAKS = frozenset("\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029")
# Bidirectional embeddings, overrides and isolates: they make a title read otherwise
# than it is stored ("Trojan Source"); format characters that join emoji stay allowed.
_BIDI = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _hidden(char: str) -> bool:
    return char in _BIDI or unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp")


def title_problem(title: str, lang: Lang) -> str | None:
    """Why ``title`` cannot be an event's title, in ``lang``; ``None`` when it can."""
    if not title.strip():
        return tr(EventTexts.NO_TITLE, lang)
    if any(char in _LINE_BREAKS for char in title):
        return tr(EventTexts.TITLE_LINES, lang)
    hidden = next((char for char in title if _hidden(char)), None)
    if hidden is not None:
        return tr(EventTexts.TITLE_CONTROL, lang, code=f"U+{ord(hidden):04X}")
    if len(title) > LONGEST_TITLE:
        return tr(EventTexts.TITLE_LONG, lang, length=len(title), longest=LONGEST_TITLE)
    return None
