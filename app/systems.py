"""The booking systems the product can drive: ``PORTAL__KIND`` → adapter.

Adding a system is a package under ``adapters/``, a loader here and one line in
``_SYSTEMS``; a site that is the usual few pages needs no package at all, only a site
profile run by ``profile`` (``PORTAL__KIND=profile``, ``PORTAL__PROFILE=site.yaml``).
Only the configured adapter is imported (the others cost start-up time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from core.brain import ElementPicker
from core.errors import ConfigError
from core.settings import PortalSettings
from scenarios.booking.port import BookingSystem
from scenarios.events.site import EventSite

__all__ = ["choose_event_site", "choose_system", "kinds", "preload_adapter", "words_file"]


@dataclass(frozen=True, slots=True)
class _Adapter:
    open: Callable[[str, PortalSettings, ElementPicker | None], BookingSystem]
    words: Path | None = None  # the local words for the site's buildings it ships (TOML)
    # Its PORTAL__PROFILE is a site profile (with the words in it), not a words file.
    site_profile: bool = False
    # The site's events (url, time zone), when it has them: the events job runs there.
    events: Callable[[str, str], EventSite] | None = None


def _indico() -> _Adapter:
    from adapters.indico import IndicoSystem
    from adapters.indico.event_site import IndicoEventSite

    return _Adapter(
        open=lambda url, _, __: IndicoSystem(url),
        events=lambda url, timezone: IndicoEventSite(url, timezone=timezone),
    )


def _refportal() -> _Adapter:
    from adapters.refportal import PROFILE, RefPortal

    return _Adapter(open=lambda url, _, __: RefPortal(url), words=PROFILE)


def _profile() -> _Adapter:
    from adapters.profile import ProfileSystem, load_site_profile
    from adapters.profile.history import ProfileHistory

    def open_system(
        url: str, portal: PortalSettings, picker: ElementPicker | None
    ) -> BookingSystem:
        if portal.profile is None:
            raise ConfigError(
                "PORTAL__KIND=profile needs PORTAL__PROFILE: the site profile's path "
                "(profiles/*.yaml; see docs/profiles.md)"
            )
        # A step healed by a later locator, or by an element the LLM picked, is written
        # back as a new version of the file.
        history = ProfileHistory(Path(portal.profile))
        loaded = load_site_profile(portal.profile)
        return ProfileSystem(url, loaded, history=history, picker=picker)

    return _Adapter(open=open_system, site_profile=True)


_SYSTEMS: dict[str, Callable[[], _Adapter]] = {
    "indico": _indico,
    "profile": _profile,
    "refportal": _refportal,
}


def kinds() -> list[str]:
    return sorted(_SYSTEMS)


def _adapter(kind: str) -> _Adapter:
    load = _SYSTEMS.get(kind)
    if load is None:
        raise ConfigError(f"PORTAL__KIND={kind!r} is not a booking system I know: {kinds()}")
    return load()


def choose_system(
    portal: PortalSettings, url: str, *, picker: ElementPicker | None = None
) -> BookingSystem:
    """The configured booking system at ``url`` (a bad site profile is a ``ConfigError``
    naming its line); ``picker``: the LLM that heals a profile a site outgrew."""
    return _adapter(portal.kind).open(url, portal, picker)


def choose_event_site(portal: PortalSettings, url: str, *, timezone: str) -> EventSite | None:
    """The configured site's events, or ``None`` when it has none."""
    adapter = _adapter(portal.kind)
    return adapter.events(url, timezone) if adapter.events is not None else None


def words_file(portal: PortalSettings) -> Path | None:
    """The file of local words for the site's buildings: ``PORTAL__PROFILE``, else the
    one the adapter ships; none for a site profile (its words are part of it)."""
    adapter = _adapter(portal.kind)
    if adapter.site_profile:
        return None
    return portal.profile or adapter.words


def preload_adapter(kind: str) -> None:
    """Import the adapter now (for a supervisor's forked workers)."""
    _adapter(kind)
