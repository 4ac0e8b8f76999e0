"""The user's language from Telegram (the texts themselves are ``core.texts``)."""

from __future__ import annotations

from core.commands import Lang

__all__ = ["lang_of"]


def lang_of(language_code: str | None) -> Lang:
    """Telegram's ``language_code`` ("en-US", "ru") to our language; Russian by default."""
    return "en" if language_code and language_code.lower().startswith("en") else "ru"
