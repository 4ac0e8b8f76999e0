"""Drafting the parts read from pages (from their accessibility snapshots): the rules the
day's page states, and «my bookings». Which column holds what is told by the values of
the booking the operator made. (The day's building drop-down:
``adapters.profile.learn.catalogue``; its grid: ``adapters.profile.learn.daygrid``; a
booking's own page: ``adapters.profile.learn.bookingpage``.)"""

from __future__ import annotations

import copy
import re
from datetime import date, time
from typing import Any
from urllib.parse import urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.catalogue import building_names
from adapters.profile.learn.recording import Action, Recording, Step
from adapters.profile.learn.snapshot import tables, texts
from adapters.profile.learn.timeline import room_shape
from adapters.profile.learn.values import (
    account,
    booking_number,
    building_code,
    clocks_in,
    date_format,
    day_step,
    listed_number,
    locators,
    opened_booking,
    purpose_typed,
    relative,
    templated,
)

__all__ = [
    "draft_my_bookings",
    "draft_rules",
    "list_press",
    "page_rules",
    "unread_rules",
    "written_rules",
]


def _fields(
    pieces: list[tuple[dict[str, str], str]],
    *,
    recording: Recording,
    number: str,
    purpose: str,
) -> dict[str, dict[str, str]]:
    """Which piece of a listed booking (each with where it is: a column, a CSS path) is
    which field, told by the booking's values: its number, the day in a date format, the
    times, the room, the purpose typed, the building's name; else the one other piece
    with text (not the cancel control's) is the building."""
    book = recording.step("book")
    answers = book.answers if book else {}
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    # The cancel control (its text is the control's name) is not a field.
    cancel = recording.step("cancel")
    controls = {c.name for a in (cancel.actions if cancel else ()) for c in a.candidates if c.name}
    building = building_names(recording, answers)
    login = account(recording)
    picks: dict[str, dict[str, str]] = {}
    others = []
    for where, text in pieces:
        clocks, fmt = clocks_in(text), date_format(text, day)
        if text == number:
            picks.setdefault("number", where)
        elif text == purpose:
            picks.setdefault("purpose", where)
        elif text == answers["room"]:
            # A name in parts («7/7-704»): the number is its last part, the building its first.
            shape = room_shape(text, building_code(recording, answers))
            picks.setdefault("room", {**where, "regex": shape.number} if shape else where)
            if shape is not None and shape.building is not None:
                picks.setdefault("building", {**where, "regex": shape.building})
        elif clocks[:2] == [start, end]:
            picks.setdefault("time", {**where, "format": "span"})
        elif fmt is not None:
            picks.setdefault("date", {**where, "format": fmt})
        elif text in building:
            picks.setdefault("building", where)
        elif login and re.search(rf"(?<!\w){re.escape(login)}(?!\w)", text, re.IGNORECASE):
            # Who made it («club (Клуб робототехники)»): a list that may show others'
            # bookings too (a search for the login) keeps the account's own rows.
            first = text.split()[0].lower() == login.lower()
            owner = (
                {}
                if text.lower() == login.lower()
                else {"regex": r"^(\S+)" if first else r"(\S+)$"}
            )
            picks.setdefault("owner", {**where, **owner})
        elif text and text not in controls and len(text.split()) <= 3:
            others.append(where)  # a building's name is short: not «Booked for …»
    if len(others) == 1:
        picks.setdefault("building", others[0])
    order = ("number", "building", "room", "date", "time", "start", "purpose", "owner")
    return {k: picks[k] for k in order if k in picks}


_NEEDED = {"number", "date", "time", "purpose"}


def list_press(recording: Recording) -> tuple[str, Action] | None:
    """Where «my bookings» was reached by a press that sent a form (a search posted by a
    button on every page, MRBS's): a page showing that button — the day's page, where
    it shows there — and the press. None: the list has an address of its own."""
    step = recording.step("my_bookings")
    if step is None:
        return None
    list_path = urlsplit(step.url).path
    pressed = next(
        (
            step.actions[r.after - 1]
            for r in step.requests
            if r.after > 0
            and urlsplit(r.url).path == list_path
            and step.actions[r.after - 1].kind == "click"
            and step.actions[r.after - 1].candidates
        ),
        None,
    )
    if pressed is None:
        return None
    day = recording.step("day")
    names = {c.name for c in pressed.candidates if c.name}
    on_day = day is not None and any(f'"{name}"' in day.snapshot for name in names)
    return urlsplit(day.url if day is not None and on_day else pressed.url).path, pressed


