"""``clubman parse`` with no browser and no site: the cached catalogue, else no building
names and one line saying so; a decision is printed either way (issue 25, item 5)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from app.compose import catalogues_for
from core.clock import ManualClock
from core.settings import load_settings
from core.site.models import Catalogue
from storage.process import free_port
from tests.support.catalogues import REFPORTAL_CATALOGUE

CLUBMAN = str(Path(sys.executable).parent / "clubman")
NOW = "2026-11-23T10:00:00+03:00"  # a Monday: "этот четверг" is 2026-11-26


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No Chromium to be found and the portal's URL on a closed port (with a club account,
    so reading the site gets as far as wanting a browser). Returns ``DATA_DIR``."""
    data_dir = tmp_path / "data"
    no_programs = tmp_path / "empty-bin"
    no_programs.mkdir()
    monkeypatch.setenv("DATA_DIR", str(data_dir))
    monkeypatch.setenv("BROWSER__EXECUTABLE", str(tmp_path / "no-such-chromium"))
    monkeypatch.setenv("PATH", f"{no_programs}{os.pathsep}{os.environ.get('PATH', '')}")
    monkeypatch.setenv("PORTAL__URL", f"http://127.0.0.1:{free_port()}")
    monkeypatch.setenv("PORTAL__USERNAME", "club")
    monkeypatch.setenv("PORTAL__PASSWORD", "club-demo")
    return data_dir


def parse(text: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "REDIS_URL")}
    return subprocess.run(
        [CLUBMAN, "parse", text, "--json", "--now", NOW],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_with_nothing_cached_and_no_site_it_parses_without_building_names(offline: Path) -> None:
    result = parse("забронируй 3 аудитории рядом в этот четверг с 18 до 20")
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    assert decision["intent"] == "book_rooms"
    slots = decision["slots"]
    assert slots["date"] == "2026-11-26"
    assert (slots["start"], slots["end"]) == ("18:00", "20:00")
    assert slots["rooms"] == 3
    assert slots["adjacent"] is True
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("clubman: no catalogue cached and the site is not reachable")
    assert "BROWSER__EXECUTABLE" in lines[0]  # the reason, for the operator
    assert "parsing without building names" in lines[0]


async def test_a_cached_catalogue_however_old_names_the_buildings_with_no_browser(
    offline: Path,
) -> None:
    settings = load_settings()

    async def unreachable() -> Catalogue:
        raise AssertionError("the site is not read when the catalogue is learnt")

    long_ago = ManualClock(datetime.now(UTC) - timedelta(days=20))  # stale for the bot
    await catalogues_for(settings, read=unreachable, clock=long_ago).learn(REFPORTAL_CATALOGUE)
    cache = {path: path.read_bytes() for path in (offline / "cache").iterdir()}
    assert len(cache) == 1

    result = parse("забронируй аудиторию в главном корпусе в этот четверг с 18 до 20")

    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    assert decision["intent"] == "book_rooms"
    assert decision["slots"]["building"] == "main"
    assert result.stderr == ""  # no browser, no site, no warning
    assert {path: path.read_bytes() for path in (offline / "cache").iterdir()} == cache


def test_an_events_command_is_read_as_the_events_jobs_and_a_refused_one_as_a_refusal(
    offline: Path,
) -> None:
    created = parse("создай мероприятие «Открытое занятие» в этот четверг с 18 до 20 в 7-101")
    assert created.returncode == 0, created.stderr
    decision = json.loads(created.stdout)
    assert decision["intent"] == "create_event"
    slots = decision["slots"]
    assert (slots["title"], slots["room_name"]) == ("Открытое занятие", "7-101")
    assert (slots["date"], slots["start"], slots["end"]) == ("2026-11-26", "18:00", "20:00")
    refused = parse("не создавай мероприятие «Открытое занятие» в четверг")
    assert refused.returncode == 0, refused.stderr
    assert json.loads(refused.stdout)["intent"] == "decline"
