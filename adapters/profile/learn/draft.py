"""From a demonstration to a profile's parts: what the operator named (the day, the
times, the room) becomes a template variable wherever the site wrote it, in any of the
formats profiles know; everything else stays as the site had it.

Today this drafts ``login``, ``book``, ``booking_page`` («term: value» pairs),
``my_bookings`` (a table) and ``cancel``; the other parts are written by hand from the
recording (its snapshots show each page).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, time
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import yaml

from adapters.profile.learn.recording import Action, FormField, Recording, SentForm, Step
from adapters.profile.parts import Locator
from adapters.profile.template import DATE_FORMATS, TIME_FORMATS, parse_date, parse_time
from core.errors import ClubError

__all__ = [
    "DraftError",
    "draft_book",
    "draft_booking_page",
    "draft_cancel",
    "draft_login",
    "draft_my_bookings",
    "draft_parts",
    "draft_profile",
    "templated",
]


class DraftError(ClubError):
    """The demonstration lacks what a part needs (the step is to be shown again)."""


def _named(answers: Mapping[str, str], building: str | None) -> list[tuple[str, str]]:
    """(written value, template slot) for every way the named values may be written,
    the longest first (so «2026-11-27» is taken before a «27» inside it)."""
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
    if "room" in answers:
        found.append((answers["room"], "{room}"))
    unique = {written: slot for written, slot in reversed(found) if written}
    return sorted(unique.items(), key=lambda pair: -len(pair[0]))


def templated(text: str, answers: Mapping[str, str], *, building: str | None = None) -> str:
    """``text`` with every named value written as its template slot (braces doubled)."""
    named = _named(answers, building)
    if not named:
        return text.replace("{", "{{").replace("}", "}}")
    pattern = re.compile("|".join(re.escape(written) for written, _ in named))
    slots = dict(named)
    out, at = [], 0
    for found in pattern.finditer(text):
        out.append(text[at : found.start()].replace("{", "{{").replace("}", "}}"))
        out.append(slots[found.group()])
        at = found.end()
    out.append(text[at:].replace("{", "{{").replace("}", "}}"))
    return "".join(out)


def _relative(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def _locators(candidates: tuple[Locator, ...]) -> list[dict[str, Any]]:
    return [c.model_dump(exclude_defaults=True) for c in candidates]


def _building(recording: Recording, answers: Mapping[str, str]) -> str | None:
    """The building's code as the day's page has it in its address: the one query value
    there that is not the day (None when it is not that plain)."""
    day = recording.step("day")
    if day is None:
        return None
    written = {w for w, slot in _named(answers, None) if slot.startswith("{date")}
    others = [v for _, v in parse_qsl(urlsplit(day.url).query) if v not in written]
    return others[0] if len(others) == 1 else None


def _the_form(step: Step) -> SentForm:
    if not step.forms:
        raise DraftError("В показе брони не видно отправленной формы: покажите бронь ещё раз")
    return step.forms[-1]


def _field(field: FormField, answers: Mapping[str, str], building: str | None) -> dict[str, Any]:
    value = templated(field.value or "", answers, building=building)
    how = "select" if field.control == "select" else "fill"
    find = _locators(field.candidates) or [{"css": f'[name="{field.name}"]'}]
    return {"find": find, how: value}


def _submit(step: Step) -> list[dict[str, Any]]:
    clicks = [a for a in step.actions if a.kind == "click" and a.candidates]
    if not clicks:
        raise DraftError("В показе брони не видно нажатия кнопки: покажите бронь ещё раз")
    return _locators(clicks[-1].candidates)


def _after(step: Step) -> Action:
    """Where the form led: the last page reached in the step."""
    reached = [a for a in step.actions if a.kind == "navigate"]
    if not reached:
        raise DraftError("После брони сайт не открыл страницу брони: покажите бронь ещё раз")
    return reached[-1]


def draft_book(recording: Recording) -> dict[str, Any]:
    """The ``book`` part from the demonstration's booking step (a mapping, as YAML has it).

    Fields are the form's as sent: each one the operator's named values went into becomes
    a template; the free text the operator typed becomes ``{purpose}``; hidden fields
    are the site's to fill (left alone). The booking's address is the page the form led
    to, with its number as the regex group."""
    step = recording.step("book")
    if step is None:
        raise DraftError("Бронь не показана")
    answers = step.answers
    building = _building(recording, answers)
    form = _the_form(step)
    typed = {a.value for a in step.actions if a.kind == "fill" and a.value}
    fields = []
    for field in form.fields:
        if field.hidden or field.value is None:
            continue  # the site's own (a room id, a token): it fills them
        drafted = _field(field, answers, building)
        if field.value in typed and "{" not in field.value:
            drafted["fill"] = "{purpose}"  # free text the operator typed: the purpose
        elif not field.value:
            drafted["optional"] = True  # left empty: filled only when there is a value
        fields.append(drafted)
    if [f.get("fill") for f in fields].count("{purpose}") != 1:
        raise DraftError(
            "Не видно поля цели брони: впишите цель в её поле (только в него) и покажите бронь "
            "снова"
        )
    path = urlsplit(_after(step).url).path
    numbers = list(re.finditer(r"\d+", path))
    if not numbers:
        raise DraftError("Адрес брони без номера: черновик не знает, как её найти")
    last = numbers[-1]
    booked = "^" + re.escape(path[: last.start()]) + r"(\d+)" + re.escape(path[last.end() :]) + "$"
    opened = next((a for a in step.actions if a.kind == "navigate"), None)
    if opened is None or opened is _after(step):
        raise DraftError("Не видно страницы с формой брони: покажите бронь ещё раз")
    return {
        "open": {"url": templated(_relative(opened.url), answers, building=building)},
        "form": _submit(step),
        "fields": fields,
        "submit": _submit(step),
        "booked": booked,
        "outcome": _outcome(recording),
    }


_ALERT = re.compile(r'^ *- alert(?: "(?P<name>[^"]*)")?:? ?(?P<text>.*)$', re.MULTILINE)


def _outcome(recording: Recording) -> dict[str, Any]:
    """How the site says no, as the operator's second booking of the same slot showed it:
    the alert's words (up to the first stop, without the room or times) mean the slot is
    taken; any other message is a refusal."""
    refused = recording.step("refused")
    shown = _ALERT.search(refused.snapshot) if refused else None
    words = ((shown["text"] or shown["name"] or "") if shown else "").strip().strip('"')
    words = re.split(r"[.:!;(]", words, maxsplit=1)[0].strip()
    if refused is None or not words:
        raise DraftError(
            "Не видно, как сайт отказывает: забронируйте то же время ещё раз и дождитесь "
            "сообщения сайта"
        )
    return {
        "message": [{"role": "alert"}],
        "refusals": [{"text": words, "error": "slot_taken"}],
        "otherwise": "rejected",
    }


def draft_login(recording: Recording) -> dict[str, Any]:
    """The ``login`` part from the demonstration's login step: the page the password was
    typed on, the field typed just before it (the username), the button pressed after."""
    step = recording.step("login")
    secret = next((a for a in step.actions if a.secret), None) if step else None
    if step is None or secret is None:
        raise DraftError("Вход не показан: войдите на сайт ещё раз")
    at = step.actions.index(secret)
    username = next(
        (a for a in reversed(step.actions[:at]) if a.kind == "fill" and a.candidates), None
    )
    pressed = next((a for a in step.actions[at:] if a.kind == "click" and a.candidates), None)
    if username is None or pressed is None:
        raise DraftError(
            "Не видно поля логина или кнопки входа: войдите ещё раз, нажав кнопку входа"
        )
    page = urlsplit(secret.url).path
    return {
        "open": {"url": templated(_relative(secret.url), {})},
        "username": _locators(username.candidates),
        "password": _locators(secret.candidates),
        "submit": _locators(pressed.candidates),
        "page": "^" + re.escape(page),
        # A failed login was not shown: the usual places of an error, any message a refusal.
        "failure": {
            "message": [{"role": "alert"}, {"css": ".error, .alert, .errors, .message-text"}],
            "refusals": [{"status": 429, "error": "locked"}],
            "otherwise": "wrong_password",
        },
    }


def draft_cancel(recording: Recording) -> dict[str, Any]:
    """The ``cancel`` part from the demonstration's cancel step: the control pressed in
    «my bookings», and how it was confirmed (the browser's own question, or a dialog's
    button pressed after it)."""
    step = recording.step("cancel")
    clicks = [a for a in step.actions if a.kind == "click" and a.candidates] if step else []
    if step is None or not clicks:
        raise DraftError("Отмена не показана: отмените бронь на сайте ещё раз")
    confirm: str | list[dict[str, Any]] = "none"
    if "confirm" in step.dialogs:
        confirm = "native"
    elif len(clicks) > 1:
        confirm = _locators(clicks[-1].candidates)
    return {"control": _locators(clicks[0].candidates), "confirm": confirm}


_TABLE = re.compile(r"""^(?P<indent> *)- '?table "(?P<name>[^"]*)"'?""", re.MULTILINE)
_LINE = re.compile(
    r"^(?P<indent> *)- (?P<role>columnheader|rowheader|row|cell|link)"
    r'(?: "(?P<text>(?:[^"\\]|\\.)*)")?'
)


@dataclass(frozen=True)
class _Cell:
    text: str
    header: bool = False  # a row's header cell
    link: bool = False  # holds a link


def _tables(snapshot: str) -> list[tuple[str, list[str], list[list[_Cell]]]]:
    """Each named table of an accessibility snapshot: its name, column titles, rows."""
    found = []
    lines = snapshot.splitlines()
    for match in _TABLE.finditer(snapshot):
        start = snapshot.count("\n", 0, match.start())
        depth = len(match["indent"])
        heads: list[str] = []
        rows: list[list[_Cell]] = []
        for line in lines[start + 1 :]:
            if len(line) - len(line.lstrip(" ")) <= depth:
                break  # the table's block ended
            item = _LINE.match(line)
            if item is None:
                continue
            role, text = item["role"], item["text"] or ""
            if role == "columnheader":
                heads.append(text)
            elif role == "row":
                rows.append([])
            elif role == "link" and rows and rows[-1]:
                rows[-1][-1] = _Cell(rows[-1][-1].text, rows[-1][-1].header, link=True)
            elif rows and role in ("cell", "rowheader"):
                rows[-1].append(_Cell(text, header=role == "rowheader"))
        found.append((match["name"], heads, [row for row in rows if row]))
    return found


_TERM = re.compile(r"^ *- term: (?P<text>.+)$")
_VALUE = re.compile(r"^ *- (?:definition|[a-z]+): (?P<text>.+)$")


def _terms(snapshot: str) -> dict[str, str]:
    """The «term: value» pairs of an accessibility snapshot (a value may sit one level
    down, as in «definition: - time: 27.11.2026»)."""
    pairs: dict[str, str] = {}
    term: str | None = None
    for line in snapshot.splitlines():
        found = _TERM.match(line)
        if found:
            term = found["text"].strip().strip('"')
            continue
        value = _VALUE.match(line)
        if term is not None and value is not None:
            pairs.setdefault(term, value["text"].strip().strip('"'))
            term = None
    return pairs


def _which(
    text: str, *, answers: Mapping[str, str], purpose: str
) -> tuple[str, dict[str, str]] | None:
    """Which of a booking's fields ``text`` shows, and how it is read (None: not one)."""
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    clocks = [t for t in map(parse_time, re.findall(r"\d{1,2}[:.]\d{2}", text)) if t]
    fmt = next((f for f in DATE_FORMATS if parse_date(text, f) == day), None)
    if text == purpose:
        return "purpose", {}
    if text.split(" ")[0] == answers["room"]:
        return "room", {} if text == answers["room"] else {"regex": r"^\s*(\S+)"}
    if clocks[:2] == [start, end]:
        return "time", {"format": "span"}
    if fmt is not None:
        return "date", {"format": fmt}
    return None