def _list_opened(recording: Recording, step: Step) -> dict[str, Any]:
    """How «my bookings» is opened: its address; or the page with the button that posts
    it, the press, and a wait for the rows the list's scripts fetch after the page (or
    for what the list said once the booking was cancelled, where it then had none)."""
    press = list_press(recording)
    if press is None:
        return {"url": templated(relative(step.url), {})}
    after: list[dict[str, Any]] = [{"css": "table tbody tr:has(a)"}]
    if empty := _empty(recording, step):
        after.append(copy.deepcopy(empty))
    return {"url": press[0], "submit": locators(press[1].candidates), "after": after}


def _empty(recording: Recording, step: Step) -> dict[str, Any] | None:
    """What «my bookings» said once the booking was cancelled, where it then showed no
    table: the words it had not shown with the booking in it."""
    cancel = recording.step("cancel")
    if cancel is None or not cancel.relisted or tables(cancel.relisted):
        return None
    before = {words for _, words in texts(step.snapshot)}
    said = [w for _, w in texts(cancel.relisted) if w not in before and len(w.split()) <= 8]
    return {"text": said[0].rstrip(" ."), "exact": False} if said else None


def draft_my_bookings(recording: Recording) -> dict[str, Any]:
    """The ``my_bookings`` part from the step that showed «my bookings»: the table whose
    row holds the booking made, its columns told by that row's values; or, where the
    operator showed the list by two examples, its items, their pieces told the same way."""
    step, book = recording.step("my_bookings"), recording.step("book")
    if step is None or book is None:
        raise DraftError("«Мои брони» не показаны: откройте их ещё раз")
    purpose = purpose_typed(book)
    number = booking_number(recording)
    opened: dict[str, Any] = _list_opened(recording, step)
    shown = step.lists.get("my_bookings")
    if shown is not None:  # what the operator showed comes first
        pieces: list[tuple[dict[str, str], str]] = [
            ({"css": piece.css}, piece.text) for piece in shown.texts
        ]
        if shown.heading is not None:  # the title the item sits under: its day, maybe
            pieces.append(({"of": "group", "css": shown.heading.css}, shown.heading.text))
        picks = _fields(pieces, recording=recording, number=number, purpose=purpose)
        if "number" not in picks and (reached := opened_booking(recording)):
            # No number in the list: the address its item leads to has it.
            picks = {"number": {"of": "address", "regex": reached[1]}, **picks}
        if picks.keys() >= _NEEDED:
            # Items may be drawn by the page's script: read once its fetches are done
            # (the list, or whatever an empty one shows: the page).
            opened["wait"] = [{"css": shown.css}, {"css": "body"}]
            return {"open": opened, "items": [{"css": shown.css}], **picks}
    linked = listed_number(recording)  # where no address the form led to named it
    shown_tables = tables(step.snapshot)
    for at, table in enumerate(shown_tables):
        rows = [[cell.text for cell in row] for row in table.rows]
        row = next((r for r in rows if purpose in r and (number in r or linked)), None)
        if row is None or len(table.heads) != len(row):
            continue
        columns = [({"column": head}, text) for head, text in zip(table.heads, row, strict=True)]
        picks = _fields(columns, recording=recording, number=number, purpose=purpose)
        if "number" not in picks and linked is not None and linked.column in table.heads:
            picks["number"] = {"column": linked.column, "css": "a@href", "regex": linked.regex}
        texts = {where["column"]: text for where, text in columns}
        start = time.fromisoformat(book.answers["start"])
        dated = texts.get(picks["date"]["column"], "") if "date" in picks else ""
        if "time" not in picks and clocks_in(dated)[:1] == [start]:
            # A start with no end («…, 12 декабря 2026 г. в 18:00»): the end is read from
            # the booking's own page.
            picks["start"] = {"column": picks["date"]["column"], "format": "hhmm"}
        if picks.keys() >= _NEEDED or picks.keys() >= _NEEDED - {"time"} | {"start"}:
            # An unnamed table is found by its role alone (the page's first table).
            found = {"role": "table", "name": table.name} if table.name else {"role": "table"}
            if not table.name and at > 0:
                # Tables before it with no row (a header a script drew apart, DataTables'):
                # the first table with data cells.
                if any(t.rows for t in shown_tables[:at]):
                    raise DraftError("В «моих бронях» несколько таблиц: черновик не знает, какая")
                found = {"css": "table:has(td)"}
            said = _empty(recording, step)
            empty = {"empty": [said]} if said else {}
            return {"open": opened, "table": [found], **empty, **picks}
    raise DraftError("В «моих бронях» не видно таблицы со сделанной бронью: откройте их ещё раз")


