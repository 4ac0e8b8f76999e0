"""The catalogue service: cached, refreshed, and never in the way of starting up."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from core.clock import ManualClock
from core.errors import ConfigError, PortalError
from core.site.catalogue import Catalogues
from core.site.models import Building, Catalogue
from core.site.profile import Profile, load_profile
from storage.files import FileCache

NOW = datetime(2026, 11, 23, 9, 0, tzinfo=UTC)
SITE = Catalogue(system="test", buildings=(Building(code="lib", name="Библиотека"),))
PROFILE = Profile.model_validate({"buildings": {"lib": {"name_en": "Library", "words": ["Либа"]}}})


class Site:
    def __init__(self) -> None:
        self.reads = 0
        self.down = False

    async def read(self) -> Catalogue:
        self.reads += 1
        if self.down:
            raise PortalError("the portal answers 503")
        return SITE


def catalogues(site: Site, cache_dir: Path, clock: ManualClock) -> Catalogues:
    return Catalogues(
        read=site.read, cache=FileCache(cache_dir), key="test:x", profile=PROFILE, clock=clock
    )


async def test_read_once_then_cached_until_a_day_old(tmp_path: Path) -> None:
    site, clock = Site(), ManualClock(NOW)
    async with catalogues(site, tmp_path, clock) as first:
        assert first.current.building("lib") == Building(
            code="lib", name="Библиотека", name_en="Library", words=("либа",)
        )
        assert first.places.word("либа") == "lib"
    async with catalogues(site, tmp_path, clock):  # a restart: from the cache
        assert site.reads == 1
    clock.advance(timedelta(days=1))
    async with catalogues(site, tmp_path, clock):
        assert site.reads == 2


async def test_a_site_down_at_restart_keeps_the_cached_catalogue(tmp_path: Path) -> None:
    site, clock = Site(), ManualClock(NOW)
    async with catalogues(site, tmp_path, clock):
        assert site.reads == 1  # read at start, and cached
    clock.advance(timedelta(days=2))
    site.down = True
    async with catalogues(site, tmp_path, clock) as again:
        assert again.known and again.current.building("lib") is not None


async def test_a_site_down_at_the_first_start_does_not_stop_the_start(tmp_path: Path) -> None:
    site, clock = Site(), ManualClock(NOW)
    site.down = True
    async with catalogues(site, tmp_path, clock) as unread:
        assert not unread.known and unread.current.buildings == ()
        await unread.learn(SITE)  # e.g. from a run's own session
        assert unread.known and unread.current.building("lib") is not None


def test_a_bad_profile_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "profile.toml"
    bad.write_text("[buildings.lib]\nnickname = 'x'\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="not valid"):
        load_profile(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_profile(tmp_path / "missing.toml")