def draft_booking_page(recording: Recording) -> dict[str, Any]:
    """The ``booking_page`` part from the page the booking form led to: its address with
    the number as ``{number}``, and its «term: value» pairs told by their values (the
    one other pair that is not a count, the building)."""
    book = recording.step("book")
    if book is None:
        raise DraftError("Бронь не показана")
    number = _booking_number(recording)
    purpose = next((a.value for a in book.actions if a.kind == "fill" and a.value), "")
    picks: dict[str, dict[str, str]] = {}
    others = []
    for term, text in _terms(book.snapshot).items():
        which = _which(text, answers=book.answers, purpose=purpose)
        if which is None:
            if not text.isdigit():
                others.append(term)
            continue
        picks.setdefault(which[0], {"term": term, **which[1]})
    if len(others) == 1:
        picks["building"] = {"term": others[0]}
    if set(picks) != {"building", "room", "date", "time", "purpose"}:
        raise DraftError(
            "На странице брони не видно всех её данных: после брони оставьте открытой её "
            "страницу и покажите бронь ещё раз"
        )
    path = urlsplit(book.url).path
    at = path.rfind(number)
    url = templated(path[:at], {}) + "{number}" + templated(path[at + len(number) :], {})
    return {"url": url, **picks}


def _booking_number(recording: Recording) -> str:
    step = recording.step("book")
    reached = [a for a in step.actions if a.kind == "navigate"] if step else []
    numbers = re.findall(r"\d+", urlsplit(reached[-1].url).path) if reached else []
    if not numbers:
        raise DraftError("Номер брони не виден в её адресе: покажите бронь ещё раз")
    return numbers[-1]


