"""NLU errors.

    ClubError                (core.errors)
    └── NLUError             the rule-based parser could not do what was asked
        └── SlotParseError   an answer to a clarifying question could not be read

``SlotParseError``'s message is a short reason in the user's language, ready to show.
"""

from __future__ import annotations

from core.errors import ClubError

__all__ = ["NLUError", "SlotParseError"]


class NLUError(ClubError):
    """Base of the NLU package's errors."""


class SlotParseError(NLUError):
    """A slot answer (e.g. «в четверг» to «На какую дату?») could not be parsed or is invalid."""
