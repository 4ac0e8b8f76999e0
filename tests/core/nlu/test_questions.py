"""The time questions every job asks: the usual starts, and ends after the start."""

from __future__ import annotations

from core.nlu import end_question, start_question


def test_the_start_is_offered_at_the_usual_hours() -> None:
    question = start_question(lang="en")
    assert question.key == "start"
    assert [o.id for o in question.options] == ["10:00", "14:00", "18:00"]


def test_ends_are_an_hour_to_two_after_the_start() -> None:
    question = end_question({"start": "14:30"}, lang="ru")
    assert question.key == "end"
    assert [o.id for o in question.options] == ["15:30", "16:00", "16:30"]


def test_no_end_past_midnight_is_offered() -> None:
    assert [o.id for o in end_question({"start": "22:45"}, lang="en").options] == ["23:45"]


def test_no_end_is_offered_before_the_start_is_known() -> None:
    assert end_question({}, lang="en").options == []