def draft_my_bookings(recording: Recording) -> dict[str, Any]:
    """The ``my_bookings`` part from the step that showed «my bookings»: the table whose
    row holds the booking made, and which column is which, told by the values in that
    row (its number, the day in a date format, the times, the room, the purpose typed).
    The one other column with text (not the cancel control's) is the building."""
    step, book = recording.step("my_bookings"), recording.step("book")
    if step is None or book is None:
        raise DraftError("«Мои брони» не показаны: откройте их ещё раз")
    answers = book.answers
    purpose = next((a.value for a in book.actions if a.kind == "fill" and a.value), "")
    number = _booking_number(recording)
    day = date.fromisoformat(answers["date"])
    start, end = time.fromisoformat(answers["start"]), time.fromisoformat(answers["end"])
    # The cancel control's column (its text is the control's name) is not a field.
    cancel = recording.step("cancel")
    controls = {c.name for a in (cancel.actions if cancel else ()) for c in a.candidates if c.name}
    for name, heads, cells in _tables(step.snapshot):
        rows = [[cell.text for cell in row] for row in cells]
        row = next((r for r in rows if purpose in r and number in r), None)
        if row is None or len(heads) != len(row):
            continue
        picks: dict[str, dict[str, str]] = {}
        others = []
        for head, text in zip(heads, row, strict=True):
            clocks = [t for t in map(parse_time, re.findall(r"\d{1,2}[:.]\d{2}", text)) if t]
            fmt = next((f for f in DATE_FORMATS if parse_date(text, f) == day), None)
            if text == number:
                picks["number"] = {"column": head}
            elif text == purpose:
                picks["purpose"] = {"column": head}
            elif text == answers["room"]:
                picks["room"] = {"column": head}
            elif clocks[:2] == [start, end]:
                picks["time"] = {"column": head, "format": "span"}
            elif fmt is not None:
                picks["date"] = {"column": head, "format": fmt}
            elif text and text not in controls:
                others.append(head)
        if len(others) == 1:
            picks["building"] = {"column": others[0]}
        if {"number", "date", "time", "purpose"} <= picks.keys():
            return {
                "open": {"url": templated(_relative(step.url), {})},
                "table": [{"role": "table", "name": name}],
                **picks,
            }
    raise DraftError("В «моих бронях» не видно таблицы со сделанной бронью: откройте их ещё раз")


