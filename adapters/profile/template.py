"""Templates in a site profile: ``/book?room={room_id|url}&date={date|iso}``.

A template is text with ``{name}`` or ``{name|filter}`` slots, nothing more: no
expressions, attribute access, indexing or calls. Names come from the request a step
serves (``VARIABLES`` lists which step knows which), filters from the fixed table
``FILTERS``. So a profile can only choose how a known value is written, never run code;
``{{`` and ``}}`` are literal braces.

The same format names read values back from a page (``parse_date``, ``parse_time``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time
from typing import Any
from urllib.parse import quote

from adapters.profile.errors import TemplateError

__all__ = [
    "DATE_FORMATS",
    "DATE_PARTS",
    "FILTERS",
    "TEXT_FILTERS",
    "TIME_FORMATS",
    "TIME_PARTS",
    "Template",
    "parse_date",
    "parse_time",
]


_MONTHS_EN = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
# A month's name by its first three letters (English; Russian, nominative or genitive).
_MONTH_STEMS = {name[:3].lower(): number for number, name in enumerate(_MONTHS_EN, 1)} | {
    stem: number
    for number, stems in enumerate(
        ["янв", "фев", "мар", "апр", "мая|май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек"], 1
    )
    for stem in stems.split("|")
}


def _h12(value: time) -> str:  # not strftime's %p: that follows the locale
    return f"{value.hour % 12 or 12:02d}:{value.minute:02d} {'AM' if value.hour < 12 else 'PM'}"


def _h12_short(value: time) -> str:
    return f"{value.hour % 12 or 12}:{value.minute:02d} {'AM' if value.hour < 12 else 'PM'}"


# How a date or a time may be written, by name: used to write a value into a page and to
# read one back from it.
DATE_FORMATS: dict[str, Callable[[date], str]] = {
    "iso": lambda d: d.isoformat(),  # 2026-11-27
    "dmy": lambda d: d.strftime("%d.%m.%Y"),  # 27.11.2026
    "dmy_slash": lambda d: d.strftime("%d/%m/%Y"),  # 27/11/2026
    "mdy": lambda d: d.strftime("%m/%d/%Y"),  # 11/27/2026
    # 27 November 2026 (read also with a weekday before it, an abbreviated month, or a
    # Russian one: «пятница, 27 ноября 2026»); not strftime's %B: that follows the locale
    "long": lambda d: f"{d.day} {_MONTHS_EN[d.month - 1]} {d.year}",
}
TIME_FORMATS: dict[str, Callable[[time], str]] = {
    "hhmm": lambda t: t.strftime("%H:%M"),  # 18:00
    "h12": _h12,  # 06:00 PM
    "h12_short": _h12_short,  # 6:00 PM
    "seconds": lambda t: str(t.hour * 3600 + t.minute * 60),  # 64800: seconds since midnight
    "minutes": lambda t: str(t.hour * 60 + t.minute),  # 1080
}
# A day or a time written in parts, one query value each (MRBS's
# «year=2026&month=12&day=8&hour=18&minute=0»): written only, never read.
DATE_PARTS: dict[str, Callable[[date], str]] = {
    "year": lambda d: str(d.year),
    "month": lambda d: str(d.month),  # 7
    "month2": lambda d: f"{d.month:02}",  # 07
    "day": lambda d: str(d.day),
    "day2": lambda d: f"{d.day:02}",
}
TIME_PARTS: dict[str, Callable[[time], str]] = {
    "hour": lambda t: str(t.hour),  # 9
    "hour2": lambda t: f"{t.hour:02}",  # 09
    "minute": lambda t: str(t.minute),  # 0
    "minute2": lambda t: f"{t.minute:02}",  # 00
}
TEXT_FILTERS: dict[str, Callable[[str], str]] = {
    "url": lambda s: quote(s, safe=""),  # percent-encoded for a URL
    "lower": str.lower,
}
FILTERS = {**DATE_FORMATS, **DATE_PARTS, **TIME_FORMATS, **TIME_PARTS, **TEXT_FILTERS}
_SLOT = re.compile(r"\{\{|\}\}|\{([a-z_]+)(?:\|([a-z0-9_]+))?\}|[{}]")


def _written(value: Any, flt: str | None) -> str:
    if isinstance(value, date) and not isinstance(value, datetime):
        dated = DATE_FORMATS | DATE_PARTS
        return dated[flt or "iso"](value) if flt in (None, *dated) else ""
    if isinstance(value, time):
        timed = TIME_FORMATS | TIME_PARTS
        return timed[flt or "hhmm"](value) if flt in (None, *timed) else ""
    text = "" if value is None else str(value)
    return TEXT_FILTERS[flt](text) if flt in TEXT_FILTERS else text


@dataclass(frozen=True, slots=True)
class Template:
    """A parsed template: literal parts and (name, filter) slots, in order."""

    source: str
    parts: tuple[str | tuple[str, str | None], ...]

    @classmethod
    def parse(cls, source: str) -> Template:
        parts: list[str | tuple[str, str | None]] = []
        at = 0
        for found in _SLOT.finditer(source):
            parts.append(source[at : found.start()])
            at = found.end()
            token = found.group()
            if token in ("{{", "}}"):
                parts.append(token[0])
            elif found.group(1) is None:
                raise TemplateError(
                    f"unbalanced «{token}» at {found.start()} in {source!r} "
                    "(write {{ or }} for a brace)"
                )
            else:
                name, flt = found.group(1), found.group(2)
                if flt is not None and flt not in FILTERS:
                    raise TemplateError(
                        f"unknown format «{flt}» in {source!r}; known: {', '.join(FILTERS)}"
                    )
                parts.append((name, flt))
        parts.append(source[at:])
        return cls(source, tuple(part for part in parts if part != ""))

    @property
    def slots(self) -> list[tuple[str, str | None]]:
        """Each slot's variable and format, in order."""
        return [part for part in self.parts if isinstance(part, tuple)]

    @property
    def names(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.slots)

    def render(self, values: Mapping[str, Any]) -> str:
        """The text with every slot written; a type the filter does not fit writes ''
        (the loader has checked the names, and a step passes typed values)."""
        return "".join(
            part if isinstance(part, str) else _written(values.get(part[0]), part[1])
            for part in self.parts
        )

    def __str__(self) -> str:
        return self.source


