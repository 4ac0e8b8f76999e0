"""The booking systems the product can drive: ``PORTAL__KIND`` → adapter.

Adding a system is a package under ``adapters/`` and one line in ``_SYSTEMS``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import adapters.indico
import adapters.refportal
from core.booking import BookingSystem
from core.errors import ConfigError

__all__ = ["choose_system", "default_profile", "kinds"]


@dataclass(frozen=True, slots=True)
class _Adapter:
    open: Callable[[str], BookingSystem]
    profile: Path | None = None


_SYSTEMS: dict[str, _Adapter] = {
    "indico": _Adapter(open=adapters.indico.IndicoSystem),
    "refportal": _Adapter(open=adapters.refportal.RefPortal, profile=adapters.refportal.PROFILE),
}


def kinds() -> list[str]:
    return sorted(_SYSTEMS)


def _adapter(kind: str) -> _Adapter:
    adapter = _SYSTEMS.get(kind)
    if adapter is None:
        raise ConfigError(f"PORTAL__KIND={kind!r} is not a booking system I know: {kinds()}")
    return adapter


def choose_system(kind: str, url: str) -> BookingSystem:
    return _adapter(kind).open(url)


def default_profile(kind: str) -> Path | None:
    """The profile of local words the adapter ships, if any."""
    return _adapter(kind).profile
