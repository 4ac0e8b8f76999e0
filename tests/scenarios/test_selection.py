"""Choosing rooms and the times to try instead (``scenarios.booking.selection``), rule by
rule on hand-made availability: no site, no browser, so every rule is pinned where it
lives. Issue 31: a catalogue whose room numbers run on from one floor to the next (109 on
floor 1, 110 on floor 2) must not give 109 and 110 as adjacent; the other cases kill the
mutants ``make mutants`` found surviving here."""

from __future__ import annotations

from datetime import date, time

import pytest

from core.site.models import Room, Rules
from scenarios.booking.models import Availability, RoomAvailability
from scenarios.booking.selection import Want, choose_rooms, free_rooms, nearest_times, shift

DAY = date(2026, 11, 26)
START, END = time(18), time(20)
BUSY = (time(17), time(19))  # overlaps START–END


def room(number: str, *, floor: int | None = 1, building: str = "main", **extra: object) -> Room:
    return Room.model_validate(
        {"id": f"{building}-{number}", "building": building, "number": number, "floor": floor}
        | extra
    )


def grid(*rooms: Room, busy: tuple[str, ...] = ()) -> Availability:
    """Availability of ``rooms`` on DAY: those numbered in ``busy`` are taken 17–19."""
    return Availability(
        building="main",
        day=DAY,
        rooms=[RoomAvailability(room=r, busy=[BUSY] if r.number in busy else []) for r in rooms],
    )


def numbers(rooms: list[Room] | None) -> list[str] | None:
    return None if rooms is None else [r.number for r in rooms]


def choose(available: Availability, want: Want, *, ours: tuple[str, ...] = ()) -> list[str] | None:
    return numbers(choose_rooms(available, want, START, END, ours=ours))


PAIR = Want(count=2, adjacent=True)

# --- adjacency ----------------------------------------------------------------------------


def test_rooms_numbered_on_across_a_floor_change_are_not_adjacent() -> None:
    """109 ends floor 1 and 110 starts floor 2: numbers one apart, not side by side."""
    across = grid(room("109", floor=1), room("110", floor=2))
    assert choose(across, PAIR) is None
    assert choose(across, Want(count=1, adjacent=True)) == ["109"]


def test_a_run_stops_at_the_floor_and_is_found_on_either_side_of_it() -> None:
    floors = grid(
        room("108", floor=1), room("109", floor=1), room("110", floor=2), room("111", floor=2)
    )
    assert choose(floors, PAIR) == ["108", "109"]
    assert choose(floors, PAIR, ours=("110",)) == ["110", "111"]
    assert choose(floors, Want(count=3, adjacent=True)) is None


def test_rooms_of_two_buildings_are_never_adjacent() -> None:
    assert choose(grid(room("101"), room("102", building="lib")), PAIR) is None


def test_adjacent_rooms_are_found_whatever_order_the_site_lists_them_in() -> None:
    assert choose(grid(room("103"), room("101"), room("102")), PAIR) == ["101", "102"]


def test_the_last_pair_on_a_floor_is_found_when_it_is_the_only_one() -> None:
    assert choose(grid(room("101"), room("103"), room("104")), PAIR) == ["103", "104"]
    assert choose(grid(room("101"), room("103"), room("105")), PAIR) is None


def test_three_adjacent_need_three_in_a_row() -> None:
    row = grid(room("101"), room("102"), room("104"), room("105"), room("106"))
    assert choose(row, Want(count=3, adjacent=True)) == ["104", "105", "106"]
    assert choose(row, Want(count=4, adjacent=True)) is None


def test_rooms_without_a_position_are_never_adjacent() -> None:
    hall = grid(room("Актовый зал"), room("Малый зал"))
    assert choose(hall, PAIR) is None
    assert choose(hall, Want(count=2)) == ["Актовый зал", "Малый зал"]


def test_rooms_numbered_after_a_prefix_are_adjacent_by_their_digits() -> None:
    """An English MRBS names its rooms «Room N-113», «Room N-114»; a campus's «2.04» is
    floor 2, room 04: the digits, not the word or the letter before them, are the place."""
    north = grid(room("Room N-113"), room("Room N-114"), room("Room N-115"), room("Lab 2.04"))
    assert choose(north, Want(count=3, adjacent=True)) == ["Room N-113", "Room N-114",
                                                           "Room N-115"]  # fmt: skip
    assert choose(grid(room("Lab 2.04"), room("Lab 2.05"), room("Lab 3.01")), PAIR) == [
        "Lab 2.04",
        "Lab 2.05",
    ]
    assert choose(grid(room("Lab 2.05"), room("Lab 3.01")), PAIR) is None


def test_a_run_that_reuses_our_bookings_comes_first() -> None:
    """After a restart the run booked before is found again, not a fresh one."""
    row = grid(room("101"), room("102"), room("104"), room("105"), busy=("104", "105"))
    assert choose(row, PAIR) == ["101", "102"]
    assert choose(row, PAIR, ours=("104", "105")) == ["104", "105"]
    assert choose(row, PAIR, ours=("105",)) == ["101", "102"]  # 104 is someone else's


def test_one_adjacent_room_is_any_free_room() -> None:
    """«рядом» means nothing for a single room: a room with no position will do."""
    assert choose(grid(room("Актовый зал")), Want(count=1, adjacent=True)) == ["Актовый зал"]


def test_rooms_sharing_a_position_do_not_stop_the_search_for_a_run() -> None:
    """12а and 12б stand at the same place along the floor: either may start a run with 13
    (as the site lists them, the later one does)."""
    assert choose(grid(room("12а"), room("12б"), room("13")), PAIR) == ["12б", "13"]


