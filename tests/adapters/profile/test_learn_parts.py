"""Drafting from what a demonstration recorded, without a browser: a room named in parts
(«7/7-704»), the building among several values of the day's address, and a booking's
page drawn as a modal, read by the pieces of text it showed. (That the drafts work is
proven live: ``tests/adapters/indico/test_learn_indico.py`` runs the contract suite on
the whole drafted profile.)"""

from __future__ import annotations

import re

import pytest

from adapters.profile.errors import DraftError
from adapters.profile.learn.bookingpage import draft_booking_page
from adapters.profile.learn.draft import may_change
from adapters.profile.learn.recording import Action, PickedText, Recording, SentRequest, Step
from adapters.profile.learn.timeline import room_shape
from adapters.profile.learn.values import building_code

_SITE = "http://rooms.test"
_DAY = f"{_SITE}/rooms/calendar?view=timeline&date=2026-12-06&building=7"
_BOOKED = f"{_SITE}/rooms/book?sd=2026-12-06&text=7/7-704&modal=booking-details:42"
_MODAL = "div.modal"


def _read(regex: str, text: str) -> str:
    found = re.search(regex, text)
    assert found is not None, (regex, text)
    return found[1]


@pytest.mark.parametrize(
    ("name", "number", "floor", "building"),
    [
        ("7/7-704", "704", "7", "7"),
        ("7/12-1a Читальный зал", "1a", "12", "7"),
    ],
)
def test_a_room_named_in_parts_is_read_by_them(
    name: str, number: str, floor: str, building: str
) -> None:
    shape = room_shape(name, "7")
    assert shape is not None and shape.building is not None and shape.floor is not None
    assert _read(shape.number, name) == number
    assert _read(shape.floor, name) == floor
    assert _read(shape.building, name) == building
    assert _read(shape.id, name) == name.split(" ")[0]


def test_a_plain_room_number_has_no_parts_and_another_buildings_first_part_is_not_one() -> None:
    assert room_shape("201", "main") is None
    assert room_shape("201 (2 этаж, 24 места)", "main") is None
    shape = room_shape("B-201", "7")  # «B» is not building 7: only the number is read
    assert shape is not None and shape.building is None and shape.floor is None
    assert _read(shape.number, "B-201") == "201"


def _step(name: str, url: str, **more: object) -> Step:
    return Step.model_validate({"name": name, "url": url, **more})


def _recording(book_pieces: list[PickedText], cancel_pieces: list[PickedText]) -> Recording:
    answers = {"room": "7/7-704", "date": "2026-12-06", "start": "18:00", "end": "19:00"}
    book = _step(
        "book", _BOOKED, answers=answers, pieces=book_pieces,
        actions=[
            Action(kind="navigate", url=f"{_SITE}/rooms/book?sd=2026-12-06&text=7/7-704"),
            Action(kind="fill", url=_BOOKED, value="Шахматы"),
            Action(kind="navigate", url=_BOOKED),
        ],
    )  # fmt: skip
    listed = f"{_SITE}/rooms/calendar?view=list&my_bookings=true"
    cancel = _step(
        "cancel", f"{listed}&modal=booking-details:42", pieces=cancel_pieces,
        actions=[
            Action(kind="navigate", url=listed),
            Action(kind="click", url=listed),
            Action(kind="navigate", url=f"{listed}&modal=booking-details:42"),
        ],
    )  # fmt: skip
    day = _step("day", _DAY, answers={"date": "2026-12-06"})
    return Recording(name="t", site=_SITE, steps=(day, book, cancel))


def _pieces(*pairs: tuple[str, str]) -> list[PickedText]:
    return [PickedText(css=f"{_MODAL} {css}", text=text) for css, text in pairs]


_SHOWN = _pieces(
    (".status .green.label", "Accepted"),
    (".details", "7/7-704 Университет 8 seats Sun 06/12/2026 18:00 → 19:00"),
    (".details .header", "7/7-704"),
    (".when", "Sun 06/12/2026 18:00 → 19:00"),
    (".when .day", "Sun 06/12/2026"),
    (".when .time", "18:00 → 19:00"),
    (".when .time strong", "18:00"),
    (".reason", "Booking reason Шахматы"),
    (".reason .header", "Booking reason"),
    (".log", "28/11/2026 04:31 - Booking created"),
)


def test_the_booked_room_names_its_building_when_the_days_address_has_several_values() -> None:
    recording = _recording(_SHOWN, [])
    assert building_code(recording, {"date": "2026-12-06"}) == "7"  # not «timeline»


def test_a_booking_shown_in_a_modal_is_read_by_its_innermost_pieces() -> None:
    cancelled = [*_SHOWN[1:], *_pieces((".status .grey.label", "Cancelled"))]
    page = draft_booking_page(_recording(_SHOWN, cancelled))
    assert page["url"] == "/rooms/book?modal=booking-details:{number}"
    assert page["wait"] == [{"css": f"{_MODAL} .details .header"}]
    assert page["room"]["css"] == page["building"]["css"] == f"{_MODAL} .details .header"
    assert _read(page["room"]["regex"], "7/7-705") == "705"
    assert _read(page["building"]["regex"], "7/7-705") == "7"
    assert page["date"] == {"css": f"{_MODAL} .when .day", "format": "dmy_slash"}
    assert page["time"] == {"css": f"{_MODAL} .when .time", "format": "span"}
    assert page["purpose"]["css"] == f"{_MODAL} .reason"
    assert _read(page["purpose"]["regex"], "Booking reason Шахматы и шашки") == "Шахматы и шашки"
    # What the cancel's modal showed that the booking's did not, in a word saying so.
    assert page["cancelled"] == {"has": f"{_MODAL} .status .grey.label"}


def test_a_modal_without_the_bookings_time_or_a_cancelled_mark_is_not_drafted() -> None:
    timeless = [p for p in _SHOWN if "18:00" not in p.text]
    with pytest.raises(DraftError, match="не видно всех её данных"):
        draft_booking_page(_recording(timeless, _SHOWN))
    with pytest.raises(DraftError, match="отменённую бронь"):
        draft_booking_page(_recording(_SHOWN, _SHOWN))  # the same modal after the cancel


def test_may_change_is_drafted_from_the_sites_own_changes_only() -> None:
    """A login through a sign-in service on another host: its path is not the site's, and
    a change sent to a bare address is the site's «/»."""
    login = _step(
        "login", f"{_SITE}/home",
        requests=[SentRequest(method="POST", url="https://sso.example/auth/submit"),
                  SentRequest(method="POST", url="HTTP://ROOMS.TEST?next=1"),
                  SentRequest(method="POST", url=f"{_SITE}/login?next=/home")],
    )  # fmt: skip
    book = _step("book", _BOOKED, requests=[SentRequest(method="POST", url="https://evil.x/b")])
    drafted = may_change(Recording(name="t", site=_SITE, steps=(login, book)))
    assert drafted == {"login": ["/", "/login"]}
