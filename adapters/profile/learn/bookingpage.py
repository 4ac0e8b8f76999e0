"""Drafting a booking's own page (``booking_page``): where the form led once the booking
was made. Its fields are told by the values the operator named: from its «term: value»
pairs where it has them (a server-drawn page), else from the pieces of text it showed
(a modal drawn by the site's script, ``adapters.profile.learn.pieces``), each read by
the CSS that found it alone. How the page shows a cancelled booking is what the cancel
step's page showed that the booking's did not."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from datetime import date, time
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.catalogue import building_names
from adapters.profile.learn.recording import PickedText, Recording, Step
from adapters.profile.learn.snapshot import terms, texts
from adapters.profile.learn.timeline import room_shape
from adapters.profile.learn.values import (
    booking_number,
    building_code,
    clocks_in,
    date_format,
    opened_booking,
    purpose_typed,
    templated,
)

__all__ = ["booking_page_step", "draft_booking_page"]


def _words(room: str) -> str:
    """A pattern for as many words as the room's name has: «101» one, «Room N-113» two
    (the building's name before it may have any number)."""
    return r"\S+" + r"\s+\S+" * (len(room.split()) - 1)


def _which(
    text: str, *, answers: Mapping[str, str], purpose: str
) -> tuple[str, dict[str, str]] | None:
    """Which of a booking's fields ``text`` shows, and how it is read (None: not one, or
    only the date and a time of the two: ``_times`` reads those)."""
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    room = answers["room"]
    if text == purpose:
        return "purpose", {}
    if text == room:
        return "room", {}
    if text.startswith(room + " "):
        return "room", {"regex": rf"^\s*({_words(room)})"}
    if text.endswith(" " + room):  # after the building's name («Главный корпус - 101»)
        return "room", {"regex": rf"({_words(room)})$"}
    if clocks_in(text)[:2] == [start, end]:
        return "time", {"format": "span"}
    if (fmt := date_format(text, day)) is not None and clocks_in(text) == []:
        return "date", {"format": fmt}
    return None


def _times(text: str, *, answers: Mapping[str, str]) -> dict[str, dict[str, str]]:
    """The date and the start or the end, where a value holds both («суббота, 12 декабря
    2026 г. в 18:00»: the start; the end in a row of its own)."""
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    fmt, clocks = date_format(text, day), clocks_in(text)
    found: dict[str, dict[str, str]] = {}
    if fmt is not None and clocks:
        found["date"] = {"format": fmt}
    if clocks == [start]:
        found["start"] = {"format": "hhmm"}
    elif clocks == [end]:
        found["end"] = {"format": "hhmm"}
    return found


def _by_terms(recording: Recording, book: Step, purpose: str) -> dict[str, dict[str, str]]:
    """The fields by the page's «term: value» pairs; the building is the pair holding the
    building's name (as the day's drop-down has it) — alone, or before the room's —,
    else the one other pair that is not a count."""
    building = building_names(recording, book.answers)
    room = book.answers["room"]
    picks: dict[str, dict[str, str]] = {}
    others = []
    for term, text in terms(book.snapshot).items():
        which = _which(text, answers=book.answers, purpose=purpose)
        if which is None:
            times = _times(text, answers=book.answers)
            for field, how in times.items():
                picks.setdefault(field, {"term": term, **how})
            if not times and text in building:
                picks.setdefault("building", {"term": term})
            elif not times and not text.isdigit():
                others.append(term)
            continue
        picks.setdefault(which[0], {"term": term, **which[1]})
        named = text[: -len(room)].rstrip(" -–—/,") if which[0] == "room" else ""
        if named and named in building:
            between = rf"^(.*?)\s*[-–—/,]?\s*{_words(room)}$"
            picks.setdefault("building", {"term": term, "regex": between})
    if len(others) == 1:
        picks.setdefault("building", {"term": others[0]})
    return picks


def _smallest(pieces: tuple[PickedText, ...], holds: Callable[[str], bool]) -> PickedText | None:
    """The piece with the fewest words that ``holds`` (the innermost of equals)."""
    found = [p for p in pieces if holds(p.text)]
    return min(reversed(found), key=lambda p: len(p.text)) if found else None


def _by_pieces(recording: Recording, book: Step, purpose: str) -> dict[str, dict[str, str]]:
    """The fields by the pieces of text the page showed: each the innermost piece holding
    the value named (the room by its name's first word, read by its parts where it has
    them; the building from the room's name, or a piece holding the building's name;
    the purpose after a heading such as «Booking reason», where one is in the piece)."""
    answers = book.answers
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])

    picks: dict[str, dict[str, str]] = {}
    room = _smallest(book.pieces, lambda t: t.split(" ")[0] == answers["room"])
    if room is not None:
        shape = room_shape(room.text, building_code(recording, answers))
        picks["room"] = {"css": room.css, "regex": shape.number if shape else r"^\s*(\S+)"}
        if shape is not None and shape.building is not None:
            picks["building"] = {"css": room.css, "regex": shape.building}
    names = building_names(recording, answers)
    if "building" not in picks and (held := _smallest(book.pieces, lambda t: t in names)):
        picks["building"] = {"css": held.css}
    if spanned := _smallest(book.pieces, lambda t: clocks_in(t)[:2] == [start, end]):
        picks["time"] = {"css": spanned.css, "format": "span"}
    if dated := _smallest(book.pieces, lambda t: date_format(t, day) is not None):
        picks["date"] = {"css": dated.css, "format": date_format(dated.text, day) or ""}
    if purpose and (said := _smallest(book.pieces, lambda t: t.endswith(purpose))):
        heading = said.text[: -len(purpose)].strip()
        regex = {"regex": "^" + re.escape(heading) + r"\s*(.*)$"} if heading else {}
        picks["purpose"] = {"css": said.css, **regex}
    return picks


