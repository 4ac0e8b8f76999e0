"""``denies_verb``: a plug-in's own verb is denied when a negation's scope reaches it, over
the words a wish or a need puts between them, and only then."""

from __future__ import annotations

import pytest

from core.nlu.negation import denies_verb

CREATE = ("созда", "create")


def words(text: str) -> list[str]:
    return text.lower().split()


@pytest.mark.parametrize(
    "text",
    [
        "не создавай мероприятие",
        "не хочу создавать мероприятие",
        "мы не будем создавать мероприятие",
        "нельзя создавать мероприятие",
        "хватит создавать мероприятия",
        "i don't want to create an event",
        "please do not create the event",
    ],
)
def test_a_negation_that_reaches_the_verb_denies_it(text: str) -> None:
    assert denies_verb(words(text), CREATE)


@pytest.mark.parametrize(
    "text",
    [
        "создай мероприятие",
        "не забудь создать мероприятие",  # a verb of its own ends the scope
        "я не смогу прийти, создай мероприятие на пятницу",
        "create an event, not a booking",
        "don't forget to create the event",
    ],
)
def test_a_negation_of_something_else_denies_nothing(text: str) -> None:
    assert not denies_verb(words(text), CREATE)
