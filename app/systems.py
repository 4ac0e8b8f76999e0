"""The booking systems the product can drive: ``PORTAL__KIND`` → adapter.

Adding a system is a package under ``adapters/``, a loader here and one line in
``_SYSTEMS``. Only the configured adapter is imported (the others cost start-up time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.booking import BookingSystem
from core.errors import ConfigError

__all__ = ["choose_system", "default_profile", "kinds"]


@dataclass(frozen=True, slots=True)
class _Adapter:
    open: Callable[[str], BookingSystem]
    profile: Path | None = None


def _indico() -> _Adapter:
    from adapters.indico import IndicoSystem

    return _Adapter(open=IndicoSystem)


def _refportal() -> _Adapter:
    from adapters.refportal import PROFILE, RefPortal

    return _Adapter(open=RefPortal, profile=PROFILE)


_SYSTEMS: dict[str, Callable[[], _Adapter]] = {"indico": _indico, "refportal": _refportal}


def kinds() -> list[str]:
    return sorted(_SYSTEMS)


def _adapter(kind: str) -> _Adapter:
    load = _SYSTEMS.get(kind)
    if load is None:
        raise ConfigError(f"PORTAL__KIND={kind!r} is not a booking system I know: {kinds()}")
    return load()


def choose_system(kind: str, url: str) -> BookingSystem:
    return _adapter(kind).open(url)


def default_profile(kind: str) -> Path | None:
    """The profile of local words the adapter ships, if any."""
    return _adapter(kind).profile
