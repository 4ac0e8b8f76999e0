"""What ``/settings <argument>`` asks for: a language, a time zone, or nothing we know.

The argument is checked before it reaches anything else: a zone name is looked up in the
one list of canonical zones (``core.zones``), never opened as a file path (a 4,000-character
argument used to crash with ``OSError: File name too long``)."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands import Lang
from core.zones import canonical_zone

__all__ = ["MAX_ARGUMENT", "LanguageChoice", "ZoneChoice", "parse_choice", "shown"]

# The longest zone name (America/Argentina/ComodRivadavia) has 32 characters.
MAX_ARGUMENT = 64
_SHOWN = 40  # how much of an unknown argument the answer quotes


@dataclass(frozen=True, slots=True)
class LanguageChoice:
    lang: Lang


@dataclass(frozen=True, slots=True)
class ZoneChoice:
    zone: str


def parse_choice(argument: str) -> LanguageChoice | ZoneChoice | None:
    """The setting ``argument`` names, or ``None`` for anything unknown or too long."""
    value = argument.strip()
    if not value or len(value) > MAX_ARGUMENT:
        return None
    if value.lower() in ("ru", "en"):
        return LanguageChoice(lang="en" if value.lower() == "en" else "ru")
    zone = canonical_zone(value)
    return ZoneChoice(zone=zone) if zone is not None else None


def shown(argument: str) -> str:
    """An unknown argument as the answer quotes it: one line, cut short."""
    line = " ".join(argument.split())
    return line if len(line) <= _SHOWN else line[: _SHOWN - 1] + "…"
