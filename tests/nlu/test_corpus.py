"""The NLU corpus: nothing a person said not to do is booked, and the measure holds."""

from __future__ import annotations

from collections import Counter

from scenarios.booking.vocabulary import BookingIntent
from tests.nlu.measure import entries, half_of, refusals
from tests.support.reading import decide

CORPUS = entries()


def test_the_corpus_is_large_distinct_and_split_in_two() -> None:
    assert len(CORPUS) >= 400
    assert len({e.text for e in CORPUS}) == len(CORPUS)
    halves = Counter(e.half for e in CORPUS)
    assert min(halves.values()) >= len(CORPUS) // 3  # both halves are real
    assert half_of("мои брони") == half_of("мои брони")  # by the text alone


def test_no_negated_command_books_or_schedules() -> None:
    assert len([e for e in CORPUS if e.category == "negations"]) >= 50
    assert refusals(CORPUS) == []


def test_a_negated_command_never_books_whatever_it_says_around() -> None:
    """Not only the corpus: each refusal said with every kind of detail around it."""
    refusals = [
        "не бронируй", "больше не занимай", "мне не нужна", "не надо бронировать",
        "хватит бронировать", "don't book", "we no longer need", "please do not reserve",
        "stop booking", "i won't need",
    ]  # fmt: skip
    details = [
        "", "301", "3 аудитории рядом", "в четверг с 18 до 20", "по вторникам",
        "every friday 10-12", "room 405 tomorrow", "в главном корпусе", "на 40 человек",
    ]  # fmt: skip
    for refusal in refusals:
        for detail in details:
            decision = decide(f"{refusal} {detail}".strip())
            assert decision.intent not in (
                BookingIntent.BOOK_ROOMS,
                BookingIntent.SCHEDULE_BOOKING,
            ), (
                refusal,
                detail,
            )
            assert decision.negated
