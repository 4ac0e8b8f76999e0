"""``Secrets``: what the operator typed as a secret, masked wherever else it shows.

Masking a field by its type or name is not enough: a login page once copied the
password into a visible text field as it was typed, and the recording kept it three
times (the field's value as sent, the request's body, the page's snapshot). So every
value typed into a password field, or into a field named as one, is kept here —
in memory only, never in a recording — and every text of a step is masked by value:
each place it shows is replaced by «***», whatever field, address, body or page text
holds it, and however it is written there. Each of its characters may be written as
typed, %-encoded (either case; «+» for a space) or JSON-escaped, one way here and
another there (``urlencode`` leaves a «/» as it is and encodes a «#»): so the secret is
looked for as a pattern of its characters, each any of those ways, not as a few whole
encodings of it.
"""

from __future__ import annotations

import json
import re
from typing import Any, Literal, TypeVar, get_origin

from pydantic import BaseModel

__all__ = ["HIDDEN", "Secrets"]

HIDDEN = "***"

_Model = TypeVar("_Model", bound=BaseModel)


def _character(c: str) -> str:
    """A pattern for one character of a secret, however a page or an address writes it."""
    ways = {re.escape(c), re.escape(json.dumps(c)[1:-1])}
    ways.add("".join(f"%(?i:{byte:02x})" for byte in c.encode()))
    if len(c.encode("utf-16-le")) == 2:
        ways.add(rf"\\u(?i:{ord(c):04x})")
    if c == " ":
        ways.add(r"\+")
    return "(?:" + "|".join(sorted(ways)) + ")"


class Secrets:
    """The secrets typed in one demonstration (never shown: not even by ``repr``)."""

    def __init__(self) -> None:
        self._typed: set[str] = set()
        self._found: re.Pattern[str] | None = None

    def add(self, value: str | None) -> None:
        """Keep ``value`` (typed into a secret field); an empty value hides nothing."""
        if not value or value in self._typed:
            return
        self._typed.add(value)
        # Longest first: a secret inside another is masked with it. Each character one
        # group of fixed ways, nothing repeated: the search is linear in the text.
        longest = sorted(self._typed, key=len, reverse=True)
        self._found = re.compile("|".join("".join(map(_character, t)) for t in longest))

    def __bool__(self) -> bool:
        return bool(self._typed)

    def __repr__(self) -> str:
        return f"Secrets({len(self._typed)})"

    def mask(self, text: str) -> str:
        """``text`` with every secret in it, however written, replaced by «***»."""
        return self._found.sub(HIDDEN, text) if self._found is not None else text

    def masked(self, model: _Model) -> _Model:
        """``model`` with every secret in any of its texts (keys too) replaced; a field
        that names one of a few fixed words (a step's name, an action's kind) is left."""
        masked: _Model = self._masked(model)
        return masked

    def _masked(self, value: Any) -> Any:
        if isinstance(value, str):
            return self.mask(value)
        if isinstance(value, BaseModel):
            changed = {
                name: new
                for name, field in type(value).model_fields.items()
                if get_origin(field.annotation) is not Literal
                and (new := self._masked(old := getattr(value, name))) is not old
                and new != old
            }
            return value.model_copy(update=changed) if changed else value
        if isinstance(value, dict):
            return {self._masked(k): self._masked(v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return type(value)(self._masked(v) for v in value)
        return value
