"""How people ask for the events job, in Russian and English, read with the engine's
parsing primitives (tokens, dates, times, numbers, negation).

A command is the events job's only when it names an event («мероприятие», "event") or
its registration; then the verb says which intent. The title is what stands in quotes;
a room is written «7-703» (building and number) or as the booking parser reads it.
"""

from __future__ import annotations

import re
from datetime import date

from pydantic import BaseModel

from core.nlu import Decision, Intent, Lang, Slots, detect_lang
from core.nlu.analysis import Tok, analyze
from core.nlu.negation import denies_verb
from core.nlu.questions import which_date
from core.nlu.slots import extract_slots
from core.scenario import Utterance

__all__ = [
    "CANCEL_EVENT",
    "COUNT_REGISTRATIONS",
    "CREATE_EVENT",
    "INTENTS",
    "LIST_EVENTS",
    "OPEN_REGISTRATION",
    "EventDetails",
    "MAX_LIMIT",
    "read",
]

CREATE_EVENT = "create_event"
LIST_EVENTS = "list_events"
OPEN_REGISTRATION = "open_registration"
COUNT_REGISTRATIONS = "count_registrations"
CANCEL_EVENT = "cancel_event"
INTENTS = frozenset(
    {CREATE_EVENT, LIST_EVENTS, OPEN_REGISTRATION, COUNT_REGISTRATIONS, CANCEL_EVENT}
)
MAX_LIMIT = 10_000
# Surer than any booking rule (0.95 at most) when an event is named: «отмени мероприятие»
# is not a booking to cancel.
_SURE = 0.97

# A single quote only where a word cannot go on («'Chess club' on Friday», not "it's").
_QUOTED = re.compile(r"«([^»]+)»|“([^”]+)”|\"([^\"]+)\"|(?<!\w)'([^']+)'(?!\w)")
_ROOM = re.compile(r"(?<![\d:.])(\d{1,2})\s?[-/]\s?(\d{3,4}[a-zа-я]?)(?![\d:])", re.IGNORECASE)
_LIMIT = re.compile(
    r"(?:(?:до|на|лимит|limit|up to|max(?:imum)?|не более|не больше)\s*)?(\d[\d\s]*)\s*"
    r"(?:человек|чел\b|участник\w*|мест\w*|people|persons|participants|seats|places)",
    re.IGNORECASE,
)
_LIMIT_WORD = re.compile(r"(?:лимит|limit)\s*(\d+)", re.IGNORECASE)

_EVENT_STEMS = ("мероприяти", "событи", "ивент")
_EVENT_WORDS = frozenset({"event", "events"})
# Registration and its synonyms: «запись», «приём заявок», "sign-ups", "enrollment", "RSVPs".
_REGISTRATION_STEMS = ("регистрац", "registration", "signup", "sign-up", "запис", "заявк",
                       "заявок", "enrol", "rsvp")  # fmt: skip
# Closing a registration: no intent of the events job, and never a cancel of anything.
_CLOSE_STEMS = ("закр", "close", "stop", "останов", "прекрат", "отключ", "заверш", "end",
                "disable", "отмен", "cancel")  # fmt: skip
_CREATE_STEMS = ("созда", "организ", "заведи", "завести", "запланир", "устрой", "провед",
                 "сделай", "create", "organi", "make", "add", "new")  # fmt: skip
_OPEN_STEMS = ("откр", "open", "start", "запусти")
_COUNT_STEMS = ("записал", "записан", "зарегистрир", "registered", "signed")
_COUNT_WORDS = frozenset({"сколько", "how", "count"})
_CANCEL_STEMS = ("отмен", "удали", "удалить", "cancel", "delete", "remove", "call off")
# The booking job's words: a command with them is never the events job's.
_BOOKING_STEMS = ("брон", "заброн", "booking", "свободн", "available")
_BOOKING_WORDS = frozenset({"book", "free"})
_LIST_WORDS = frozenset({"мои", "наши", "какие", "список", "покажи", "предстоящие", "ближайшие",
                         "my", "our", "list", "show", "upcoming", "which", "what"})  # fmt: skip
# Words that say what the user wants done, not which event (dropped from a named event).
_FILLER = frozenset({"на", "for", "the", "мероприятие", "мероприятия", "событие", "event",
                     "регистрацию", "registration", "открой", "open", "отмени", "удали",
                     "cancel", "delete", "сколько", "записалось", "записалось?", "how",
                     "many", "registered", "people", "человек", "пожалуйста", "please",
                     "зарегистрировалось", "of", "to", "is", "are", "signed", "up", "для",
                     "мое", "моё", "наше", "запись", "записи", "приём", "прием", "заявок",
                     "заявки", "sign-ups", "signups", "sign-up", "signup", "enrollment",
                     "enrolment", "rsvp", "rsvps", "registrations", "регистрации",
                     "регистраций", "start", "запусти"})  # fmt: skip


