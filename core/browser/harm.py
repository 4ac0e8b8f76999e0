"""What counts as harmful for the brain to press, on text an attacker wrote.

Page text is folded before it is matched, so that look-alikes cannot hide a stem: NFKC,
zero-width and other format characters removed, Latin letters that look Cyrillic (and
back) folded to one alphabet, case folded. ``HarmPrevented`` is what a page driver raises
when it refused a control or its network guard stopped a request the step had not declared.
"""

from __future__ import annotations

import re
import unicodedata

from core.errors import BrowserError

__all__ = ["FORBIDDEN", "ControlRefused", "HarmPrevented", "RequestBlocked", "fold", "is_forbidden"]

# Latin letters drawn like Cyrillic ones, folded to Cyrillic; the stems below are written
# with the same fold, so «cancel» in either alphabet becomes one string.
_LOOKALIKES = str.maketrans(
    {
        "a": "а", "c": "с", "e": "е", "o": "о", "p": "р", "x": "х", "y": "у", "k": "к",
        "m": "м", "t": "т", "h": "н", "b": "в", "i": "і", "ı": "і", "j": "ј", "s": "ѕ",
        "ё": "е", "й": "и",
    }
)  # fmt: skip

# Stems of names that must never be pressed by the brain: booking, cancelling, deleting,
# confirming a payment or leaving the session (written plainly, folded once at import).
_STEMS = (
    "брон", "отмен", "удал", "подтверд", "оплат", "выйти", "выход", "очист", "сброс",
    "book", "reserv", "cancel", "delet", "remov", "confirm", "pay", "submit", "logout",
    "log out", "signout", "sign out", "clear", "reset", "revoke", "destroy", "purge",
)  # fmt: skip


def fold(text: str) -> str:
    """``text`` as the forbidden-words check sees it (see the module docstring)."""
    text = unicodedata.normalize("NFKC", text)
    # Cf: zero-width joiners, soft hyphens, bidi marks — invisible, so never a real letter.
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    text = text.casefold().translate(_LOOKALIKES)
    return " ".join(text.split())


FORBIDDEN = re.compile("|".join(re.escape(fold(stem)) for stem in _STEMS))


def is_forbidden(*texts: str) -> bool:
    """Whether any of ``texts`` (a label, a title, an aria-label, a form's action) names a
    booking, cancelling, deleting, paying or logging-out control."""
    return any(FORBIDDEN.search(fold(text)) for text in texts if text)


class HarmPrevented(BrowserError):
    """A brain-chosen action was stopped before it could change something on the site."""

    def __init__(self, message: str, *, what: tuple[str, ...]) -> None:
        super().__init__(message)
        self.what = what  # the blocked requests ("POST http://…") or the refused control


class RequestBlocked(HarmPrevented):
    """The network guard stopped a request the step had not declared."""


class ControlRefused(HarmPrevented):
    """The control's title, aria-label or form action names a forbidden intent."""
