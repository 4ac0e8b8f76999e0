"""What the operator named in a demonstration, and where the site wrote it: a value written
in any of the formats profiles know becomes its template slot («2026-11-27» →
``{date|iso}``); the booking's number and the building's code as the pages showed them."""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from datetime import date, time
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.recording import Recording, Step
from adapters.profile.learn.snapshot import tables
from adapters.profile.parts import Locator
from adapters.profile.template import (
    DATE_FORMATS,
    DATE_PARTS,
    TIME_FORMATS,
    TIME_PARTS,
    parse_date,
    parse_time,
)

__all__ = [
    "named",
    "opened_booking",
    "address_number",
    "booking_number",
    "known_values",
    "written_in_parts",
    "Listed",
    "account",
    "listed_number",
    "building_code",
    "booked_at",
    "clocks_in",
    "date_format",
    "day_step",
    "locators",
    "purpose_typed",
    "relative",
    "templated",
]


def named(
    answers: Mapping[str, str], building: str | None, room_id: str | None = None
) -> list[tuple[str, str]]:
    """(written value, template slot) for every way the named values may be written,
    the longest first (so «2026-11-27» is taken before a «27» inside it). ``room_id``:
    the site's own id of the room, where the site writes that rather than its number."""
    found: list[tuple[str, str]] = []
    if "date" in answers:
        day = date.fromisoformat(answers["date"])
        found += [(write(day), f"{{date|{fmt}}}") for fmt, write in DATE_FORMATS.items()]
    for name in ("start", "end"):
        if name in answers:
            clock = time.fromisoformat(answers[name])
            found += [(write(clock), f"{{{name}|{fmt}}}") for fmt, write in TIME_FORMATS.items()]
    if building:
        found.append((building, "{building}"))
    if room_id:  # before the room's number: where the two are written alike, the id
        found.append((room_id, "{room_id|url}"))
    if "room" in answers:
        found.append((answers["room"], "{room}"))
    unique = {written: slot for written, slot in reversed(found) if written}
    return sorted(unique.items(), key=lambda pair: -len(pair[0]))


# A clock as the profile's reader takes it: 24-hour, or 12-hour with its AM/PM (an
# English MRBS writes «at 4:00 PM»: without the PM, 4:00 would be read).
_CLOCKS = re.compile(r"\d{1,2}[:.]\d{2}(?::\d{2})?(?:\s*[AaPp]\.?[Mm]\b\.?)?")


def clocks_in(text: str) -> list[time]:
    """The times of day ``text`` writes, in order («18:00 → 19:00»: 18:00, 19:00; «at
    4:00 PM»: 16:00)."""
    return [t for t in map(parse_time, _CLOCKS.findall(text)) if t]


def date_format(text: str, day: date) -> str | None:
    """The format in which ``text`` writes ``day`` (None: it does not)."""
    return next((f for f in DATE_FORMATS if parse_date(text, f) == day), None)


def _whole(written: str) -> str:
    """A pattern for ``written`` only where it is not part of a longer number or word
    (a building «1» is not the «1» in «room=17»)."""
    kind = {True: r"\d", False: r"[^\W\d_]"}
    before = f"(?<!{kind[written[0].isdigit()]})" if written[0].isalnum() else ""
    after = f"(?!{kind[written[-1].isdigit()]})" if written[-1].isalnum() else ""
    return before + re.escape(written) + after