_COMBOBOX = re.compile(r'^(?P<indent> *)- combobox "(?P<name>[^"]*)"', re.MULTILINE)
_FLOOR = re.compile(r"\d+\s*(эт\w*|floor\w*)", re.IGNORECASE)
_SEATS = re.compile(r"\d+\s*(мест\w*|seat\w*|чел\w*)", re.IGNORECASE)


def _day_step(recording: Recording) -> Step:
    step = recording.step("day")
    if step is None or "date" not in step.answers:
        raise DraftError("Занятость аудиторий не показана: откройте её ещё раз")
    return step


def _unit_regex(pattern: re.Pattern[str], text: str) -> str | None:
    """«2 этаж» → ``(\\d+)\\s*этаж``: the number before the unit word the page writes."""
    found = pattern.search(text)
    return rf"(\d+)\s*{re.escape(found[1])}" if found else None


def draft_availability(recording: Recording) -> dict[str, Any]:
    """The ``availability`` part from the day's page: its address with the day and the
    building as variables, and its grid — the table whose column titles are times (rooms
    in rows, each slot timed by its column) or whose row titles are (rooms in columns);
    a free slot is a cell holding a link; a room's number, floor and seats from its
    heading."""
    step = _day_step(recording)
    building = _building(recording, step.answers)
    for name, heads, rows in _tables(step.snapshot):
        timed = [h for h in heads if parse_time(h) is not None]
        if len(timed) < 2 or not rows:
            continue
        titles = [row[0].text for row in rows if row and row[0].header]
        if not titles:
            continue
        room: dict[str, Any] = {"number": {"regex": r"^\s*(\S+)"}}
        floor, seats = _unit_regex(_FLOOR, titles[0]), _unit_regex(_SEATS, titles[0])
        if floor:
            room["floor"] = {"regex": floor, "format": "int"}
        if seats:
            room["capacity"] = {"regex": seats, "format": "int"}
        # The table's name without what changes with the day and the building.
        stem = re.split(r"[:,(]", name, maxsplit=1)[0].strip()
        return {
            "open": {"url": templated(_relative(step.url), step.answers, building=building)},
            "grid": {
                "table": [{"role": "table", "name": stem, "exact": False}],
                "rooms_in": "rows",
                "header_lines": 1,
                "room": room,
                "slot": {"time": {"of": "header", "format": "hhmm"}, "free": {"has": "a[href]"}},
            },
        }
    raise DraftError("На странице дня не видно таблицы аудиторий и времени: откройте её ещё раз")


