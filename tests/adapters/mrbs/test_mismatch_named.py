"""A profile line gone wrong on a real MRBS, one part at a time (issue 66): the error
names the part and its field, the profile's file:line and what was looked for for the
operator (``for_admins``), and tells the user the element as what it is (a field, a
list, a button, a column, a term), never as a CSS selector."""

from __future__ import annotations

import asyncio
from datetime import time, timedelta

import pytest

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.errors import ProfileMismatch
from adapters.profile.session import ProfileSession
from core.browser import BrowserPool
from tests.adapters.mrbs.harness import PROFILE
from tests.sites.mrbs import MrbsServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

TEXT = PROFILE.read_text(encoding="utf-8")
# part: (the line as written, as broken, the path named, the user's words, what was tried)
CASES = {
    "login": (
        "    - css: form#logon input#username\n", "    - css: form#logon input#user\n",
        "login.username", "нет поля логина", "css=«form#logon input#user»",
    ),
    "catalogue": (
        "      - css: form.areaChangeForm select[name=area]\n",
        "      - css: form.areaChangeForm select[name=areas]\n",
        "catalogue.buildings.select", "нет списка корпусов",
        "css=«form.areaChangeForm select[name=areas]»",
    ),
    "availability": (
        "      - css: table#day_main\n", "      - css: table#day_mainx\n",
        "availability.grid.table", "нет таблицы занятости", "css=«table#day_mainx»",
    ),
    "book_field": (
        '    - find: [{css: "form#main input#name"}]\n',
        '    - find: [{css: "form#main input#namex"}]\n',
        "book.fields.0.find", "нет поля для названия брони", "css=«form#main input#namex»",
    ),
    "booking_page_term": (
        "  start: {term: Время начала, format: hhmm}\n",
        "  start: {term: Время начала брони, format: hhmm}\n",
        "booking_page.start", "нет времени начала (надпись «Время начала брони»)",
        "term=«Время начала брони»",
    ),
    "my_bookings_column": (
        "  start: {column: Время начала, format: hhmm}\n",
        "  start: {column: Начало, format: hhmm}\n",
        "my_bookings.start", "нет времени начала (колонка «Начало») в строке 1",
        "column=«Начало»",
    ),
    "cancel": (
        "      name: Удалить запись\n", "      name: Удалить запись навсегда\n",
        "cancel.control", "нет кнопки отмены", "role=button name=«Удалить запись навсегда»",
    ),
}  # fmt: skip


async def _fail(session: ProfileSession, part: str, mrbs: MrbsServer, number: str) -> None:
    day = mrbs.today() + timedelta(days=4)
    if part == "login":
        await session.ensure_logged_in()
    elif part == "catalogue":
        await session.catalogue()
    elif part == "availability":
        await session.availability("1", day)
    elif part == "book_field":
        free = (await session.availability("1", day)).free_rooms(time(12), time(13))
        await session.book(room=free[0], day=day, start=time(12), end=time(13), purpose="x")
    elif part == "booking_page_term":
        await session.booking_page(number)
    elif part == "my_bookings_column":
        await session.my_bookings()
    else:
        await session.cancel(number)


@pytest.mark.parametrize("part", list(CASES))
async def test_a_wrong_line_names_its_part_field_and_line(
    mrbs: MrbsServer, pool: BrowserPool, part: str
) -> None:
    old, new, path, said, tried = CASES[part]
    assert TEXT.count(old) == 1, old
    day = mrbs.today() + timedelta(days=4)  # one booking of the account's: a row, a page
    number = await asyncio.to_thread(
        mrbs.add_booking, "101", mrbs.at(day, "10:00"), mrbs.at(day, "11:00"), "Наша", "club"
    )
    loaded = parse_site_profile(TEXT.replace(old, new), "mrbs.yaml")
    club = mrbs.club
    async with pool.context() as context:
        session = ProfileSystem(mrbs.base_url, loaded).open_session(
            context, username=club.username, password=club.password
        )
        try:
            with pytest.raises(ProfileMismatch) as caught:
                await _fail(session, part, mrbs, str(number))
        finally:
            await session.close()
    error = caught.value
    line = next(n for n, row in enumerate(TEXT.splitlines(), 1) if row == old.rstrip("\n"))
    if part == "cancel":
        line -= 1  # the candidate's «- role: button»
    assert (error.path, error.where) == (path, f"mrbs.yaml:{line}")
    assert error.for_admins.startswith(f"профиль mrbs.yaml:{line} ({path}): ")
    assert f"искал: {tried}" in error.for_admins
    assert said in error.message and "css=" not in error.message
