"""A day drawn as a timeline (no table: a line per room, busy bars on a time axis), as the
operator showed it by example (``adapters.profile.learn.examples``): the rooms' lines,
the axis's time labels, and two busy bars. From it the ``availability`` part (a
``timeline``) and the ``catalogue`` (the buildings named in the lines of the day's page
without its day and building), and how a room's name is read where the site names it
by building, floor and number in one word («7/7-704»: ``RoomShape``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.daygrid import room_picks
from adapters.profile.learn.recording import ListByExample, PickedText, Recording
from adapters.profile.learn.values import (
    building_code,
    day_step,
    named,
    relative,
    templated,
)
from adapters.profile.template import parse_time

__all__ = ["RoomShape", "draft_timeline", "draft_timeline_catalogue", "room_shape", "shown_day"]

_SEPARATORS = "/-."


@dataclass(frozen=True)
class RoomShape:
    """Regexes (group 1) reading a room's parts from a name such as «7/7-704»."""

    id: str  # the whole name: the site's id of the room
    number: str  # its last part: «704»
    building: str | None  # its first part, where that is the building's code
    floor: str | None  # the part between, where there is one


def room_shape(name: str, building: str | None) -> RoomShape | None:
    """How a room named in parts («building/floor-number») is read; None for a plain
    number or name («201»), which is read as it is."""
    word = name.split(" ")[0] if name.strip() else ""
    parts = re.split(f"([{re.escape(_SEPARATORS)}])", word)
    segments, seps = parts[0::2], parts[1::2]
    if len(segments) < 2 or not all(segments):
        return None
    other = "[^\\s" + re.escape(_SEPARATORS) + "]"
    skip = [f"{other}*{re.escape(sep)}" for sep in seps]

    def reading(at: int) -> str:
        return r"^\s*" + "".join(skip[:at]) + f"({other}+)"

    first_is_building = building is not None and segments[0] == building
    floor = 1 if first_is_building and len(segments) == 3 else None
    return RoomShape(
        id=r"^\s*(\S+)",
        number=reading(len(segments) - 1),
        building=reading(0) + re.escape(seps[0]) if first_is_building else None,
        floor=reading(floor) + re.escape(seps[floor]) if floor is not None else None,
    )


def _label(lines: ListByExample) -> PickedText:
    """The first line's name (its text, and its CSS inside a line): its first piece of
    words that is not a time."""
    for piece in lines.texts:
        if piece.text.strip() and parse_time(piece.text.strip()) is None:
            return piece
    raise DraftError("В строке аудитории не видно её названия: покажите строки аудиторий ещё раз")


def _shown(recording: Recording) -> tuple[ListByExample, ListByExample, ListByExample]:
    step = day_step(recording)
    lines, axis, busy = (step.lists.get(name) for name in ("lines", "axis", "busy"))
    if lines is None or axis is None or busy is None:
        raise DraftError(
            "На странице дня не видно таблицы аудиторий и времени: откройте её ещё раз"
        )
    return lines, axis, busy


def shown_day(recording: Recording) -> bool:
    """Whether the day was shown as a timeline, by example."""
    step = recording.step("day")
    return step is not None and "lines" in step.lists


def draft_timeline(recording: Recording) -> dict[str, Any]:
    """The ``availability`` part: the day's address with the day and the building as
    variables, the lines, axis and bars as shown, and a room's number, floor and id
    read from its line's name (the name's parts where it has them, else its first word
    and the floor and seats its words state)."""
    step = day_step(recording)
    lines, axis, busy = _shown(recording)
    building = building_code(recording, step.answers)
    label = _label(lines)
    room: dict[str, Any] = {k: {"css": label.css, **v} for k, v in room_picks(label.text).items()}
    shape = room_shape(label.text, building)
    if shape is not None:
        room["number"] = {"css": label.css, "regex": shape.number}
        room["id"] = {"css": label.css, "regex": shape.id}
        if shape.floor is not None:
            room["floor"] = {"css": label.css, "regex": shape.floor, "format": "int"}
    return {
        "open": {
            "url": templated(relative(step.url), step.answers, building=building),
            "wait": [{"css": lines.css}],
        },
        "timeline": {
            "lines": [{"css": lines.css}],
            "axis": [{"css": axis.css}],
            "bars": busy.css,
            "room": room,
        },
    }


def draft_timeline_catalogue(recording: Recording) -> dict[str, Any]:
    """The ``catalogue`` part: the buildings named at the start of the rooms' names on
    the day's page with neither the day nor the building asked for (every building's
    rooms, today)."""
    step = day_step(recording)
    lines, _, _ = _shown(recording)
    building = building_code(recording, step.answers)
    label = _label(lines)
    shape = room_shape(label.text, building)
    if shape is None or shape.building is None:
        raise DraftError(
            "В названиях аудиторий не видно корпуса: откройте день одного корпуса, "
            "где его код есть в адресе страницы, и покажите снова"
        )
    asked = {written for written, _ in named(step.answers, building)}
    parts = urlsplit(relative(step.url))
    query = [(k, v) for k, v in parse_qsl(parts.query) if v not in asked]
    url = parts.path + (f"?{urlencode(query)}" if query else "")
    return {
        "buildings": {
            "open": {"url": url, "wait": [{"css": lines.css}]},
            "items": [{"css": lines.css}],
            "code": {"css": label.css, "regex": shape.building},
            "name": {"css": label.css, "regex": shape.building},  # the site names it by its code
        }
    }