def draft_catalogue(recording: Recording) -> dict[str, Any]:
    """The ``catalogue`` part: the buildings are the options of the day page's drop-down
    whose chosen option is the building shown (the one with several options)."""
    step = _day_step(recording)
    for found in _COMBOBOX.finditer(step.snapshot):
        block = step.snapshot[found.end() :].split("\n- ", 1)[0]
        options = re.findall(r'- option "([^"]*)"', block)
        if len(options) > 1 and "[selected]" in block:
            return {
                "buildings": {
                    "open": {"url": urlsplit(step.url).path},
                    "select": [{"role": "combobox", "name": found["name"]}],
                }
            }
    raise DraftError(
        "На странице дня не видно списка корпусов: выберите корпус в списке и покажите снова"
    )


_HOURS = re.compile(r"(\d{1,2}:\d{2})\s*[–—-]\s*(\d{1,2}:\d{2})")


def draft_rules(recording: Recording) -> dict[str, Any]:
    """The ``rules`` part as the day's page states them in words («08:00–22:00, шаг 30
    минут, не более 4 часов, на 14 дней вперёд»); what it does not state is left to the
    defaults (docs/profiles.md), to be checked."""
    text = _day_step(recording).snapshot
    rules: dict[str, Any] = {}
    hours = None
    for line in text.splitlines():
        if re.search(r"шаг|step", line, re.IGNORECASE) and _HOURS.search(line):
            hours = _HOURS.search(line)
            rules |= _stated(line)
    if hours:
        rules["opens"], rules["closes"] = hours[1], hours[2]
    return rules


def _stated(line: str) -> dict[str, int]:
    stated: dict[str, int] = {}
    if step := re.search(r"шаг\D{0,20}(\d+)\s*мин|step\D{0,20}(\d+)\s*min", line, re.I):
        stated["step_minutes"] = int(step[1] or step[2])
    if longest := re.search(r"(\d+)\s*(час|hour)", line, re.I):
        stated["longest_minutes"] = int(longest[1]) * 60
    if ahead := re.search(r"(\d+)\s*(дн|day)", line, re.I):
        stated["horizon_days"] = int(ahead[1])
    return stated


def draft_profile(recording: Recording) -> str:
    """The whole profile drafted from the demonstration, as YAML (``DraftError`` naming
    the step to show again when a part cannot be drafted)."""
    profile: dict[str, Any] = {"name": recording.name}
    for part, draft in _WHOLE.items():
        profile[part] = draft(recording)
    changes = {
        step: sorted({urlsplit(r.url).path for r in found.requests})
        for step, found in (("login", recording.step("login")), ("book", recording.step("book")))
        if found is not None and found.requests
    }
    profile["may_change"] = changes
    head = "# yaml-language-server: $schema=./site-profile.schema.json\n"
    head += f"# Drafted by clubman learn from a demonstration on {recording.site}.\n"
    return head + yaml.safe_dump(profile, allow_unicode=True, sort_keys=False)


_WHOLE: dict[str, Callable[[Recording], dict[str, Any]]] = {
    "login": draft_login,
    "catalogue": draft_catalogue,
    "rules": draft_rules,
    "availability": draft_availability,
    "book": draft_book,
    "booking_page": draft_booking_page,
    "my_bookings": draft_my_bookings,
    "cancel": draft_cancel,
}


def draft_parts(recording: Recording) -> str:
    """What could be drafted when not every part could, as YAML, with a comment for each
    part that could not (why, and which step to show again)."""
    drafted: dict[str, object] = {"name": recording.name}
    notes = []
    for part, draft in _WHOLE.items():
        try:
            drafted[part] = draft(recording)
        except DraftError as exc:
            notes.append(f"# {part}: не составлен — {exc.message}")
    head = f"# Части профиля сайта {recording.site}, составленные по показу «{recording.name}».\n"
    return head + "\n".join(notes) + "\n" + yaml.safe_dump(drafted, allow_unicode=True)
