"""The booking systems the product can drive: ``PORTAL__KIND`` → adapter.

Adding a system is a package under ``adapters/`` and one line in ``_SYSTEMS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import adapters.refportal
from core.booking import BookingSystem
from core.errors import ConfigError

__all__ = ["SystemChoice", "choose_system", "kinds"]


@dataclass(frozen=True, slots=True)
class SystemChoice:
    system: BookingSystem
    profile: Path | None  # the adapter's own profile of local words, if it ships one


@dataclass(frozen=True, slots=True)
class _Adapter:
    open: Callable[[str], BookingSystem]
    profile: Path | None = None


_SYSTEMS: dict[str, _Adapter] = {
    "refportal": _Adapter(open=adapters.refportal.RefPortal, profile=adapters.refportal.PROFILE),
}


def kinds() -> list[str]:
    return sorted(_SYSTEMS)


def choose_system(kind: str, url: str) -> SystemChoice:
    adapter = _SYSTEMS.get(kind)
    if adapter is None:
        raise ConfigError(f"PORTAL__KIND={kind!r} is not a booking system I know: {kinds()}")
    return SystemChoice(system=adapter.open(url), profile=adapter.profile)
