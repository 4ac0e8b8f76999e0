"""The booking systems the product can drive: ``PORTAL__KIND`` → adapter.

Adding a system is a package under ``adapters/``, a loader here and one line in
``_SYSTEMS``; a site that is the usual few pages needs no package at all, only a site
profile run by ``profile`` (``PORTAL__KIND=profile``, ``PORTAL__PROFILE=site.yaml``).
``refportal`` (the reference portal, the default) is the profile adapter running the
profile we ship for it (``profiles/refportal.yaml``).
Only the configured adapter is imported (the others cost start-up time).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import structlog

from core.brain import ElementPicker
from core.errors import ConfigError
from core.settings import PortalSettings
from scenarios.booking.port import BookingSystem
from scenarios.events.site import EventSite

__all__ = [
    "SHIPPED_PROFILES",
    "choose_event_site",
    "choose_system",
    "kinds",
    "preload_adapter",
    "words_file",
]

log = structlog.get_logger("clubman.app")

# The site profiles the product ships (``refportal.yaml`` runs ``PORTAL__KIND=refportal``).
SHIPPED_PROFILES = Path(__file__).resolve().parents[1] / "profiles"


@dataclass(frozen=True, slots=True)
class _Adapter:
    open: Callable[[str, PortalSettings, ElementPicker | None, Path | None], BookingSystem]
    # Its PORTAL__PROFILE is a site profile (with the words in it), not a words file.
    site_profile: bool = False
    # The site's events (url, time zone), when it has them: the events job runs there.
    events: Callable[[str, str], EventSite] | None = None


def _indico() -> _Adapter:
    from adapters.indico import IndicoSystem
    from adapters.indico.event_site import IndicoEventSite

    return _Adapter(
        open=lambda url, _, __, ___: IndicoSystem(url),
        events=lambda url, timezone: IndicoEventSite(url, timezone=timezone),
    )


def _refportal() -> _Adapter:
    from adapters.profile import ProfileSystem, load_site_profile
    from adapters.profile.history import ProfileHistory

    shipped = SHIPPED_PROFILES / "refportal.yaml"

    def open_system(
        url: str, _: PortalSettings, picker: ElementPicker | None, data_dir: Path | None
    ) -> BookingSystem:
        if data_dir is None:  # a tool with nowhere to keep a heal: healed for this run only
            return ProfileSystem(url, load_site_profile(shipped), picker=picker)
        working = _working_copy(shipped, data_dir / "profiles")
        history = ProfileHistory(working)
        return ProfileSystem(url, load_site_profile(working), history=history, picker=picker)

    # PORTAL__PROFILE stays what it was for this kind: a file of more local words (TOML).
    return _Adapter(open=open_system)


def _working_copy(shipped: Path, folder: Path) -> Path:
    """The copy of a shipped profile that this installation runs and heals
    (``DATA_DIR/profiles/NAME.yaml``, its versions beside it): the package's own file is
    never written (it may be read-only, and an upgrade replaces it). A new release's
    profile replaces the copy; a copy healed since is kept as a version, so
    ``clubman site revert`` can bring its heals back."""
    from adapters.profile.history import ProfileHistory

    working = folder / shipped.name
    seed = folder / f".{shipped.stem}.shipped.yaml"  # the release the copy came from
    text = shipped.read_text(encoding="utf-8")
    seeded = seed.read_text(encoding="utf-8") if seed.is_file() else None
    if working.is_file():
        if seeded == text:
            return working
        if working.read_text(encoding="utf-8") not in (text, seeded):
            # Healed (or edited) here, and the release changed its profile since.
            ProfileHistory(working).write(text, made_by="новая версия из пакета")
            log.warning("profile.shipped_replaced_healed", path=str(working))
    folder.mkdir(parents=True, exist_ok=True)
    _write(working, text)
    _write(seed, text)
    return working


def _write(path: Path, text: str) -> None:
    partial = path.with_name(f".{path.name}.tmp")
    partial.write_text(text, encoding="utf-8")
    partial.replace(path)


def _profile() -> _Adapter:
    from adapters.profile import ProfileSystem, load_site_profile
    from adapters.profile.history import ProfileHistory

    def open_system(
        url: str, portal: PortalSettings, picker: ElementPicker | None, _: Path | None
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
    portal: PortalSettings,
    url: str,
    *,
    picker: ElementPicker | None = None,
    data_dir: Path | None = None,
) -> BookingSystem:
    """The configured booking system at ``url`` (a bad site profile is a ``ConfigError``
    naming its line); ``picker``: the LLM that heals a profile a site outgrew;
    ``data_dir``: where a shipped profile's healed versions are kept (none: a heal
    lasts the run)."""
    return _adapter(portal.kind).open(url, portal, picker, data_dir)


def choose_event_site(portal: PortalSettings, url: str, *, timezone: str) -> EventSite | None:
    """The configured site's events, or ``None`` when it has none."""
    adapter = _adapter(portal.kind)
    return adapter.events(url, timezone) if adapter.events is not None else None


def words_file(portal: PortalSettings) -> Path | None:
    """The file of more local words for the site's buildings: ``PORTAL__PROFILE``; none
    for a site profile (its words are part of it, as the shipped ones' are)."""
    adapter = _adapter(portal.kind)
    if adapter.site_profile:
        return None
    return portal.profile


def preload_adapter(kind: str) -> None:
    """Import the adapter now (for a supervisor's forked workers)."""
    _adapter(kind)
