"""Healing without an LLM on the reference portal: a profile whose first locator for the
booking's button no longer matches (the site reworded it) books with its second one,
and — the booking made and read back — that one is moved first in the file as a new
version; the next run finds it first and writes nothing. A later candidate that finds
the wrong element fails its step and writes nothing. ``clubman site history`` and
``clubman site revert`` show and undo a heal."""

from __future__ import annotations

import subprocess
import sys
from datetime import time
from pathlib import Path

import pytest

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.history import ProfileHistory
from core.browser import BrowserPool
from core.errors import ClubError
from core.site.models import Room
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import FAST, FRIDAY, active_bookings
from tests.support.drift import page_path_only

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"
CLUBMAN = Path(sys.executable).with_name("clubman")
SUBMIT = "  submit:\n    - role: button\n      name: Забронировать\n"


def _reworded(tmp_path: Path, stand_in: str) -> Path:
    """refportal.yaml with a first candidate for the booking's button that is not there."""
    text = page_path_only(PROFILE.read_text(encoding="utf-8"))  # the form's button is used
    assert text.count(SUBMIT) == 1
    first = "  submit:\n    - role: button\n      name: Отправить заявку\n"
    path = tmp_path / "site.yaml"
    path.write_text(text.replace(SUBMIT, first + stand_in), encoding="utf-8")
    return path


async def _book_and_cancel(portal: RunningPortal, pool: BrowserPool, path: Path) -> str:
    system = ProfileSystem(
        portal.url, load_site_profile(path), retry=FAST, history=ProfileHistory(path)
    )
    async with pool.context() as context:
        session = system.open_session(context, username="club", password="club-demo")
        try:
            shown = await session.availability("main", FRIDAY)
            room: Room = shown.free_rooms(time(10), time(11))[0]
            made = await session.book(
                room=room, day=FRIDAY, start=time(10), end=time(11), purpose="heal · #run42"
            )
            await session.cancel(made.number)
        finally:
            await session.close()
    return made.number


def _clubman(*args: str) -> str:
    done = subprocess.run([str(CLUBMAN), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


async def test_a_step_passed_with_a_later_locator_promotes_it_as_a_new_version(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path
) -> None:
    path = _reworded(tmp_path, "    - role: button\n      name: Забронировать\n")
    written = path.read_text(encoding="utf-8")

    await _book_and_cancel(fresh_portal, pool, path)
    assert await active_bookings(fresh_portal.url, purpose="heal · #run42") == []
    healed = load_site_profile(path).profile.book.submit
    assert [way.name for way in healed] == ["Забронировать", "Отправить заявку"]
    history = ProfileHistory(path)
    assert [(v.number, v.run) for v in history.versions()] == [(1, ""), (2, "#run42")]
    assert history.text(1) == written
    assert history.versions()[1].changes == ("book.submit: кандидат 2 стал первым",)
    # Only the two candidates swapped: every other line (the comments too) as it was.
    assert sorted(path.read_text(encoding="utf-8").splitlines()) == sorted(written.splitlines())

    # The next run finds the button with the first locator: nothing more is written.
    await _book_and_cancel(fresh_portal, pool, path)
    assert len(ProfileHistory(path).versions()) == 2

    shown = _clubman("site", "history", str(path))
    assert "версия 2" in shown and "исправлен: бронирование, запуск #run42" in shown
    assert "+      name: Забронировать\n+    - role: button\n" in shown  # moved up
    assert "-      name: Забронировать\n" in shown  # from below
    assert "версия 1 снова текущая (записана как версия 3)" in _clubman(
        "site", "revert", str(path), "1"
    )
    assert path.read_text(encoding="utf-8") == written


async def test_a_later_locator_that_finds_the_wrong_element_writes_nothing(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path
) -> None:
    # The one «Мои брони» link: found exactly once, but clicking it books nothing.
    path = _reworded(tmp_path, "    - role: link\n      name: Мои брони\n")
    written = path.read_text(encoding="utf-8")
    with pytest.raises(ClubError):
        await _book_and_cancel(fresh_portal, pool, path)
    assert path.read_text(encoding="utf-8") == written
    assert ProfileHistory(path).versions() == []
    assert await active_bookings(fresh_portal.url, purpose="heal · #run42") == []


async def test_a_heal_in_a_list_written_on_one_line_is_written_there(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path
) -> None:
    # The same heal as above, the candidates written as a flow list with a comment after
    # it: the two items swap on that line, the comment stays, and the version says so.
    text = page_path_only(PROFILE.read_text(encoding="utf-8"))
    flow = (
        "  submit: [{role: button, name: Отправить заявку}, "
        "{role: button, name: Забронировать}]  # the form's button\n"
    )
    path = tmp_path / "site.yaml"
    path.write_text(text.replace(SUBMIT, flow), encoding="utf-8")
    await _book_and_cancel(fresh_portal, pool, path)
    healed = path.read_text(encoding="utf-8")
    assert (
        "  submit: [{role: button, name: Забронировать}, "
        "{role: button, name: Отправить заявку}]  # the form's button\n"
    ) in healed
    assert [way.name for way in load_site_profile(path).profile.book.submit] == [
        "Забронировать",
        "Отправить заявку",
    ]
    versions = ProfileHistory(path).versions()
    assert [v.changes for v in versions[1:]] == [("book.submit: кандидат 2 стал первым",)]


async def test_a_hand_edit_between_two_heals_is_a_version_of_its_own(tmp_path: Path) -> None:
    path = tmp_path / "site.yaml"
    path.write_text("name: site\n", encoding="utf-8")
    history = ProfileHistory(path)
    history.write("name: site\n# healed once\n", made_by="исправлен: вход")
    path.write_text("name: site\n# healed once\n# and a hand's note\n", encoding="utf-8")
    history.write(
        "name: site\n# healed once\n# and a hand's note\n# twice\n", made_by="исправлен: вход"
    )
    versions = history.versions()
    assert [v.made_by for v in versions] == [
        "исходный", "исправлен: вход", "правка вручную", "исправлен: вход",
    ]  # fmt: skip
    assert history.text(3) == "name: site\n# healed once\n# and a hand's note\n"
    history.revert(3)  # back past the second heal: the hand's note stays
    assert path.read_text(encoding="utf-8") == history.text(3)


async def test_a_table_found_by_its_second_candidate_is_promoted_too(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path
) -> None:
    # Not only a control: the day's table, found by its later candidate in a day read that
    # passed, is moved first like a button (it was used silently before).
    table = "    table:\n      - role: table\n        name: Занятость аудиторий\n"
    text = page_path_only(PROFILE.read_text(encoding="utf-8"))
    assert text.count(table) == 1
    path = tmp_path / "site.yaml"
    stand_in = "    table:\n      - role: table\n        name: Расписание аудиторий\n"
    path.write_text(text.replace(table, stand_in + table[len("    table:\n") :]), "utf-8")
    await _book_and_cancel(fresh_portal, pool, path)
    grid = load_site_profile(path).profile.availability.grid
    assert grid is not None and [way.name for way in grid.table] == [
        "Занятость аудиторий",
        "Расписание аудиторий",
    ]
    changes = [c for v in ProfileHistory(path).versions() for c in v.changes]
    assert changes == ["availability.grid.table: кандидат 2 стал первым"]
