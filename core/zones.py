"""Time zones: one list of canonical IANA names, for everything a user may set.

``zoneinfo`` opens any file under the zone directory, so it also takes names no one
should be given — ``posixrules`` (New York's rules: a calendar then showed −05:00),
``Factory``, ``right/UTC``, ``posix/…`` and legacy aliases. The canonical names are the
zones the tz database defines (``Z`` lines of ``tzdata.zi``, in the ``tzdata`` package we
depend on); a link with an area, renamed or merged («Europe/Kiev»), means its zone
(«Europe/Kyiv»), and «UTC» means Etc/UTC. Anything else is no time zone.
"""

from __future__ import annotations

import functools
from importlib import resources

__all__ = ["canonical_zone"]

_SPECIAL = {"utc": "Etc/UTC"}
_NOT_PLACES = frozenset({"Factory"})


@functools.cache
def _names() -> dict[str, str]:
    """Lower-case name → canonical zone name."""
    text = (resources.files("tzdata.zoneinfo") / "tzdata.zi").read_text(encoding="utf-8")
    zones: dict[str, str] = {}
    links: list[tuple[str, str]] = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "Z" and parts[1] not in _NOT_PLACES:
            zones[parts[1].lower()] = parts[1]
        elif len(parts) == 3 and parts[0] == "L" and "/" in parts[2]:
            links.append((parts[1], parts[2]))
    for target, name in links:
        if target.lower() in zones and not name.startswith(("posix/", "right/")):
            zones.setdefault(name.lower(), zones[target.lower()])
    return zones | _SPECIAL


def canonical_zone(name: str) -> str | None:
    """The canonical IANA name ``name`` stands for (any case), or ``None``."""
    if not name or len(name) > 64:
        return None
    return _names().get(name.strip().lower())
