"""The one title check (``scenarios/events/titles.py``) at its edges: what passes as it is,
what is refused, and why, in Russian and English. The bot's paths to it (command, answer)
are tested on the real Indico in ``tests/adapters/indico/test_events_titles.py``."""

from __future__ import annotations

import pytest

from scenarios.events.titles import LONGEST_TITLE, title_problem


@pytest.mark.parametrize(
    "title",
    [
        "Б" * LONGEST_TITLE,
        "👩‍💻 Хакатон клуба",  # a zero-width joiner makes one emoji: not hidden text
        "Chess  night",  # two spaces: kept, not a reason to refuse
        "Турнир «Белая ладья» — финал",
    ],
)
def test_a_title_of_visible_text_passes(title: str) -> None:
    assert title_problem(title, "ru") is None


@pytest.mark.parametrize(
    ("title", "ru", "en"),
    [
        (
            "Б" * (LONGEST_TITLE + 1),
            "Название слишком длинное (символов: 251, можно не больше 250)",
            "The title is too long (251 characters, at most 250)",
        ),
        (
            "Турнир\tфинал",
            "В названии есть невидимый управляющий символ (U+0009), напишите его обычными знаками",
            "The title has an invisible control character (U+0009); please use plain characters",
        ),
        (
            "Турнир \u202eланиф",  # right-to-left override: reads otherwise than it is
            "В названии есть невидимый управляющий символ (U+202E), напишите его обычными знаками",
            "The title has an invisible control character (U+202E); please use plain characters",
        ),
        (
            "Турнир\u2028финал",
            "Название должно быть одной строкой, без переносов",
            "The title must be one line, with no line breaks",
        ),
        (
            "Турнир\r\nфинал",
            "Название должно быть одной строкой, без переносов",
            "The title must be one line, with no line breaks",
        ),
        ("   ", "Нужно название словами", "The title must be words"),
    ],
)
def test_a_title_that_cannot_be_is_refused_with_its_reason(title: str, ru: str, en: str) -> None:
    assert title_problem(title, "ru") == ru
    assert title_problem(title, "en") == en