# Opening hours as a page writes them: «08:00–22:00», «с 08:00 до 22:00», «from 8:00 to 22:00».
_HOURS = re.compile(
    r"(\d{1,2}:\d{2})\s*(?:[–—-]|до|по|to|till|until)\s*(\d{1,2}:\d{2})", re.IGNORECASE
)


def draft_rules(recording: Recording) -> dict[str, Any]:
    """The ``rules`` part as the day's page states them in words («08:00–22:00, шаг 30
    минут, не более 4 часов, на 14 дней вперёд»), else as the operator wrote them when
    asked; what neither says is left to the defaults (docs/profiles.md), to be checked."""
    step = day_step(recording)
    return page_rules(step.snapshot) or written_rules(step.answers.get("rules", ""))


def page_rules(snapshot: str) -> dict[str, Any]:
    """The rules a page's line with a step and opening hours states."""
    rules: dict[str, Any] = {}
    for line in snapshot.splitlines():
        if re.search(r"шаг|step", line, re.IGNORECASE) and _HOURS.search(line):
            rules |= written_rules(line)
    return rules


def written_rules(line: str) -> dict[str, Any]:
    """The rules one line states, each part on its own: the hours, the step, the longest
    booking, how many days ahead."""
    rules: dict[str, Any] = dict(_stated(line))
    if "longest_minutes" not in rules and _NO_LONGEST.search(line):
        rules["longest_minutes"] = None  # the site sets no longest booking
    if hours := _HOURS.search(line):
        rules["opens"], rules["closes"] = hours[1], hours[2]
    return rules


def unread_rules(line: str) -> list[str]:
    """The pieces of a line of rules (between commas) that say none of the rules: read
    whole, or asked again, never dropped («на 3 недели» once was)."""
    pieces = (piece.strip(" .") for piece in re.split(r"[,;]", line))
    return [piece for piece in pieces if piece and not written_rules(piece)]


_NO_LONGEST = re.compile(
    r"без\s+ограничени\w*\s+(?:по\s+)?(?:длительност|продолжительност|длин)"
    r"|no\s+(?:longest|length\s+limit|limit\s+on\s+(?:the\s+)?length)",
    re.I,
)
_DAYS = r"(?:дн|день|дня|сут|day)"
_WEEKS = r"(?:недел|week)"


def _stated(line: str) -> dict[str, int]:
    stated: dict[str, int] = {}
    if step := re.search(r"шаг\D{0,20}(\d+)\s*мин|step\D{0,20}(\d+)\s*min", line, re.I):
        stated["step_minutes"] = int(step[1] or step[2])
    if longest := re.search(r"(\d+)\s*(час|hour)", line, re.I):
        stated["longest_minutes"] = int(longest[1]) * 60
    elif longest := re.search(
        r"(?:не более|at most)\s*(\d+)\s*min|не более\s*(\d+)\s*мин", line, re.I
    ):
        stated["longest_minutes"] = int(longest[1] or longest[2])
    if ahead := re.search(rf"(\d+)\s*{_DAYS}", line, re.I):
        stated["horizon_days"] = int(ahead[1])
    elif ahead := re.search(rf"(\d+)\s*{_WEEKS}", line, re.I):
        stated["horizon_days"] = int(ahead[1]) * 7
    return stated