# A year of four digits, or of two (27.11.26: this century's); never the start of a time.
_YEAR = r"(?P<y>\d{4}|\d{2})(?![\d:])"
_DATE_READERS: dict[str, tuple[re.Pattern[str], ...]] = {
    "iso": (re.compile(r"(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"),),
    "dmy": (re.compile(r"(?<![\d.])(?P<d>\d{1,2})\.(?P<m>\d{1,2})\." + _YEAR),),
    "dmy_slash": (re.compile(r"(?<![\d/])(?P<d>\d{1,2})/(?P<m>\d{1,2})/" + _YEAR),),
    "mdy": (re.compile(r"(?<![\d/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/" + _YEAR),),
    "long": (
        # 8 декабря 2026 г., Tuesday 8 December 2026, 8 Dec. 26
        re.compile(r"(?<!\d)(?P<d>\d{1,2})\.?\s+(?P<m>[^\W\d_]{3,})\.?,?\s+" + _YEAR),
        # December 8, 2026 (a weekday before it, too)
        re.compile(r"(?P<m>[^\W\d_]{3,})\.?\s+(?P<d>\d{1,2})(?:st|nd|rd|th)?,?\s+" + _YEAR),
    ),
}
_CLOCK = re.compile(r"(?P<h>\d{1,2})[:.](?P<m>\d{2})(?::\d{2})?\s*(?P<ampm>[AaPp]\.?[Mm]\.?)?")


def parse_date(text: str, fmt: str = "iso") -> date | None:
    """The first date written in ``fmt`` inside ``text``, or None. A two-digit year is
    this century's; a month by name is read in English or Russian (see ``_MONTH_STEMS``)."""
    for reader in _DATE_READERS[fmt]:
        for found in reader.finditer(text):
            if (day := _date(found)) is not None:
                return day
    return None


def _date(found: re.Match[str]) -> date | None:
    month: str | int | None = found["m"]
    assert isinstance(month, str)
    if not month.isdigit():
        month = _MONTH_STEMS.get(month[:3].lower())
        if month is None:
            return None  # «вторник, 8 …»: a word that is no month
    year = int(found["y"])
    try:
        return date(year + 2000 if year < 100 else year, int(month), int(found["d"]))
    except ValueError:
        return None


def parse_time(text: str, fmt: str = "hhmm") -> time | None:
    """A time written in ``fmt`` (the 12-hour forms and 24-hour clock alike are read by
    the clock pattern; ``seconds``/``minutes`` are a number since midnight)."""
    text = text.strip()
    if fmt in ("seconds", "minutes"):
        if not text.isdigit():
            return None
        minutes = int(text) // 60 if fmt == "seconds" else int(text)
        return time(minutes // 60, minutes % 60) if minutes < 24 * 60 else None
    found = _CLOCK.search(text)
    if found is None:
        return None
    hour, minute = int(found["h"]), int(found["m"])
    if found["ampm"]:
        hour = hour % 12 + (12 if found["ampm"][0] in "Pp" else 0)
    return time(hour, minute) if hour < 24 and minute < 60 else None
