"""The booking job's words: its verbs (book, cancel, list, need, stop) and nouns (bookings,
schedules), what a question about one's own bookings says («мои», «у меня», «что-нибудь»),
help and greetings, and an event's registration (never a booking's), in Russian and
English. The engine's words (dates, times, numbers, rooms, people) come after them in the
job's lexicon (``booking_lexicon``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from core.nlu.analysis import Tok, analyze
from core.nlu.lexicon import Lexicon, Sense, Words

__all__ = ["BOOKING_WORDS", "BookingWords", "booking_lexicon", "read_tokens"]

BOOKING_WORDS = Words(
    concepts=(
        (
            "BOOK",
            "забронируй забронируйте забронировать забронирую бронируй бронируйте бронировать "
            "бронирую забронь зарезервируй зарезервировать резервируй займи занять занимай "
            "занимайте занимать hold reserving поставь поставить ставь запланируй планируй book "
            "reserve get grab",
        ),
        (
            "PAST",
            "забронировал забронировала забронировали забронировано забронированы бронировал "
            "бронировала занял заняла заняли занимал занимала did booked reserved took taken",
        ),
        (
            "NEED",
            "нужна нужен нужно нужны надо хочу хотим хотел хотела понадобится понадобятся "
            "понадобится need needs needed needing want would like требуется",
        ),
        (
            "BOOKINGS",
            "бронь брони броней бронирования бронирований бронированиях бронирование бронях "
            "booking bookings reservation reservations",
        ),
        (
            "LIST",
            "покажи показать покажите показывай какие какая какой какую список выведи глянь "
            "посмотреть посмотри show list view see what which display",
        ),
        ("MY", "мои мой моя моих мою my mine"),
        (
            "CANCEL",
            "отмени отменить отмените отменяй удали удалить удалите сними снять убери освободи "
            "освободить освободите аннулируй аннулировать отказываюсь отказаться откажись "
            "cancel delete remove drop unbook scrap release",
        ),
        (
            "DISABLE",
            "отключи отключить выключи выключить останови остановить прекрати disable stop "
            "deactivate",
        ),
        (
            "SCHED",
            "автобронь автоброни автоброней автобронирование автобронирования автобронирований "
            "расписание расписания регулярные регулярная регулярный регулярно регулярных "
            "повторяющиеся повторяющихся постоянные recurring regular repeating schedule "
            "schedules scheduled autobooking autobookings auto standing",
        ),
        ("GREET", "привет здравствуй здравствуйте hi hello hey"),
        ("ANYTHING", "anything something"),
        (
            "REGISTRATION",
            "регистрация регистрацию регистрации регистрацией registration registrations "
            "signup signups rsvp rsvps enrollment enrolment",
        ),
    ),
    phrases=(
        ("за мной", Sense("MY")),
        ("free up", Sense("CANCEL")),
        ("changed my mind", Sense("NEVERMIND")),
        ("change of plans", Sense("NEVERMIND")),
        ("call off", Sense("CANCEL")),
        ("turn off", Sense("DISABLE")),
        ("switch off", Sense("DISABLE")),
        ("что у меня", Sense("LIST")),
        ("у меня", Sense("HAVE")),
        ("do i have", Sense("HAVE")),
        ("have i got", Sense("HAVE")),
        ("что - нибудь", Sense("ANYTHING")),
        ("что - то", Sense("ANYTHING")),
        ("что - либо", Sense("ANYTHING")),
        ("sign - up", Sense("REGISTRATION")),
        ("sign - ups", Sense("REGISTRATION")),
    ),
)

# After these the English "book" is a noun ("a good book"), not the verb of booking.
_BEFORE_NOUN = frozenset({"a", "an", "the", "good", "this", "that", "my", "your", "his", "her"})


@lru_cache(maxsize=1)
def booking_lexicon() -> Lexicon:
    """The booking job's words before the engine's, built once (its tables take ms)."""
    return Lexicon(BOOKING_WORDS)


class BookingWords:
    """A booking scenario reads answers to its questions in the booking job's words."""

    def lexicon(self) -> Lexicon:
        return booking_lexicon()


def read_tokens(text: str) -> tuple[Tok, ...]:
    """``text`` as tokens in the booking job's words."""
    return _book_as_noun(analyze(text, booking_lexicon()))


def _book_as_noun(toks: Sequence[Tok]) -> tuple[Tok, ...]:
    out = list(toks)
    for i in range(1, len(out)):
        if out[i].text == "book" and out[i - 1].text in _BEFORE_NOUN:
            out[i] = Tok("word", "book")
    return tuple(out)
