"""Model text that would reach the user (``ask_user.question``, ``abort.reason``), checked.

The model read an attacker's page, so what it says may be the attacker's words: «пришлите
пароль», a link, a code to type somewhere. Such text — or text too long to read at a
glance — is dropped, and the caller says it with its own template instead.
"""

from __future__ import annotations

import re

from core.browser.harm import fold

__all__ = ["MAX_SPOKEN", "spoken"]

MAX_SPOKEN = 300

# Asking for secrets, for codes or for going somewhere (folded like page text; "\b" keeps
# «код» from matching inside longer words that merely contain it).
_ASKS = (
    r"парол", r"passw", r"\bкод", r"\bcode", r"\bpin\b", r"\bсмс", r"\bsms", r"токен",
    r"token", r"секрет", r"secret", r"логин", r"login", r"учётн", r"учетн", r"account",
    r"карт", r"\bcard", r"cvv", r"ссылк", r"\blink", r"перейд", r"зайдит", r"открой",
    r"\bgo to", r"visit", r"http", r"www", r"://", r"@", r"\.ru\b", r"\.com\b", r"\.me\b",
    r"telegram", r"телеграм", r"whatsapp", r"пришлит", r"отправьт", r"send ", r"напишит",
)  # fmt: skip
_BAD = re.compile("|".join(fold(p.replace("\\b", "\x00")).replace("\x00", "\\b") for p in _ASKS))


def spoken(text: str | None) -> str | None:
    """``text`` tidied if it may be shown to the user as it is, else None."""
    if not text:
        return None
    tidy = " ".join(text.split())
    if not tidy or len(tidy) > MAX_SPOKEN or _BAD.search(fold(tidy)):
        return None
    return tidy
