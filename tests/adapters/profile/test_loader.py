"""Loading a site profile: every mistake is a ``ProfileInvalid`` naming the file and the
line, before anything runs (no browser here).

Each bad profile (``bad_profiles``) is ``profiles/refportal.yaml`` with one mistake put
in, and each says which line of the edited text the error must name.
"""

from __future__ import annotations

from datetime import date, time
from pathlib import Path

import pytest

from adapters.profile.loader import VARIABLES, ProfileInvalid, load_site_profile, parse_site_profile
from app.systems import choose_system
from core.errors import ConfigError
from core.settings import PortalSettings
from tests.adapters.profile.bad_profiles import BAD_PROFILES
from tests.adapters.profile.profile_text import (
    FILE,
    REFPORTAL,
    ROOT,
    TEXT,
    edited,
    line_of,
    refused,
)


@pytest.mark.parametrize(("text", "line", "words"), BAD_PROFILES)
def test_a_bad_profile_is_refused_naming_its_file_and_line(
    text: str, line: str | tuple[str, str], words: tuple[str, ...]
) -> None:
    error = refused(text)
    for word in words:
        assert word in error.problem, error
    assert error.where == f"{FILE}:{line_of(text, line)}", error
    assert str(error) == f"{error.where}: {error.problem}"


def test_a_missing_part_is_refused_naming_it() -> None:
    """No line holds a missing part: the error names where the profile's parts begin."""
    before, after = TEXT.split("\nbook:\n")
    text = before + "\n" + after[after.index("booking_page:") :]
    error = refused(text)
    assert "«book» is missing" in error.problem
    assert error.where == f"{FILE}:{line_of(text, 'name:')}"


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("- login\n- book\n", id="a-list"),
        pytest.param("Reference portal\n", id="a-word"),
        pytest.param("", id="empty"),
        pytest.param("# only a comment\n", id="only-comments"),
        pytest.param("---\n...\n", id="empty-document"),
    ],
)
def test_a_file_that_is_not_a_mapping_is_refused(text: str) -> None:
    error = refused(text)
    assert error.where == f"{FILE}:1"
    assert "a profile is a mapping of parts" in error.problem


def test_several_documents_are_refused() -> None:
    error = refused(TEXT + "---\nname: Second portal\n")
    assert "not valid YAML" in error.problem
    assert error.where == f"{FILE}:{line_of(TEXT + '---', '---')}"


def test_a_missing_file_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(ProfileInvalid) as caught:
        load_site_profile(path)
    assert caught.value.where == str(path)
    assert "cannot read it" in caught.value.problem
    assert "No such file" in caught.value.problem


def test_a_directory_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ProfileInvalid) as caught:
        load_site_profile(tmp_path)
    assert caught.value.where == str(tmp_path)
    assert "cannot read it" in caught.value.problem


def test_a_file_that_is_not_utf8_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "cp1251.yaml"
    path.write_bytes(TEXT.encode("cp1251"))
    with pytest.raises(ProfileInvalid) as caught:
        load_site_profile(path)
    assert caught.value.where == str(path)
    assert "UTF-8" in caught.value.problem


def test_a_bad_profile_stops_the_bot_at_start(tmp_path: Path) -> None:
    """``PORTAL__KIND=profile`` with a bad profile: a ``ConfigError`` naming the line,
    raised when the system is chosen, before any browser or page."""
    path = tmp_path / "mysite.yaml"
    text = edited("name: Reference portal\n", "name: Reference portal\nnmae: x\n")
    path.write_text(text, encoding="utf-8")
    portal = PortalSettings(kind="profile", url="http://127.0.0.1:9", profile=path)
    with pytest.raises(ConfigError) as caught:
        choose_system(portal, "http://127.0.0.1:9")
    assert isinstance(caught.value, ProfileInvalid)
    assert caught.value.where == f"{path}:{line_of(text, 'nmae:')}"
    assert "unknown key «nmae»" in caught.value.problem


# -- the good profile ------------------------------------------------------------------------


def test_the_reference_profile_loads() -> None:
    loaded = load_site_profile(REFPORTAL)
    profile = loaded.profile
    assert profile.name == "Reference portal"
    assert loaded.file == str(REFPORTAL)
    assert [str(action.value) for action in profile.book.fields] == [
        "{date|iso}",
        "{start|hhmm}",
        "{end|hhmm}",
        "{purpose}",
        "{attendees}",
    ]
    assert profile.rules.opens == time(8, 0) and profile.rules.closes == time(22, 0)
    assert profile.cancel.confirm == "native"
    assert profile.may_change == {"login": ("/login", "/notice"), "book": ("/book",)}


def test_the_reference_profile_names_its_lines() -> None:
    loaded = load_site_profile(REFPORTAL)
    assert loaded.where("booking_page.url") == f"{REFPORTAL}:{line_of(TEXT, '  url: /booking/')}"
    assert loaded.where("book.booked") == f"{REFPORTAL}:{line_of(TEXT, '  booked:')}"
    assert loaded.where("login.failure.refusals.3") == (
        f"{REFPORTAL}:{line_of(TEXT, '      - {status: 401')}"
    )
    # A default the file does not write: its nearest written parent's line.
    assert loaded.where("book.outcome.message.0.exact") == (
        f"{REFPORTAL}:{line_of(TEXT, '    code_attr:') - 1}"
    )


def test_the_reference_profile_uses_only_variables_its_parts_have() -> None:
    profile = load_site_profile(REFPORTAL).profile
    assert profile.availability.open.url is not None
    assert profile.availability.open.url.names <= VARIABLES["availability"]
    assert profile.booking_page.url.names == {"number"}
    written = profile.book.open.url
    assert written is not None
    assert (
        written.render(
            {
                "room_id": "main 101/a",
                "date": date(2026, 11, 27),
                "start": time(18, 0),
                "end": time(19, 30),
            }
        )
        == "/book?room=main%20101%2Fa&date=2026-11-27&start=18:00&end=19:30"
    )


def test_a_mapping_of_a_profile_may_come_in_any_order() -> None:
    head, rest = TEXT.split("\nlogin:\n")
    login, after = rest.split("\ncatalogue:\n")
    text = head + "\ncatalogue:\n" + after + "\nlogin:\n" + login + "\n"
    assert parse_site_profile(text, FILE).profile == load_site_profile(REFPORTAL).profile


def test_a_literal_brace_in_a_profile_template_is_kept() -> None:
    text = edited("  url: /booking/{number}\n", "  url: /booking/{{id}}/{number}\n")
    url = parse_site_profile(text, FILE).profile.booking_page.url
    assert url.names == {"number"}
    assert url.render({"number": "42"}) == "/booking/{id}/42"


def test_the_indico_profile_loads_as_pages_its_scripts_draw() -> None:
    profile = load_site_profile(ROOT / "profiles" / "indico.yaml").profile
    assert profile.availability.timeline is not None and profile.availability.grid is None
    assert profile.availability.open.wait is not None
    assert profile.my_bookings.items is not None and profile.my_bookings.number[0].of == "address"
    dated = profile.my_bookings.date[0]
    assert dated.of == "group" and dated.format == "long"
    assert profile.cancel.at == "booking_page" and profile.booking_page.number is None
    assert profile.book.made is not None and profile.book.taken is not None
    assert profile.catalogue.words["7"].name == "Корпус 7"
