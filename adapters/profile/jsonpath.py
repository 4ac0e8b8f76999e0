"""Dotted paths into a site's JSON answers, as profiles write them: ``booking.id`` (a
mapping's key), ``1.bookings`` (a list's element by its index), ``bookings.*.*`` (every
value of a mapping or list, at each ``*``)."""

from __future__ import annotations

from typing import Any

__all__ = ["every_at", "json_at", "scalar_text"]


def _step(data: Any, key: str) -> tuple[bool, Any]:
    if isinstance(data, dict):
        return key in data, data.get(key)
    if isinstance(data, list) and key.isdigit() and int(key) < len(data):
        return True, data[int(key)]
    return False, None


def json_at(data: Any, path: str) -> Any:
    """``data``'s value at ``path``, or None."""
    for key in path.split("."):
        found, data = _step(data, key)
        if not found:
            return None
    return data


def every_at(data: Any, path: str) -> list[Any] | None:
    """The values at ``path``, each ``*`` taking every value there; None when a step is
    missing (an empty mapping or list at a ``*`` is no value, not a missing step)."""
    found: list[Any] = [data]
    for key in path.split("."):
        reached: list[Any] = []
        for each in found:
            if key == "*":
                values = list(each.values()) if isinstance(each, dict) else each
                if not isinstance(values, list):
                    return None
                reached.extend(values)
                continue
            there, value = _step(each, key)
            if not there:
                return None
            reached.append(value)
        found = reached
    return found


def scalar_text(value: Any) -> str:
    """A JSON string or integer as text (a number, an id); "" for anything else."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        return ""
    return str(value)
