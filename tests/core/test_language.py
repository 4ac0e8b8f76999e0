"""Which language a text says it is in, and the sticky answer language (issue 18)."""

from __future__ import annotations

import pytest

from core.language import answer_language, written_in
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


def profile(language: str, *, chosen: bool = False) -> UserProfile:
    return UserProfile(
        telegram_id=1,
        name="",
        language=language,
        language_chosen=chosen,
        timezone=None,
        role="manager",
    )


def test_what_they_wrote_last_sticks_unless_a_language_was_chosen() -> None:
    assert answer_language(profile("ru"), "/bookings") == "ru"
    assert answer_language(profile("ru"), "42") == "ru"
    assert answer_language(profile("ru"), "book a room") == "en"
    assert answer_language(profile("en"), "мои брони") == "ru"
    assert answer_language(profile("en", chosen=True), "мои брони") == "en"
