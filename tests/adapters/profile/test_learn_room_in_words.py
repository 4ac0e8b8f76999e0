"""A booking's page that writes a room named in words after its building («North Campus -
Room N-113», an English MRBS): the draft reads the room's words, as many as the operator
named, and the building before them (a one-word room, MRBS's «101», is read as before)."""

from __future__ import annotations

import re

import pytest

from adapters.profile.learn.bookingpage import draft_booking_page
from adapters.profile.learn.recording import (
    Action,
    PickedText,
    Recording,
    SelectOption,
    ShownSelect,
    Step,
)

_SITE = "http://mrbs.test"


def _page(place: str) -> str:
    return f"""- heading "Chess club" [level=3]
- table:
  - rowgroup:
    - 'row "Start time: Saturday, December 12, 2026 at 4:00 PM"':
      - cell "Start time:"
      - cell "Saturday, December 12, 2026 at 4:00 PM"
    - 'row "End time: Saturday, December 12, 2026 at 5:00 PM"':
      - cell "End time:"
      - cell "Saturday, December 12, 2026 at 5:00 PM"
    - 'row "Room: {place}"':
      - cell "Room:"
      - cell "{place}"
- button "Delete Entry"
"""


def _recording(room: str) -> Recording:
    answers = {"room": room, "date": "2026-12-12", "start": "16:00", "end": "17:00"}
    area = ShownSelect(
        css='select[name="area"]', name="area", chosen="1",
        options=(SelectOption(value="1", text="North Campus"),
                 SelectOption(value="2", text="South Campus")),
    )  # fmt: skip
    day = Step(
        name="day", url=f"{_SITE}/index.php?view=day&page_date=2026-12-12&area=1",
        answers={"date": "2026-12-12"}, selects=(area,),
    )  # fmt: skip
    form = f"{_SITE}/edit_entry.php?area=1&room=1&year=2026&month=12&day=12&hour=16&minute=0"
    entry = f"{_SITE}/view_entry.php?id=4"
    book = Step(
        name="book", url=entry, answers=answers,  # the save led to the booking's page
        actions=(Action(kind="navigate", url=form),
                 Action(kind="fill", url=form, value="Chess club"),
                 Action(kind="navigate", url=entry)),
    )  # fmt: skip
    opened = Step(
        name="opened", url=entry, snapshot=_page(f"North Campus - {room}"),
        actions=(Action(kind="navigate", url=entry),),
        pieces=(PickedText(css="body h3", text="Chess club"),),
    )  # fmt: skip
    cancel = Step(
        name="cancel", url=f"{_SITE}/index.php", revisited="- paragraph: Invalid entry id."
    )
    return Recording(name="t", site=_SITE, steps=(day, book, opened, cancel))


def _read(regex: str, text: str) -> str:
    found = re.search(regex, text)
    assert found is not None, (regex, text)
    return found[1]


@pytest.mark.parametrize(
    ("room", "other"),
    [("Room N-113", "Room N-115"), ("Lab 2.04", "Lab 3.01"), ("101", "102")],
)
def test_a_room_after_its_building_is_read_by_its_own_words(room: str, other: str) -> None:
    page = draft_booking_page(_recording(room))
    assert page["room"]["term"] == page["building"]["term"] == "Room"
    assert _read(page["room"]["regex"], f"North Campus - {other}") == other
    assert _read(page["building"]["regex"], f"South Campus - {other}") == "South Campus"
    assert (page["start"], page["end"]) == (
        {"term": "Start time", "format": "hhmm"},
        {"term": "End time", "format": "hhmm"},
    )
    assert page["missing"] == [{"text": "Invalid entry id", "exact": False}]
