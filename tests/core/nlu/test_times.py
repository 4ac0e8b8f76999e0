"""Time forms, the afternoon rule for hours 1–7, durations and impossible times."""

from __future__ import annotations

from datetime import time

import pytest

from core.nlu.analysis import analyze
from core.nlu.times import extract_times
from tests.support.reading import decide

RANGES: list[tuple[str, str | None, str | None]] = [
    ("с 18 до 20", "18:00", "20:00"),
    ("с 9 до 11", "09:00", "11:00"),
    ("с 12:00 до 13:30", "12:00", "13:30"),
    ("18:00–20:00", "18:00", "20:00"),
    ("18:00 - 20:00", "18:00", "20:00"),
    ("18:00—20:00", "18:00", "20:00"),
    ("10-12", "10:00", "12:00"),
    ("9-10", "09:00", "10:00"),
    ("from 3pm to 5pm", "15:00", "17:00"),
    ("from 3 p.m. to 5 p.m.", "15:00", "17:00"),
    ("from 3pm to 5", "15:00", "17:00"),
    ("from 2 to 4pm", "14:00", "16:00"),
    ("10am-12", "10:00", "12:00"),
    ("10am-12pm", "10:00", "12:00"),
    ("6-8pm", "18:00", "20:00"),
    ("between 2 and 4", "14:00", "16:00"),
    ("с 6 до 8", "18:00", "20:00"),
    ("с 11 до 1", "11:00", "13:00"),
    ("с 07:00 до 09:00", "07:00", "09:00"),
    ("с 7 утра до 9 утра", "07:00", "09:00"),
    ("с 8 до 10 утра", "08:00", "10:00"),
    ("с 18.30 до 20.00", "18:30", "20:00"),
    ("со 2 до 4", "14:00", "16:00"),
    ("с девяти до одиннадцати", "09:00", "11:00"),
    ("с 18 по 20", "18:00", "20:00"),
    ("с 18ч до 20ч", "18:00", "20:00"),
    ("с 18 часов до 20 часов", "18:00", "20:00"),
    ("вечером с 6 до 8", "18:00", "20:00"),
    ("from noon to 2pm", "12:00", "14:00"),
    ("с полудня до 14", "12:00", "14:00"),
    # start plus duration
    ("в 19:00 на 2 часа", "19:00", "21:00"),
    ("в 19 на два часа", "19:00", "21:00"),
    ("в 18 на час", "18:00", "19:00"),
    ("в 18 на полтора часа", "18:00", "19:30"),
    ("в 18 на полчаса", "18:00", "18:30"),
    ("в 18 на 1,5 часа", "18:00", "19:30"),
    ("в 18 на 90 минут", "18:00", "19:30"),
    ("в 18 на 1 час 30 минут", "18:00", "19:30"),
    ("at 7pm for an hour", "19:00", "20:00"),
    ("at 6pm for 90 minutes", "18:00", "19:30"),
    ("at 6pm for half an hour", "18:00", "18:30"),
    ("at 10 for an hour and a half", "10:00", "11:30"),
    ("at 10 for 2 hours", "10:00", "12:00"),
    ("at 10 for 2.5 hours", "10:00", "12:30"),
    ("for 2h at 10:00", "10:00", "12:00"),
    ("в 7 вечера на час", "19:00", "20:00"),
    ("в 7 утра на час", "07:00", "08:00"),
    ("в 11 ночи на полчаса", "23:00", "23:30"),
    # partial
    ("с 18", "18:00", None),
    ("в 19:00", "19:00", None),
    ("at 3pm", "15:00", None),
    ("на 19:00", "19:00", None),
    ("до 20", None, "20:00"),
    ("until 8pm", None, "20:00"),
    # impossible or not times
    ("с 25 до 26", None, None),
    ("с 24:30 до 25:00", None, None),
    ("в 23:00 на 2 часа", "23:00", None),
    ("с 20 до 18:00", "20:00", None),
    ("в 2 аудитории", None, None),
    ("на 60 человек", None, None),
    ("с двумя соседними аудиториями", None, None),
    ("at 13pm", None, None),
]


@pytest.mark.parametrize(("text", "start", "end"), RANGES)
def test_time_forms(text: str, start: str | None, end: str | None) -> None:
    got = extract_times(analyze(text), set())
    as_text = tuple(t.strftime("%H:%M") if t is not None else None for t in got)
    assert as_text == (start, end)


@pytest.mark.parametrize(
    "text",
    [
        "забронируй аудиторию завтра с 25 до 26",
        "book a room tomorrow from 25 to 26",
        "забронируй аудиторию завтра с 99:99 до 100",
        "book a room tomorrow 24-25",
    ],
)
def test_impossible_times_are_asked_for(text: str) -> None:
    decision = decide(text)
    assert decision.intent == "book_rooms"
    assert decision.slots.start is None
    assert decision.slots.end is None
    assert decision.missing == ["start", "end"]
    assert decision.next_action == "clarify"


def test_duration_sets_end_in_a_full_command() -> None:
    decision = decide("забронируй аудиторию завтра в 19:00 на 2 часа")
    assert (decision.slots.start, decision.slots.end) == (time(19), time(21))
