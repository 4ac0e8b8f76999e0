"""The parser's work grows linearly with the text (issue 16): a text four times longer
runs at most about four times the lines of Python. Counted in steps, never in seconds:
speed is measured in ``bench/nlu.py``, since machines are noisy."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from core.nlu.analysis import forget_analyses
from core.nlu.lexicon import stem
from scenarios.booking.vocabulary import booking_lexicon, parse
from tests.support.catalogues import refportal_places
from tests.support.reading import NOW, TZ

SHORT = 512
# Some steps happen once per parse, so a linear parser stays below 4 (3.99 at most when
# this was written); quadratic work would be ~16.
MOST_GROWTH = 4.5
TraceFunction = Callable[[FrameType, str, Any], Any]


def _made_up_words(length: int) -> str:
    rng = random.Random(1)
    count = length // 8 + 1
    words = ("".join(rng.choice("абвгдежзиклмнопрстуфх") for _ in range(7)) for _ in range(count))
    return " ".join(words)[:length]


def _filled(unit: str, length: int) -> str:
    return (unit * (length // len(unit) + 1))[:length]


# The adversarial shapes of bench/nlu.py: each token is a number, a range, a sign, a
# date, a building or an unknown word (a fuzzy lookup), over and over.
UNITS = [
    "9",
    "а",
    "забронируй 3 аудитории завтра с 18 до 20 на 40 человек ",
    "book 2 rooms tomorrow 10-12 for 25 people ",
    "с 1 до 2 ",
    "1-",
    "-1 ",
    "1.",
    "1:",
    "301а ",
    "1-го ",
    "в 7-м корпусе ",
    "по понедельникам и средам ",
    "every week on Friday at 7pm for an hour, ",
    "27 ноября 2026 года ",
    "двадцать пять тысяч ",
]


def _steps(text: str) -> int:
    """Lines of Python run by one cold parse (caches cleared): a loop counts once per turn,
    so work hidden in a comprehension counts too."""
    forget_analyses()
    booking_lexicon().forget()
    stem.cache_clear()
    places = refportal_places()
    count = 0

    def trace(frame: FrameType, event: str, arg: object) -> TraceFunction:
        nonlocal count
        count += 1
        return trace

    previous = sys.gettrace()  # coverage's, if it runs
    sys.settrace(trace)
    try:
        parse(text, now=NOW, tz=TZ, places=places)
    finally:
        sys.settrace(previous)
    return count


@pytest.mark.parametrize("unit", UNITS)
def test_repeated_input_costs_linear_work(unit: str) -> None:
    short, long = _steps(_filled(unit, SHORT)), _steps(_filled(unit, 4 * SHORT))
    assert long <= MOST_GROWTH * short, (short, long)


def test_unknown_words_cost_linear_work() -> None:
    short, long = _steps(_made_up_words(SHORT)), _steps(_made_up_words(4 * SHORT))
    assert long <= MOST_GROWTH * short, (short, long)
