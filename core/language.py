"""Which language to answer a user in: theirs, and it sticks.

A language chosen in /settings always wins. Otherwise it is the one the user last wrote
in, kept on their profile: a text with words in it says which; a slash command, a
number, an emoji or a room number says nothing, so it never switches the language
(«/bookings» after Russian messages is answered in Russian). Until they have written
words, their Telegram client's language leads. Button taps are answers, not texts, and
never reach here.
"""

from __future__ import annotations

import re

from core.commands import Lang, as_lang
from core.nlu.analysis import has_cyrillic
from core.store.records import UserProfile

__all__ = ["answer_language", "known_language", "learnt_language", "written_in"]

# Two Latin letters in a row: "ok", "book"; not "301a" or a lone "x".
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def written_in(text: str) -> Lang | None:
    """The language ``text`` is written in, or None when it does not say."""
    if text.lstrip().startswith("/"):
        return None
    if has_cyrillic(text):
        return "ru"
    return "en" if _LATIN_WORD.search(text) else None


def known_language(profile: UserProfile, *, client: Lang | None) -> Lang:
    """The user's language before reading what they wrote now."""
    if profile.language_chosen or profile.language_learned or client is None:
        return as_lang(profile.language)
    return client


def answer_language(profile: UserProfile, text: str, *, client: Lang | None) -> Lang:
    """The language to answer ``text`` from this user in."""
    if profile.language_chosen:
        return as_lang(profile.language)
    return written_in(text) or known_language(profile, client=client)


def learnt_language(profile: UserProfile, text: str) -> Lang | None:
    """The language ``text`` teaches the profile to keep, if it changes what it keeps."""
    written = written_in(text)
    if profile.language_chosen or written is None:
        return None
    if written == profile.language and profile.language_learned:
        return None
    return written
