"""The booking job's intents and their rule scores, from keyword senses and the slots found.

Scores are 0..1; the reading takes the best and the planner hands low (< 0.5) or tied
scores to a classifier. ``unknown`` scores ``1 - best`` of the others. A request for help
and a refusal are scored here too: both are said in the booking job's words («как
забронировать?», «не бронируй ничего»).
"""

from __future__ import annotations

from datetime import date
from enum import StrEnum

from core.nlu import Intent, Lang, Places, Slots
from core.nlu.analysis import Tok, has_cyrillic
from core.nlu.slots import extract_slots
from scenarios.booking.vocabulary.negation import Denial, deny
from scenarios.booking.vocabulary.words import read_tokens

__all__ = ["BookingIntent", "score", "score_intents"]


class BookingIntent(StrEnum):
    BOOK_ROOMS = "book_rooms"
    LIST_BOOKINGS = "list_bookings"
    CANCEL_BOOKING = "cancel_booking"
    SCHEDULE_BOOKING = "schedule_booking"
    LIST_SCHEDULES = "list_schedules"
    CANCEL_SCHEDULE = "cancel_schedule"


# Only whether a date is present matters for scoring, not which date: any fixed day will do.
_REFERENCE_DAY = date(2026, 1, 5)
# Iterating an Enum class is slow, and this runs per message.
_INTENTS: tuple[str, ...] = (*BookingIntent, *Intent)
_STANDS = 0.5  # a score that still stands beside a negation
# Undoing what a negation names is likelier than not, but said less plainly than «отмени»:
# the scenarios confirm before they undo anything.
_UNDO = 0.8


def score(toks: tuple[Tok, ...], slots: Slots, denial: Denial | None) -> dict[str, float]:
    """Scores for already analysed tokens, their slots and what a negation in them denies
    (``parse`` calls this)."""
    has = {t.concept for t in toks if t.concept is not None}
    s = dict.fromkeys(_INTENTS, 0.0)
    has_time = slots.start is not None or slots.end is not None
    room_spec = bool(slots.room or slots.rooms or slots.capacity or "ROOM" in has)
    query = bool(has & {"LIST", "MY", "PAST"})
    schedule_ctx = bool(has & {"SCHED", "WEEKLY"}) or slots.recurrence is not None
    stop = bool(has & {"CANCEL", "DISABLE"})
    refused = denial is not None and denial.denied == "book"

    book = 0.0
    if "BOOK" in has:
        book = 0.95 if (has_time or slots.date or room_spec or schedule_ctx) else 0.9
    elif "NEED" in has and (room_spec or has_time):
        book = 0.85
    elif room_spec and has_time:
        book = 0.7
    elif "BOOKINGS" in has and has_time and not query:
        book = 0.75
    elif room_spec and slots.date is not None:
        book = 0.55
    elif slots.start is not None and slots.end is not None and slots.date is not None:
        book = 0.55  # «в четверг с 18 до 20»: most likely a booking, but said weakly
    elif room_spec or "NEED" in has:
        book = 0.4
    if ("PAST" in has and "NEED" not in has) or (  # "need a room booked" is a booking
        query and not has_time and has & {"BOOKINGS", "MY", "LIST"}
    ):
        book = min(book, 0.3)
    if stop:
        book = min(book, 0.2)
    if refused:
        book = 0.0
    # «как забронировать аудиторию?», "how do I book a room": how it is done, not a request
    how_to = any(t.text in ("как", "how") for t in toks[:2]) and not (
        has_time or slots.date or slots.room
    )
    if how_to:
        book = min(book, 0.4)
    if schedule_ctx:
        s[BookingIntent.SCHEDULE_BOOKING] = book if book >= 0.5 else 0.0
        if has_time and not (stop or query):
            s[BookingIntent.SCHEDULE_BOOKING] = max(s[BookingIntent.SCHEDULE_BOOKING], 0.8)
        s[BookingIntent.BOOK_ROOMS] = min(book, 0.4)
    else:
        s[BookingIntent.BOOK_ROOMS] = book

    if "CANCEL" in has:
        if schedule_ctx:
            s[BookingIntent.CANCEL_SCHEDULE] = 0.9
            s[BookingIntent.CANCEL_BOOKING] = 0.4
        else:
            s[BookingIntent.CANCEL_BOOKING] = 0.9
    if "DISABLE" in has:
        s[BookingIntent.CANCEL_SCHEDULE] = max(
            s[BookingIntent.CANCEL_SCHEDULE], 0.9 if schedule_ctx else 0.75
        )
        if not schedule_ctx and "BOOKINGS" in has:
            s[BookingIntent.CANCEL_BOOKING] = max(s[BookingIntent.CANCEL_BOOKING], 0.6)

    if not stop:
        listing = 0.0
        if query and (has & {"BOOKINGS", "SCHED"} or ("PAST" in has and "BOOK" in has)):
            listing = 0.9
        elif (query and schedule_ctx) or ("PAST" in has and not has_time):
            listing = 0.8
        elif "BOOKINGS" in has and not has_time:
            listing = 0.75
        elif has & {"MY", "HAVE"} and "ROOM" in has and "BOOK" not in has and not has_time:
            listing = 0.8  # "what rooms are mine on wednesday", "where do i have rooms"
        elif "HAVE" in has and "ANYTHING" in has and "BOOK" not in has and not has_time:
            listing = 0.8  # «у меня что-нибудь есть в четверг?», "do I have anything on…"
        elif "LIST" in has and ("HAVE" in has or toks[0].text == "что у меня"):
            listing = 0.7 if slots.date is not None else 0.45
        elif "SCHED" in has and book < 0.5:
            listing = 0.7
        target = BookingIntent.LIST_SCHEDULES if schedule_ctx else BookingIntent.LIST_BOOKINGS
        s[target] = max(s[target], listing)

    if "HELP" in has or (how_to and "BOOK" in has):
        others = max(s.values())
        s[Intent.HELP] = 0.9 if others < 0.5 else 0.4
    if denial is not None:
        _refuse(s, denial, slots, schedule_ctx=schedule_ctx, query=query, named="BOOKINGS" in has)
    if "REGISTRATION" in has and not has & {"BOOK", "BOOKINGS", "NEED"}:
        # An event's registration («закрой регистрацию на лекцию»): the events job's, and
        # never a booking's or a schedule's cancel.
        for intent in BookingIntent:
            s[intent] = 0.0
    s[Intent.UNKNOWN] = round(1.0 - max(s.values()), 4)
    return s


