"""Generated user texts for fuzz tests (issue 16): random unicode, runs of digits, and
booking-like commands assembled from a RU/EN vocabulary with huge, negative and zero
numbers, «через N дней», times and buildings."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
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
    """``count`` texts drawn from ``TEXTS``, the same ones every run (derandomized):
    hypothesis as a generator, for a test that sends them all through a running bot."""
    texts: list[str] = []

    @settings(
        max_examples=count,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(TEXTS)
    def collect(text: str) -> None:
        texts.append(text)

    collect()
    return texts