class EventDetails(BaseModel):
    """What a command says of the events job that the booking parser has no slot for."""

    title: str | None = None  # the new event's title
    room_name: str | None = None  # «7-703»: the room as written
    event: str | None = None  # which existing event: its title, or words of it
    limit: int | None = None  # how many may register


def _has(words: list[str], stems: tuple[str, ...]) -> bool:
    return any(word.startswith(stems) for word in words)


def _quoted(text: str) -> str | None:
    found = _QUOTED.search(text)
    if found is None:
        return None
    title = next(group for group in found.groups() if group is not None).strip()
    return title or None


def _without_quotes(text: str) -> str:
    return _QUOTED.sub(" ", text)


def _named_event(text: str) -> str | None:
    """Which event a command names: its quoted title, else what is left of the words once
    the verbs, the limit and the filler are dropped."""
    quoted = _quoted(text)
    if quoted is not None:
        return quoted
    rest = _LIMIT.sub(" ", _LIMIT_WORD.sub(" ", text))
    words = [w.strip("?!.,()") for w in rest.lower().split()]
    kept = [w for w in words if w and w not in _FILLER and not w.startswith(("мероприят",))]
    return " ".join(kept) or None


def _limit(text: str) -> int | None:
    found = _LIMIT.search(text) or _LIMIT_WORD.search(text)
    if found is None:
        return None
    return int(re.sub(r"\s", "", found.group(1)))


def _intent(words: list[str]) -> tuple[str, tuple[str, ...]] | None:
    """The intent the words ask for, and the stems of its verb; none where a booking or free
    rooms are spoken of («отмени бронь на мероприятие», "book a room for our event")."""
    if _has(words, _BOOKING_STEMS) or _BOOKING_WORDS & set(words):
        return None
    event = _has(words, _EVENT_STEMS) or bool(_EVENT_WORDS & set(words))
    registration = _has(words, _REGISTRATION_STEMS)
    # «сколько записалось», and «сколько заявок», "how many sign-ups": registration by any name
    counting = bool(_COUNT_WORDS & set(words)) and (_has(words, _COUNT_STEMS) or registration)
    if counting and (event or registration or "на" in words or "for" in words):
        return COUNT_REGISTRATIONS, _COUNT_STEMS
    if registration and _has(words, _CLOSE_STEMS):
        return None
    if registration and _has(words, _OPEN_STEMS):
        return OPEN_REGISTRATION, _OPEN_STEMS
    if not event:
        return None
    if _has(words, _CANCEL_STEMS):
        return CANCEL_EVENT, _CANCEL_STEMS
    if _has(words, _CREATE_STEMS):
        return CREATE_EVENT, _CREATE_STEMS
    if _LIST_WORDS & set(words) or words in (["мероприятия"], ["events"]):
        return LIST_EVENTS, ()
    return None


def _slots(text: str, today: date, lang: Lang, said: Utterance) -> Slots:
    toks: tuple[Tok, ...] = analyze(_without_quotes(text))
    return extract_slots(toks, today=today, lang=lang, places=said.places)


def read(said: Utterance, today: date) -> Decision | None:
    """``said`` as an events command, or ``None`` when it is not one."""
    text = said.text.strip()
    words = [w.strip('?!.,()«»"') for w in _without_quotes(text).lower().split()]
    found = _intent([w for w in words if w])
    if found is None:
        return None
    intent, verb = found
    lang = detect_lang(text)
    if verb and denies_verb(words, verb):
        return Decision(intent=Intent.DECLINE, confidence=_SURE, lang=lang)
    details = EventDetails()
    slots = Slots()
    if intent == CREATE_EVENT:
        slots = _slots(text, today, lang, said)
        room = _ROOM.search(_without_quotes(text))
        room_name = f"{room.group(1)}-{room.group(2)}" if room else None
        if room_name is None and slots.room:
            room_name = slots.room[0]
        details = EventDetails(title=_quoted(text), room_name=room_name)
        slots = Slots(
            date=slots.date, start=slots.start, end=slots.end, date_options=slots.date_options
        )
        if slots.date_options:  # a day said two ways that disagree: which one is asked
            return Decision(
                intent=intent, confidence=_SURE, slots=slots, details=details, lang=lang,
                missing=["date"], next_action="clarify",
                clarification_question=which_date(slots.date_options, lang),
            )  # fmt: skip
    elif intent in (OPEN_REGISTRATION, COUNT_REGISTRATIONS, CANCEL_EVENT):
        limit = _limit(text) if intent == OPEN_REGISTRATION else None
        details = EventDetails(event=_named_event(text), limit=limit)
    return Decision(intent=intent, confidence=_SURE, slots=slots, details=details, lang=lang)