def _refuse(
    s: dict[str, float],
    denial: Denial,
    slots: Slots,
    *,
    schedule_ctx: bool,
    query: bool,
    named: bool,
) -> None:
    """A denied booking never books: it undoes one (a recurring one when the command is
    recurring, a concrete one when it names a day, a time or a room) or, said of nothing
    concrete, declines. A denied cancel or listing declines too, unless something else
    the command says still stands («не отменяй, а забронируй 302»)."""
    concrete = bool(slots.date or slots.start or slots.end or slots.room)
    if denial.denied == "cancel":
        s[BookingIntent.CANCEL_BOOKING] = s[BookingIntent.CANCEL_SCHEDULE] = 0.0
    elif denial.denied == "list":
        s[BookingIntent.LIST_BOOKINGS] = s[BookingIntent.LIST_SCHEDULES] = 0.0
    else:
        s[BookingIntent.BOOK_ROOMS] = s[BookingIntent.SCHEDULE_BOOKING] = 0.0
        if not query:  # "no booking needed" names bookings, but asks for no list
            s[BookingIntent.LIST_BOOKINGS] = s[BookingIntent.LIST_SCHEDULES] = 0.0
        if not (named or concrete or schedule_ctx):
            s[BookingIntent.CANCEL_BOOKING] = (
                0.0  # «отмена, не бронируй»: "cancel that", no booking
            )
    if max(s.values()) >= _STANDS:
        return
    if denial.denied == "book" and not denial.nothing:
        if schedule_ctx:
            s[BookingIntent.CANCEL_SCHEDULE] = _UNDO
            return
        if concrete:
            s[BookingIntent.CANCEL_BOOKING] = _UNDO
            return
    # A refusal that also names details («не надо, в главном») may be an answer to a question.
    said = slots.building or slots.capacity or slots.rooms not in (None, 1)
    bare = not (said or slots.date or slots.start)
    s[Intent.DECLINE] = 0.9 if bare or denial.nothing else 0.6


def score_intents(text: str, *, places: Places) -> dict[str, float]:
    """Rule scores 0..1 for every intent (``unknown`` included). ``places`` matters: the 7
    of «в 7-м корпусе» is a building, not a time."""
    toks = read_tokens(text)
    lang: Lang = "ru" if has_cyrillic(text) else "en"
    slots = extract_slots(toks, today=_REFERENCE_DAY, lang=lang, places=places)
    return score(toks, slots, deny(toks))