def test_a_busy_room_breaks_the_run() -> None:
    row = grid(room("101"), room("102"), room("103"), busy=("102",))
    assert choose(row, PAIR) is None


# --- which rooms count -------------------------------------------------------------------


def test_free_rooms_are_those_free_for_the_whole_range_or_already_ours() -> None:
    three = grid(room("101"), room("102"), room("103"), busy=("102", "103"))
    assert numbers(free_rooms(three, START, END)) == ["101"]
    assert numbers(free_rooms(three, START, END, ours=["103"])) == ["101", "103"]
    assert numbers(free_rooms(three, time(19), time(20))) == ["101", "102", "103"]


def test_rooms_needing_approval_are_never_chosen() -> None:
    pending = grid(room("101", needs_approval=True), room("102"))
    assert choose(pending, Want()) == ["102"]
    assert choose(pending, Want(numbers=["101"])) is None


def test_capacity_is_a_minimum_and_an_unknown_capacity_does_not_meet_it() -> None:
    seats = grid(room("101", capacity=10), room("102", capacity=None), room("103", capacity=30))
    assert choose(seats, Want(capacity=10)) == ["101"]
    assert choose(seats, Want(capacity=11)) == ["103"]
    assert choose(seats, Want(capacity=1, count=3)) is None  # 102's seats are not known
    assert choose(seats, Want(count=3)) == ["101", "102", "103"]


# --- named rooms -------------------------------------------------------------------------


def test_named_rooms_are_chosen_in_the_order_named() -> None:
    three = grid(room("101"), room("102"), room("103"))
    assert choose(three, Want(count=2, numbers=["103", "101"])) == ["103", "101"]


def test_named_rooms_are_all_or_nothing() -> None:
    three = grid(room("101"), room("102"), room("103"), busy=("102",))
    assert choose(three, Want(count=2, numbers=["101", "102"])) is None
    assert choose(three, Want(numbers=["999"])) is None
    assert choose(three, Want(count=2, numbers=["101", "102"]), ours=("102",)) == ["101", "102"]


# --- ranking of any free rooms -----------------------------------------------------------


def test_any_rooms_rank_ours_then_lower_floor_then_position_then_number() -> None:
    rooms = grid(
        room("305", floor=3), room("201", floor=2), room("204", floor=2), room("20а", floor=2)
    )
    assert choose(rooms, Want(count=4)) == ["20а", "201", "204", "305"]
    assert choose(rooms, Want(count=1), ours=("305",)) == ["305"]


def test_a_room_whose_floor_is_not_known_ranks_as_the_ground_floor() -> None:
    rooms = grid(room("101", floor=1), room("205", floor=None))
    assert choose(rooms, Want()) == ["205"]


def test_rooms_of_the_same_position_are_ranked_by_number() -> None:
    rooms = grid(room("12б"), room("12а"))
    assert choose(rooms, Want()) == ["12а"]


def test_a_room_with_no_position_ranks_before_the_numbered_ones_of_its_floor() -> None:
    """Even before room 1: no position counts as position 0."""
    rooms = grid(room("1"), room("101"), room("Зал"))
    assert choose(rooms, Want()) == ["Зал"]


def test_too_few_free_rooms_is_none_and_just_enough_is_all_of_them() -> None:
    two = grid(room("101"), room("102"))
    assert choose(two, Want(count=2)) == ["101", "102"]
    assert choose(two, Want(count=3)) is None


# --- other times -------------------------------------------------------------------------

RULES = Rules(opens=time(8), closes=time(22), step_minutes=30)
ALL_DAY = Rules(opens=time(0), closes=time(23, 59), step_minutes=30)


@pytest.mark.parametrize(
    ("start", "end", "minutes", "moved"),
    [
        (time(18), time(20), 30, (time(18, 30), time(20, 30))),
        (time(18), time(20), -60, (time(17), time(19))),
        (time(9), time(10), -60, (time(8), time(9))),  # starts as the site opens
        (time(20), time(21), 60, (time(21), time(22))),  # ends as the site closes
        (time(9), time(10), -90, None),  # before opening
        (time(20), time(21), 90, None),  # after closing
    ],
)
def test_shift_keeps_the_duration_within_opening_hours(
    start: time, end: time, minutes: int, moved: tuple[time, time] | None
) -> None:
    assert shift(DAY, start, end, minutes, RULES) == moved


@pytest.mark.parametrize(
    ("start", "end", "minutes"),
    [
        (time(22, 30), time(23, 30), 60),  # the end runs into tomorrow
        (time(0, 30), time(1), -60),  # the start falls on yesterday
    ],
)
def test_shift_never_crosses_midnight(start: time, end: time, minutes: int) -> None:
    assert shift(DAY, start, end, minutes, ALL_DAY) is None


def test_nearest_times_alternate_later_and_earlier_by_the_sites_step() -> None:
    assert nearest_times(DAY, time(12), time(13), RULES, limit=2) == [
        (time(12, 30), time(13, 30)),
        (time(11, 30), time(12, 30)),
        (time(13), time(14)),
        (time(11), time(12)),
    ]


def test_nearest_times_skip_what_falls_outside_the_day() -> None:
    assert nearest_times(DAY, time(8), time(9), RULES, limit=2) == [
        (time(8, 30), time(9, 30)),
        (time(9), time(10)),
    ]


def test_nearest_times_reach_27_steps_either_way_by_default() -> None:
    """Enough to cover the portal's whole opening day; 46 steps fit later on this one."""
    later = nearest_times(DAY, time(0), time(0, 30), ALL_DAY)
    assert len(later) == 27 and later[-1] == (time(13, 30), time(14))
