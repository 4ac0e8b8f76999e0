"""Which language a text says it is in, and the sticky answer language (issue 18)."""

from __future__ import annotations

import pytest

from core.language import answer_language, known_language, written_in
from core.store import UserProfile


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("забронируй 301", "ru"),
        ("book two rooms", "en"),
        ("ok", "en"),
        ("/bookings", None),
        ("/settings en", None),
        ("2", None),
        ("301a", None),
        ("👍", None),
        ("  ", None),
        ("18:00-20:00", None),
    ],
)
def test_only_words_say_which_language(text: str, lang: str | None) -> None:
    assert written_in(text) == lang


def profile(language: str, *, chosen: bool = False, learned: bool = True) -> UserProfile:
    return UserProfile(
        telegram_id=1,
        name="",
        language=language,
        language_chosen=chosen,
        language_learned=learned,
        timezone=None,
        role="manager",
    )


def test_what_they_wrote_last_sticks_unless_a_language_was_chosen() -> None:
    assert answer_language(profile("ru"), "/bookings", client="en") == "ru"
    assert answer_language(profile("ru"), "42", client="en") == "ru"
    assert answer_language(profile("ru"), "book a room", client="ru") == "en"
    assert answer_language(profile("en"), "мои брони", client="en") == "ru"
    assert answer_language(profile("en", chosen=True), "мои брони", client="ru") == "en"


def test_until_they_write_words_their_clients_language_leads() -> None:
    unknown = profile("ru", learned=False)  # e.g. created by /login before any message
    assert answer_language(unknown, "/logout", client="en") == "en"
    assert answer_language(unknown, "/logout", client=None) == "ru"
    assert known_language(unknown, client="en") == "en"
    assert known_language(profile("ru"), client="en") == "ru"
