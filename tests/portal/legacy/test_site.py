"""The legacy booking site (portal/legacy) over plain HTTP: login and lock-out, the rowspan
day grid, booking with times in seconds, conflicts and rule refusals, the booking page,
«Мои брони» as a search, and cancelling."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

import pytest

from portal.clock import parse_hhmm
from portal.legacy.app import create_app
from portal.legacy.data import BUILDINGS
from portal.legacy.server import RunningLegacy
from portal.legacy.state import STATE
from tests.portal.helpers import START, TestClock
from tests.portal.legacy.visitor import (
    PURPOSE,
    THURSDAY,
    TOMORROW,
    Visitor,
    bookings,
    dmy,
    expand,
    props,
    room_301,
    tables,
)  # fmt: skip

pytestmark = pytest.mark.asyncio(loop_scope="session")


# --- data -------------------------------------------------------------------------------


async def test_buildings_have_numeric_ids_and_room_ids_unrelated_to_numbers() -> None:
    assert [(b.id, b.name) for b in BUILDINGS][:2] == [
        (1, "Главный корпус"),
        (2, "Корпус на Чайковского"),
    ]
    third_floor = [r for r in BUILDINGS[0].rooms if r.floor == 3]
    assert [r.number for r in third_floor][:4] == ["301", "302", "303", "304"]
    assert [r.id for r in third_floor][:4] == [22, 23, 24, 25]
    all_rooms = [r for b in BUILDINGS for r in b.rooms]
    assert len({r.id for r in all_rooms}) == len(all_rooms)
    assert all(str(r.id) != r.number for r in all_rooms)


async def test_seeding_is_deterministic_and_only_chess_in_the_daytime(clock: TestClock) -> None:
    def rows(seed: int | None) -> list[dict[str, object]]:
        app = create_app(seed=seed, clock=clock)
        return [b.as_json() for b in app[STATE].book.all()]

    first = rows(1)
    assert first == rows(1)
    assert first != rows(2)
    assert rows(0) == [] and rows(None) == []
    assert {b["user"] for b in first} == {"chess"}
    assert all("08:00" <= str(b["start"]) < str(b["end"]) <= "18:00" for b in first)
    days = {b["date"] for b in first}
    assert len(days) == 15  # today … today+14: no grid in the horizon is empty
    per_slot = [(b["room"], b["date"]) for b in first]
    assert len(per_slot) == len(set(per_slot))  # one booking per room and day: no overlaps


# --- login ------------------------------------------------------------------------------


async def test_root_sends_a_guest_to_the_login_form_and_back_after_login(guest: Visitor) -> None:
    root = await guest.get("/")
    assert root.status == 303 and root.location == "/auth/login?back=%2F"
    form = await guest.get(root.location)
    assert form.status == 200
    assert '<label for="j_username">Логин</label>' in form.text
    assert '<label for="j_password">Password</label>' in form.text
    assert 'type="submit" value="Войти"' in form.text
    assert re.search(r'<input type="hidden" name="_csrf" value="[^"]{20,}">', form.text)
    logged_in = await guest.login("club", "club-demo", back="/")
    assert logged_in.status == 303 and logged_in.location == "/"
    home = await guest.get("/")
    assert home.location == "/schedule"
    schedule = await guest.get("/schedule")
    assert schedule.status == 200 and 'href="/auth/logout">Выход</a>' in schedule.text


async def test_a_page_without_a_session_redirects_to_login_with_back(guest: Visitor) -> None:
    page = await guest.get("/my?q=Шахм")
    assert page.status == 303
    assert page.location is not None and page.location.startswith("/auth/login?back=")
    back = parse_qs(urlsplit(page.location).query)["back"][0]
    assert unquote(back) == "/my?q=Шахм"
    landed = await guest.login("chess", "chess-demo", back=back)
    assert landed.location is not None and unquote(landed.location) == "/my?q=Шахм"
    assert (await guest.get(landed.location)).status == 200


async def test_a_wrong_password_shows_the_form_again_with_an_error(guest: Visitor) -> None:
    page = await guest.login("club", "wrong")
    assert page.status == 200
    assert '<div class="err">Неверный логин или пароль</div>' in page.text
    assert 'value="club"' in page.text  # the username is kept
    assert (await guest.get("/schedule")).status == 303  # still not logged in


async def test_five_wrong_passwords_lock_the_account(guest: Visitor, clock: TestClock) -> None:
    for _ in range(4):
        assert (await guest.login("chess", "nope")).status == 200
    locked = await guest.login("chess", "nope")
    assert locked.status == 429
    assert "Учётная запись временно заблокирована" in locked.text
    assert (await guest.login("chess", "chess-demo")).status == 429  # even the right password
    assert (await guest.login("club", "club-demo")).location == "/schedule"  # others: fine
    await guest.get("/auth/logout")
    clock.advance(timedelta(minutes=6))
    assert (await guest.login("chess", "chess-demo")).location == "/schedule"


async def test_logout_ends_the_session(club: Visitor) -> None:
    out = await club.get("/auth/logout")
    assert out.status == 303 and out.location == "/auth/login"
    assert (await club.get("/schedule")).status == 303


# --- the day grid ----------------------------------------------------------------------


async def _seeded_chess_booking(site: RunningLegacy) -> dict[str, Any]:
    for b in await bookings(site):
        minutes = (parse_hhmm(b["end"]) or 0) - (parse_hhmm(b["start"]) or 0)
        if b["date"] == TOMORROW.isoformat() and b["building"] == "1" and minutes >= 60:
            return b
    raise AssertionError("no seeded booking of an hour or more tomorrow in building 1")


async def test_grid_has_times_down_rooms_across_and_a_booking_as_one_rowspan_cell(
    site: RunningLegacy, club: Visitor
) -> None:
    seeded = await _seeded_chess_booking(site)
    page = await club.get(f"/schedule?bld=1&day={dmy(TOMORROW)}")
    assert page.status == 200
    assert '<select id="bld" name="bld">' in page.text and 'value="Show"' in page.text
    assert '<option value="2">Корпус на Чайковского</option>' in page.text
    assert f'name="day" type="text" size="10" maxlength="10" value="{dmy(TOMORROW)}"' in page.text
    (table,) = tables(page.text)
    assert table.caption == f"Расписание: Главный корпус, {dmy(TOMORROW)}"
    header, *body = table.rows
    rooms = BUILDINGS[0].rooms
    assert header[0].tag == "th" and header[0].text == ""
    assert [c.text for c in header[1:]][5] == "301 эт. 3, 24 места"
    assert len(header) == 1 + len(rooms) and len(body) == 28  # 08:00 … 21:30
    assert [row[0].text for row in body][:3] == ["08:00", "08:30", "09:00"]
    assert body[-1][0].text == "21:30"

    grid = expand(table.rows)  # fails on any gap or overlap in the rowspans
    column = 1 + next(i for i, r in enumerate(rooms) if r.number == seeded["room_number"])
    times = [row[0].text for row in grid]
    first, last = times.index(seeded["start"]), times.index(seeded["end"]) - 1
    cell = grid[first][column]
    assert cell.tag == "td" and cell.text == "Занято"
    assert int(cell.attrs["rowspan"]) == last - first + 1 >= 2
    assert all(grid[r][column] is cell for r in range(first, last + 1))
    assert len(table.rows[1 + first + 1]) < len(header)  # the covered row has fewer cells

    room = rooms[column - 1]
    free = grid[len(grid) - 1][column]  # 21:30 stays free
    assert free.text == "+"
    assert free.links == [
        {
            "href": f"/reserve?room={room.id}&t={21 * 3600 + 1800}&day={dmy(TOMORROW)}",
            "title": f"Забронировать {room.number} в 21:30",
        }
    ]


async def test_own_bookings_read_vaguely_as_yours(site: RunningLegacy) -> None:
    seeded = await _seeded_chess_booking(site)
    chess = Visitor(site.url)
    try:
        await chess.login("chess", "chess-demo")
        page = await chess.get(f"/schedule?bld=1&day={dmy(TOMORROW)}")
    finally:
        await chess.close()
    grid = expand(tables(page.text)[0].rows)
    times = [row[0].text for row in grid]
    numbers = [c.text.split()[0] for c in grid[0][1:]]
    cell = grid[times.index(seeded["start"])][1 + numbers.index(seeded["room_number"])]
    assert cell.text == "Ваша бронь" and cell.attrs["class"] == "mine"


async def test_a_bad_day_or_building(club: Visitor) -> None:
    bad_day = await club.get("/schedule?bld=2&day=2026-11-26")
    assert bad_day.status == 200 and '<div class="err">Неверная дата' in bad_day.text
    assert tables(bad_day.text)[0].caption.startswith("Расписание: Корпус на Чайковского, ")
    assert (await club.get("/schedule?bld=9")).status == 404


# --- booking ----------------------------------------------------------------------------


async def test_the_booking_form_speaks_seconds(club: Visitor) -> None:
    page = await club.get(f"/reserve?room={room_301()}&t=64800&day={dmy(THURSDAY)}")
    assert page.status == 200 and "<h1>Новая бронь</h1>" in page.text
    assert f'<input type="hidden" name="room" value="{room_301()}">' in page.text
    assert f'name="day" type="text" size="10" maxlength="10" value="{dmy(THURSDAY)}"' in page.text
    assert '<label for="time_from">С</label>' in page.text
    assert '<label for="time_to">До</label>' in page.text
    assert '<option value="64800" selected>18:00</option>' in page.text
    assert '<option value="66600" selected>18:30</option>' in page.text
    assert '<option value="79200">22:00</option>' in page.text
    assert '<label for="comment">Comment</label>' in page.text
    assert 'maxlength="200" required' in page.text
    assert '<label for="people">Участников</label>' in page.text
    assert 'type="submit" value="Сохранить"' in page.text


async def test_an_unknown_room_is_a_404(club: Visitor) -> None:
    assert (await club.get(f"/reserve?room=301&t=64800&day={dmy(THURSDAY)}")).status == 404
    assert (await club.get("/reserve?room=abc")).status == 404


async def test_book_see_search_and_cancel(site: RunningLegacy, club: Visitor) -> None:
    booked = await club.reserve(room_301(), dmy(THURSDAY), 64800, 72000, PURPOSE)
    assert booked.status == 303 and booked.location is not None
    found = re.fullmatch(r"/reservation/(\d+)", booked.location)
    assert found
    number = int(found.group(1))

    detail = await club.get(booked.location)
    assert f"<h1>Бронь № {number}</h1>" in detail.text
    assert props(detail.text) == {
        "Номер": str(number),
        "Корпус": "Главный корпус",
        "Аудитория": "301",
        "Дата": dmy(THURSDAY),
        "Время": "18:00 - 20:00",
        "Comment": PURPOSE,
        "Участников": "10",
        "Статус": "активна",
    }
    grid = expand(tables((await club.get(f"/schedule?bld=1&day={dmy(THURSDAY)}")).text)[0].rows)
    mine = grid[1 + 20][6]  # 18:00 is the 21st time row; 301 is the 6th room
    assert mine.text == "Ваша бронь" and mine.attrs["rowspan"] == "4"

    before = await club.get("/my")
    assert '<label for="q">Поиск</label>' in before.text and 'value="Найти"' in before.text
    assert tables(before.text) == []  # no list before a search
    searched = await club.get("/my?q=шахмат")
    (table,) = tables(searched.text)
    assert [c.text for c in table.rows[0]] == ["№", "Дата", "Время", "Comment", "Корпус", ""]
    expected = [str(number), dmy(THURSDAY), "18:00 - 20:00", PURPOSE, "Главный корпус"]
    assert [[c.text for c in row[:5]] for row in table.rows[1:]] == [expected]
    assert table.rows[1][0].links == [{"href": f"/reservation/{number}"}]
    assert (
        f'<form method="post" action="/reservation/{number}/cancel" '
        f"onsubmit=\"return confirm('Отменить бронь № {number}?')\">"
    ) in searched.text
    assert len(tables((await club.get("/my?q=")).text)[0].rows) == 2
    assert len(tables((await club.get("/my?q=лекция")).text)[0].rows) == 1  # header only

    cancelled = await club.post(f"/reservation/{number}/cancel", {"_csrf": searched.csrf})
    assert cancelled.status == 303 and cancelled.location == "/my?q="
    assert len(tables((await club.get("/my?q=")).text)[0].rows) == 1
    assert props((await club.get(booked.location)).text)["Статус"] == "отменена"
    row = next(b for b in await bookings(site) if b["id"] == number)
    assert row["status"] == "cancelled" and row["user"] == "club"


async def test_a_conflict_is_a_409_in_english(site: RunningLegacy, club: Visitor) -> None:
    day = dmy(THURSDAY)
    assert (await club.reserve(room_301(), day, 64800, 72000)).status == 303
    clash = await club.reserve(room_301(), day, 68400, 75600, "Другое")
    assert clash.status == 409
    assert '<div class="err" data-code="busy">Time slot is already booked</div>' in clash.text
    assert '<option value="68400" selected>19:00</option>' in clash.text  # the form again
    seeded = await _seeded_chess_booking(site)
    start = (parse_hhmm(seeded["start"]) or 0) * 60
    other = await club.reserve(int(seeded["room"]), dmy(TOMORROW), start, start + 1800)
    assert other.status == 409
    assert [b["user"] for b in await bookings(site) if b["user"] == "club"] == ["club"]


@pytest.mark.parametrize(
    ("day", "start", "end", "comment", "code"),
    [
        (START.date(), 8 * 3600, 9 * 3600, "x", "past"),
        (START.date() - timedelta(days=1), 18 * 3600, 19 * 3600, "x", "past"),
        (START.date() + timedelta(days=15), 18 * 3600, 19 * 3600, "x", "too_far"),
        (THURSDAY, 7 * 3600, 9 * 3600, "x", "hours"),
        (THURSDAY, 21 * 3600, 22 * 3600 + 1800, "x", "hours"),
        (THURSDAY, 10 * 3600, 14 * 3600 + 1800, "x", "too_long"),
        (THURSDAY, 18 * 3600 + 60, 19 * 3600, "x", "invalid"),
        (THURSDAY, 19 * 3600, 18 * 3600, "x", "invalid"),
        (THURSDAY, 18 * 3600, 19 * 3600, "   ", "invalid"),
        (THURSDAY, 18 * 3600, 19 * 3600, "x" * 201, "invalid"),
    ],
)
async def test_rule_violations_are_422_with_a_code(
    site: RunningLegacy, club: Visitor, day: Any, start: int, end: int, comment: str, code: str
) -> None:
    page = await club.reserve(room_301(), dmy(day), start, end, comment)
    assert page.status == 422
    found = re.search(r'<div class="err" data-code="([a-z_]+)">([^<]+)</div>', page.text)
    assert found and found.group(1) == code
    assert re.search("[а-яё]", found.group(2))  # a Russian message
    assert not [b for b in await bookings(site) if b["user"] == "club"]


async def test_a_malformed_date_is_invalid(club: Visitor) -> None:
    page = await club.reserve(room_301(), THURSDAY.isoformat(), 64800, 66600)
    assert page.status == 422 and 'data-code="invalid"' in page.text


async def test_others_bookings_are_not_found(site: RunningLegacy, club: Visitor) -> None:
    seeded = await _seeded_chess_booking(site)
    assert (await club.get(f"/reservation/{seeded['id']}")).status == 404
    token = (await club.get(f"/reserve?room={room_301()}")).csrf
    refused = await club.post(f"/reservation/{seeded['id']}/cancel", {"_csrf": token})
    assert refused.status == 404
    assert next(b for b in await bookings(site) if b["id"] == seeded["id"])["status"] == "active"
    assert (await club.get("/reservation/99999")).status == 404
