"""Generated user texts for fuzz tests (issue 16): random unicode, runs of digits, and
booking-like commands assembled from a RU/EN vocabulary with huge, negative and zero
numbers, «через N дней», times and buildings."""

from __future__ import annotations

import random

from hypothesis import strategies as st

__all__ = ["TEXTS", "generated"]

_VOCABULARY = (
    "забронируй book reserve нужна аудиторию аудитории аудиторий rooms room a комнат "
    "человек people на for завтра tomorrow послезавтра сегодня today через in дней дня days "
    "недель weeks week в on четверг Friday следующий next с from до to and и рядом "
    "adjacent корпусе building главном main лабораторном Чайковского 7-м каждый every "
    "понедельник мои брони my bookings отмени cancel миллион тысяч million thousand "
    "две three пять twenty-five полтора часа hours минут am pm №"
)
_WORDS = _VOCABULARY.split()
_FIXED = ["27.11", "18:00", "10-12", "18:00–20:00", "301", "301а", "-", "—", ",", "2026-11-27"]


def _number() -> st.SearchStrategy[str]:
    small = st.integers(min_value=-50, max_value=50).map(str)
    big = st.integers(min_value=-(10**30), max_value=10**30).map(str)
    run = st.integers(min_value=1, max_value=700).map(lambda n: "9" * n)
    return st.one_of(small, small, big, run)


_FRAGMENT = st.one_of(st.sampled_from(_WORDS), st.sampled_from(_FIXED), _number())
_COMMAND = st.lists(_FRAGMENT, min_size=1, max_size=14).map(" ".join)
TEXTS = st.one_of(
    _COMMAND,
    _COMMAND,
    _COMMAND,
    st.text(max_size=80),
    st.text(alphabet="0123456789-.:/ ", max_size=80),
    st.lists(st.one_of(_FRAGMENT, st.text(max_size=6)), max_size=10).map("".join),
)


def generated(count: int) -> list[str]:
    """``count`` texts of the kinds ``TEXTS`` draws, the same ones every run (a seeded
    generator: hypothesis takes ~20 s to draw 10 000), for a test that sends them all
    through a running bot."""
    rng = random.Random(16)

    def number() -> str:
        kind = rng.randrange(4)
        if kind < 2:
            return str(rng.randint(-50, 50))
        if kind == 2:
            return str(rng.randint(-(10**30), 10**30))
        return "9" * rng.randint(1, 700)

    def fragment() -> str:
        kind = rng.randrange(3)
        if kind == 0:
            return rng.choice(_WORDS)
        return rng.choice(_FIXED) if kind == 1 else number()

    def char() -> str:
        kind = rng.randrange(10)
        if kind < 4:
            return chr(rng.randint(0x20, 0x7E))
        if kind < 6:
            return chr(rng.randint(0x400, 0x4FF))  # Cyrillic
        if kind == 6:
            return rng.choice("\x00\t\n\r\u00a0\u200b\u2028\u0301\ufeff")
        if kind == 7:
            return chr(rng.randint(0x1F300, 0x1FAFF))  # emoji
        point = rng.randrange(0x110000)  # any, but the surrogates no client can send
        return chr(point) if not 0xD800 <= point <= 0xDFFF else "?"

    def unicode(size: int) -> str:
        return "".join(char() for _ in range(size))

    def text() -> str:
        kind = rng.randrange(6)
        if kind < 3:
            return " ".join(fragment() for _ in range(rng.randint(1, 14)))
        if kind == 3:
            return unicode(rng.randint(0, 80))
        if kind == 4:
            return "".join(rng.choice("0123456789-.:/ ") for _ in range(rng.randint(0, 80)))
        pieces = (
            fragment() if rng.random() < 0.5 else unicode(rng.randint(0, 6))
            for _ in range(rng.randint(0, 10))
        )
        return "".join(pieces)

    return [text() for _ in range(count)]
