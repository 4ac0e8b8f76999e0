"""One list of canonical IANA zones: what a person may set, and nothing zoneinfo merely opens."""

from __future__ import annotations

from zoneinfo import ZoneInfo

import pytest

from core.zones import canonical_zone


@pytest.mark.parametrize(
    ("name", "zone"),
    [
        ("Europe/Moscow", "Europe/Moscow"),
        ("europe/berlin", "Europe/Berlin"),
        ("Europe/Kiev", "Europe/Kyiv"),  # renamed: the link means its zone
        ("US/Eastern", "America/New_York"),
        ("UTC", "Etc/UTC"),
        ("Etc/GMT+3", "Etc/GMT+3"),
    ],
)
def test_zones_and_links_with_an_area_are_their_canonical_zone(name: str, zone: str) -> None:
    assert canonical_zone(name) == zone
    ZoneInfo(zone)  # and it opens


@pytest.mark.parametrize(
    "name",
    ["posixrules", "Factory", "localtime", "right/UTC", "posix/Europe/Moscow", "Cuba", "",
     "Mars/Phobos", "../../etc/passwd", "Europe/" + "x" * 5000],
)  # fmt: skip
def test_anything_else_is_no_time_zone(name: str) -> None:
    assert canonical_zone(name) is None