def _address(book: Step, number: str) -> str:
    """The booking page's address with its number as ``{number}``: the path holding it,
    or the path and the one query pair holding it («?modal=booking-details:{number}»:
    a booking shown over another page)."""
    parts = urlsplit(book.url)
    if number in parts.path:
        at = parts.path.rfind(number)
        after = parts.path[at + len(number) :]
        return templated(parts.path[:at], {}) + "{number}" + templated(after, {})
    for key, value in reversed(parse_qsl(parts.query)):  # the pair the link added: last
        if re.search(r"[/?=&]", value):
            continue  # an address inside it (a «returl»): another page's
        if re.search(rf"(?<!\d){re.escape(number)}(?!\d)", value):
            at = value.rfind(number)
            shown = templated(f"{key}={value[:at]}", {})
            return f"{parts.path}?{shown}{{number}}{templated(value[at + len(number) :], {})}"
    raise DraftError("Номер брони не виден в её адресе: покажите бронь ещё раз")


_CANCELLED = re.compile(r"cancel|отмен|annul|storn", re.IGNORECASE)


def _cancelled(recording: Recording, book: Step) -> dict[str, str] | None:
    """How the page shows the booking cancelled: what the cancel step's page showed
    that the booking's did not, in a few words saying so («Cancelled», «Отменена»)."""
    cancel = recording.step("cancel")
    if cancel is None or not cancel.pieces:
        return None
    before = {p.css for p in book.pieces}
    new = [
        p for p in cancel.pieces
        if p.css not in before and _CANCELLED.search(p.text) and len(p.text.split()) <= 3
    ]  # fmt: skip
    return {"has": min(new, key=lambda p: len(p.text)).css} if new else None


def _complete(picks: Mapping[str, object]) -> bool:
    """Every field read: the times as a span, or the start and the end apart."""
    times = "time" in picks or {"start", "end"} <= picks.keys()
    return times and {"building", "room", "date", "purpose"} <= picks.keys()


def booking_page_step(recording: Recording) -> Step | None:
    """The booking's own page: the one its form led to, or, where the save led elsewhere
    (back to the day), the one the operator opened from «my bookings» — with the values
    the operator named for the booking."""
    book, opened = recording.step("book"), recording.step("opened")
    if book is None or opened is None:
        return book
    return opened.model_copy(update={"answers": book.answers})


def _gone(recording: Recording, page: Step, purpose: str) -> dict[str, Any] | None:
    """How a site that deletes a booking outright says so on its page: what the page
    showed, opened again once the booking was cancelled, that it did not before — the
    booking's purpose gone from it."""
    cancel = recording.step("cancel")
    if cancel is None or not cancel.revisited or (purpose and purpose in cancel.revisited):
        return None
    before = {words for _, words in texts(page.snapshot)}
    said = [w for _, w in texts(cancel.revisited) if w not in before and len(w.split()) <= 8]
    return {"missing": [{"text": said[0].rstrip(" ."), "exact": False}]} if said else None


def draft_booking_page(recording: Recording) -> dict[str, Any]:
    """The ``booking_page`` part from the booking's own page: its address with the number
    as ``{number}`` and its fields; a page drawn by script is waited for (its room's
    piece), and where the cancel was pressed on it, how it shows a cancelled booking (or,
    for a site that deletes one, how the page says there is none)."""
    book = booking_page_step(recording)
    if book is None:
        raise DraftError("Бронь не показана")
    number = booking_number(recording)
    purpose = purpose_typed(recording.step("book") or book)
    picks = _by_terms(recording, book, purpose)
    drawn = not _complete(picks) and "room" not in picks and book.pieces
    if not _complete(picks) and book.pieces:
        # Drawn by script (a modal), or a field outside the pairs (the purpose as a title).
        picks = _by_pieces(recording, book, purpose) | picks
    if not _complete(picks):
        raise DraftError(
            "На странице брони не видно всех её данных: после брони оставьте открытой её "
            "страницу и покажите бронь ещё раз"
        )
    drafted: dict[str, Any] = {"url": _address(book, number)}
    if drawn:
        drafted["wait"] = [{"css": picks["room"]["css"]}]
    order = ("building", "room", "date", "time", "start", "end", "purpose")
    drafted |= {k: picks[k] for k in order if k in picks}
    if opened_booking(recording) is not None or recording.step("opened") is not None:
        # Cancelled on this page: it shows the booking cancelled, or says it is gone.
        if (cancelled := _cancelled(recording, book)) is not None:
            drafted["cancelled"] = cancelled
        elif (gone := _gone(recording, book, purpose)) is not None:
            drafted |= gone
        else:
            raise DraftError(
                "Не видно, как страница брони показывает отменённую бронь: отмените бронь "
                "на её странице и оставьте страницу открытой"
            )
    return drafted