def templated(
    text: str, answers: Mapping[str, str], *, building: str | None = None,
    room_id: str | None = None,
) -> str:  # fmt: skip
    """``text`` with every named value written as its template slot (braces doubled)."""
    writings = named(answers, building, room_id)
    if not writings:
        return text.replace("{", "{{").replace("}", "}}")
    pattern = re.compile("|".join(_whole(written) for written, _ in writings))
    slots = dict(writings)
    out, at = [], 0
    for found in pattern.finditer(text):
        out.append(text[at : found.start()].replace("{", "{{").replace("}", "}}"))
        out.append(slots[found.group()])
        at = found.end()
    out.append(text[at:].replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def relative(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def locators(candidates: tuple[Locator, ...]) -> list[dict[str, Any]]:
    return [c.model_dump(exclude_defaults=True) for c in candidates]


def building_code(recording: Recording, answers: Mapping[str, str]) -> str | None:
    """The building's code as the day's page has it in its address: the one query value
    there that is not the day, or of several the one the booked room's name starts
    with («7» of «7/7-704»); None when it is not that plain."""
    day = recording.step("day")
    if day is None:
        return None
    written = {w for w, slot in named(answers, None) if slot.startswith("{date")}
    others = [v for _, v in parse_qsl(urlsplit(day.url).query) if v not in written]
    if len(others) == 1:
        return others[0]
    book = recording.step("book")
    room = book.answers.get("room", "") if book else ""
    first = re.split(r"[/\-.\s]", room, maxsplit=1)[0]
    return first if first and room != first and others.count(first) == 1 else None


def booked_at(
    url: str, before: str = "", explained: Collection[str] = ()
) -> tuple[str, str] | None:
    """The booking's number in its address and the regex that reads it (group 1): the
    path's last number (the whole path, anchored); else, for a page that shows a booking
    over another (its address's query names it), the last number of the query value
    that the page before it (``before``) did not have («modal=booking-details:42») and
    that is none of the values the operator named (``explained``: a day's view after a
    save says «view_all=1» and the building «area=1», not the booking's number)."""
    parts = urlsplit(url)
    path = parts.path
    if numbers := list(re.finditer(r"\d+", path)):
        last = numbers[-1]
        regex = "^" + re.escape(path[: last.start()]) + r"(\d+)" + re.escape(path[last.end() :])
        return last[0], regex + "$"
    had = set(parse_qsl(urlsplit(before).query))
    for key, value in reversed(parse_qsl(parts.query)):
        numbers = list(re.finditer(r"\d+", value))
        # An address inside the address (a «returl») names another page, not this booking.
        if (key, value) in had or not numbers or value in explained or re.search(r"[/?=&]", value):
            continue
        last = numbers[-1]
        return last[0], re.escape(f"{key}={value[: last.start()]}") + r"(\d+)"
    return None


def known_values(recording: Recording) -> set[str]:
    """What an address may say that is not a booking's number: each part of the day and
    the times the operator named (a year, «12», an hour, its seconds), the room, and
    every query value of the addresses reached before the booking was made (the
    building's code, the room's id, a view's flags)."""
    book = recording.step("book")
    answers = book.answers if book else {}
    known = {answers.get("room", "")} | written_in_parts(answers)
    for name in ("start", "end"):
        if name in answers:
            known.add(TIME_FORMATS["seconds"](time.fromisoformat(answers[name])))
    day_step = recording.step("day")
    before = [day_step.url] if day_step else []
    if book is not None:
        pages = [a.url for a in book.actions if a.kind == "navigate"]
        before += pages[:-1]
    for url in before:
        known |= {value for _, value in parse_qsl(urlsplit(url).query)}
    return known - {""}


def written_in_parts(answers: Mapping[str, str]) -> set[str]:
    """The named day and times as an address may write them in parts, one value each
    (the template's ``DATE_PARTS`` and ``TIME_PARTS``: «2026», «12», «03», «18», «0»)."""
    found: set[str] = set()
    if "date" in answers:
        day = date.fromisoformat(answers["date"])
        found |= {write(day) for write in DATE_PARTS.values()}
    for name in ("start", "end"):
        if name in answers:
            clock = time.fromisoformat(answers[name])
            found |= {write(clock) for write in TIME_PARTS.values()}
    return found


def address_number(recording: Recording) -> tuple[str, str] | None:
    """The number in the address the booking's form led to, with the regex reading it
    (None: that address names none)."""
    step = recording.step("book")
    reached = [a.url for a in step.actions if a.kind == "navigate"] if step else []
    if not reached:
        return None
    before = next((u for u in reversed(reached) if u != reached[-1]), "")
    return booked_at(reached[-1], before, known_values(recording))


@dataclass(frozen=True)
class Listed:
    """A booking's number as a list's link names it."""

    number: str
    column: str  # the column of the link
    regex: str  # reads the number from the link's address (group 1)
    url: str  # the link's address, as the page wrote it
    key: str | None = None  # the query's key holding it (None: the path holds it)


def listed_number(recording: Recording) -> Listed | None:
    """Where no address the form led to names the booking (the save went back to a day's
    view): its number as «my bookings» links to it — the number, the column of the link
    holding it, and the regex reading it from the link. The number is the link's value
    that none of the operator's named values explains («id=6», not «day=12»); failing
    that, the value of a key no address had before the booking existed."""
    book, listed = recording.step("book"), recording.step("my_bookings")
    if book is None or listed is None:
        return None
    purpose = purpose_typed(book)
    known = known_values(recording)
    day_step = recording.step("day")
    pages = [day_step.url] if day_step else []
    pages += [a.url for a in book.actions if a.kind == "navigate"]
    old_keys = {key for url in pages for key, _ in parse_qsl(urlsplit(url).query)}
    found: list[tuple[bool, Listed]] = []  # explained by the named values, and where
    for table in tables(listed.snapshot):
        for row in table.rows:
            if purpose not in [cell.text for cell in row] or len(row) != len(table.heads):
                continue
            for head, cell in zip(table.heads, row, strict=True):
                parts = urlsplit(cell.url)
                for key, value in parse_qsl(parts.query):
                    if value.isdigit():
                        explained = value in known and key in old_keys
                        regex = rf"[?&]{re.escape(key)}=(\d+)"
                        found.append((explained, Listed(value, head, regex, cell.url, key)))
                if numbers := list(re.finditer(r"\d+", parts.path)):
                    last = numbers[-1]
                    regex = re.escape(parts.path[: last.start()]) + r"(\d+)"
                    found.append((last[0] in known, Listed(last[0], head, regex, cell.url)))
    plain = [f for e, f in found if not e and f.number not in known] or [
        f for e, f in found if not e
    ]
    return plain[0] if plain else None


def booking_number(recording: Recording) -> str:
    """The booking's number: in the address its form led to, else as «my bookings» links
    to it."""
    found = address_number(recording)
    if found is not None:
        return found[0]
    if listed := listed_number(recording):
        return listed.number
    raise DraftError(
        "Номер брони не виден ни в её адресе, ни в ссылке на неё в «моих бронях»: "
        "покажите бронь ещё раз"
    )


def account(recording: Recording) -> str | None:
    """The login the operator typed: the last text typed before the password."""
    step = recording.step("login")
    actions = list(step.actions) if step else []
    secret = next((i for i, a in enumerate(actions) if a.secret), None)
    typed = [a.value for a in actions[:secret] if a.kind == "fill" and a.value] if secret else []
    return typed[-1] if typed else None


def purpose_typed(step: Step) -> str:
    """The booking's purpose: the last text the operator typed that is none of the
    values they named (a search's day, times and room are typed too)."""
    typed = [a.value for a in step.actions if a.kind == "fill" and a.value]
    free = [v for v in typed if "{" not in templated(v, step.answers)]
    return free[-1] if free else ""


def day_step(recording: Recording) -> Step:
    """The step that showed a day's rooms, with the day named."""
    step = recording.step("day")
    if step is None or "date" not in step.answers:
        raise DraftError("Занятость аудиторий не показана: откройте её ещё раз")
    return step


def opened_booking(recording: Recording) -> tuple[int, str] | None:
    """Where the cancel step opened the booking's own page by a click that sent nothing
    (a list's item leading to it): the index of that page among the step's actions and
    the regex reading the number from its address. None when it did not."""
    step = recording.step("cancel")
    actions = step.actions if step else ()
    number = booking_number(recording) if step else ""
    for at, action in enumerate(actions[1:], start=1):
        if action.kind != "navigate" or actions[at - 1].kind != "click":
            continue
        if step is not None and any(r.after == at for r in step.requests):
            continue  # a change sent on the way: the page after a cancel, not its opening
        found = booked_at(action.url, actions[at - 1].url)
        if found is not None and found[0] == number:
            return at, found[1]
    return None
