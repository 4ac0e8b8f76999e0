"""«My bookings» and a booking's page as real booking systems show them (issue 66), on a
small real site in a real Chromium: a list whose rows show the start but no end and no
room (read from each booking's page, rows of two ``<td>`` cells, start and end apart), a
date and a time in one cell («вторник, 8 декабря 2026 г. в 18:00»), a row made by hand
that does not read (left out and reported once, never fatal), an empty list shown as a
sentence with no table, a pick of part of a cell (``css`` inside a column's cell,
``without`` a glued child), and a list that is a search naming the login (MRBS's), where
another person's «club meeting» is told apart by its owner (``my_bookings.owner``)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import date, time

import pytest
import pytest_asyncio
from aiohttp import web
from structlog.testing import capture_logs

from adapters.profile.bookingpage import read_booking_page
from adapters.profile.bookings import MyList
from adapters.profile.errors import ProfileMismatch
from adapters.profile.finding import Finder
from adapters.profile.htmltable import table_in_html
from adapters.profile.listhtml import confirming_list
from adapters.profile.loader import parse_site_profile
from adapters.profile.navigate import Navigator
from adapters.profile.parts import Locator, Pick
from adapters.profile.reading import (
    as_date,
    as_time,
    cell_probes_of,
    probes_of,
    read_table,
    value,
)
from adapters.profile.recall import Recall
from core.browser import BrowserPool
from scenarios.booking.models import Booking
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

on_session_loop = pytest.mark.asyncio(loop_scope="session")

_PARTS = r"""booking_page:
  url: /entry?id={number}
  building: {term: Помещение, regex: '^(.+?) - '}
  room: {term: Помещение, regex: ' - (\S+)$'}
  date: {term: Время начала, format: long}
  start: {term: Время начала, format: hhmm}
  end: {term: Время завершения, format: hhmm}
  purpose: {css: h3}

my_bookings:
  open:
    url: /my{list}
  table:
    - css: table#search_results
  empty:
    - css: "#nothing_found"
  number: {column: Краткое описание, css: "a@href", regex: 'id=(\d+)'}
  date: {column: Время начала, format: long}
  start: {column: Время начала, format: hhmm}
  purpose: {column: Краткое описание}

"""

# id → (the start as the list and the page write it, the end's, room, name)
_ENTRIES = {
    "11": ("вторник, 8 декабря 2026 г. в 18:00", "вторник, 8 декабря 2026 г. в 20:00", "101",
           "Клуб #a"),
    "13": ("Tuesday 8 December 2026 19:30", "Tuesday 8 December 2026 21:00", "102", "Клуб #b"),
    "14": ("вторник, 8 декабря 2026 г. в 18:00", "вторник, 8 декабря 2026 г. в 20:00", "103",
           "club meeting"),  # another person's, found by a search for «club»
    "15": ("вторник, 8 декабря 2026 г. в 10:00", "вторник, 8 декабря 2026 г. в 11:00", "104",
           "Клуб #c"),
}  # fmt: skip
_HEAD = "<tr><th>Краткое описание</th><th>Создано</th><th>Время начала</th><th>Описание</th></tr>"
_ODD = (
    "<tr><td><a href='/entry?id=12'>Ремонт</a></td><td>admin</td><td>ежедневно</td><td></td></tr>"
)


def _row(number: str, owner: str = "club") -> str:
    start, _, _, name = _ENTRIES[number]
    return (
        f"<tr><td><a href='/entry?id={number}&returl=x'>{name}</a></td><td>{owner}</td>"
        f"<td><span title='1796745600'></span><a href='/day?area=1&room=3'>{start}</a></td>"
        "<td></td></tr>"
    )


_LISTS = {
    "": _HEAD + _row("11") + _ODD + _row("13"),
    "-odd": _HEAD + _ODD,  # no row reads: the site changed
    "-unnumbered": _HEAD + _row("11").replace("id=11", "no=11"),
    # MRBS's search for the login: the creator, then the display name («Создано»)
    "-search": _HEAD
    + _row("11", "club (Клуб робототехники)")
    + _row("14", "ivanov (Иван Иванов)")
    + _row("13", "Club (Клуб робототехники)")  # the login in another case: the same
    + _row("15", ""),  # nobody's: left out and reported
    "-search-renamed": (_HEAD + _row("11", "club (Клуб)") + _row("14", "ivanov (Иван)")).replace(
        "Создано", "Автор"
    ),
    "-search-by-hand": _HEAD + _ODD.replace("admin", "club (Клуб)") + _row("14", "ivanov (Иван)"),
}
_OWNER = "  owner: {column: Создано, regex: '^(\\S+)'}\n"


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def site() -> AsyncIterator[str]:
    async def listed(request: web.Request) -> web.Response:
        which = request.match_info["which"]
        if which == "-empty":
            body = "<h3>Результаты поиска</h3><p id=nothing_found>Совпадений не найдено.</p>"
        elif which == "-gone":
            body = "<h3>Результаты поиска</h3><p>Сервис недоступен</p>"
        else:
            body = f"<table id=search_results>{_LISTS[which]}</table>"
        return web.Response(text=f"<html><body>{body}</body></html>", content_type="text/html")

    async def entry(request: web.Request) -> web.Response:
        start, end, room, name = _ENTRIES[request.query["id"]]
        rows = [("Время начала", start), ("Продолжительность", "2 часов"),
                ("Время завершения", end), ("Помещение", f"Главный корпус - {room}"),
                ("Создано", "Клуб робототехники")]  # fmt: skip
        cells = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
        text = f"<html><body><h3>{name}</h3><table id=entry>{cells}</table></body></html>"
        return web.Response(text=text, content_type="text/html")

    async def header(_: web.Request) -> web.Response:
        cells = "".join(
            f"<th data-room={i}><a href='/week?room={i}'>{n}"
            f"<span class=capacity>{c}</span></a></th>"
            for i, (n, c) in enumerate((("101", 30), ("102", 24)), 1)
        )
        text = f"<html><body><table id=day><tr><th>Время</th>{cells}</tr></table></body></html>"
        return web.Response(text=text, content_type="text/html")

    app = web.Application()
    app.router.add_get("/my{which:[-a-z]*}", listed)
    app.router.add_get("/entry", entry)
    app.router.add_get("/header", header)
    async with served(app) as url:
        yield url


def _navigator(url: str, which: str = "", *, owner: bool = False) -> Navigator:
    start, end = TEXT.index("booking_page:\n"), TEXT.index("cancel:\n")
    parts = _PARTS.replace("{list}", which)
    if owner:
        purpose = "  purpose: {column: Краткое описание}\n"
        parts = parts.replace(purpose, purpose + _OWNER)
    text = TEXT[:start] + parts + TEXT[end:]
    text = text.replace("cancelled: {text: Бронь отменена}\n", "")
    loaded = parse_site_profile(text, FILE)
    return Navigator(loaded, url, Finder(loaded), timeout_ms=10_000)


async def _codes(names: set[str]) -> dict[str, str]:
    return dict.fromkeys(names, "1")


def _booking(number: str, start: time, end: time) -> Booking:
    _, _, room, name = _ENTRIES[number]
    return Booking(number=number, building="1", building_name="Главный корпус", room=room,
                   day=date(2026, 12, 8), start=start, end=end, purpose=name)  # fmt: skip


@on_session_loop
async def test_rows_without_end_and_room_are_read_from_each_bookings_page_and_a_row_made_by_hand_is_left_out(  # noqa: E501
    pool: BrowserPool, site: str
) -> None:
    nav, recall = _navigator(site), Recall(account="club")
    async with pool.context() as context:
        page = await context.new_page()
        mine = MyList(nav, page, recall)
        with capture_logs() as logs:
            await mine.open()
            found = await mine.in_full(_codes)
            assert mine.unread == ("строка 2: нет даты: Ремонт admin ежедневно",)
            await mine.open()  # read again: the same row, reported once
            again = await mine.in_full(_codes)
    assert (
        found
        == again
        == [
            _booking("11", time(18), time(20)),
            _booking("13", time(19, 30), time(21)),
        ]
    )
    unread = [e for e in logs if e["event"] == "profile.my_bookings.row_unread"]
    assert [(e["row"], e["unread"]) for e in unread] == [(2, "date")]


@on_session_loop
async def test_a_row_lacking_its_end_is_completed_by_the_booking_read_after_booking(
    pool: BrowserPool, site: str
) -> None:
    """Matched by what was sent: the booking made (read or as sent) is remembered, and
    the row that agrees with it in all it shows needs no page."""
    nav, recall = _navigator(site), Recall(account="club")
    made = _booking("11", time(18), time(20))
    recall.pages.remember(made)
    async with pool.context() as context:
        page = await context.new_page()
        mine = MyList(nav, page, recall)
        await mine.open()
        pages: list[str] = []
        page.on("request", lambda r: pages.append(r.url) if "/entry" in r.url else None)
        assert await mine.known() == [made]  # the check after booking: no page read
        found = await mine.in_full(_codes)
    assert found[0] == made and [re.sub(r".*id=", "", u) for u in pages] == ["13"]


@on_session_loop
async def test_a_booking_page_of_two_cell_rows_reads_its_start_and_end_apart(
    pool: BrowserPool, site: str
) -> None:
    nav = _navigator(site)
    async with pool.context() as context:
        page = await context.new_page()
        read = await read_booking_page(nav, page, "13", {"Главный корпус": "1"})
    assert read == _booking("13", time(19, 30), time(21))


@on_session_loop
@pytest.mark.parametrize(
    ("which", "words"),
    [
        (
            "-odd",
            "даты (колонка «Время начала») в строке 1 «моих броней»: Ремонт",
        ),  # not one row reads
        (
            "-unnumbered",
            "номеров броней (колонка «Краткое описание») в «моих бронях»",
        ),  # issue 65: no number at all
        ("-gone", "таблицы «мои брони»"),  # no table and not the empty list's sentence
    ],
)
async def test_a_list_no_row_of_which_reads_is_the_site_changed(
    pool: BrowserPool, site: str, which: str, words: str
) -> None:
    nav = _navigator(site, which)
    async with pool.context() as context:
        page = await context.new_page()
        mine = MyList(nav, page, Recall(account="club"))
        with pytest.raises(ProfileMismatch) as caught:
            await mine.open()
            await mine.in_full(_codes)
    assert words in str(caught.value)


@on_session_loop
async def test_an_empty_list_shown_as_a_sentence_is_no_booking(
    pool: BrowserPool, site: str
) -> None:
    nav = _navigator(site, "-empty")
    async with pool.context() as context:
        page = await context.new_page()
        mine = MyList(nav, page, Recall(account="club"))
        await mine.open()
        assert await mine.in_full(_codes) == [] and await mine.numbers() == {}


@on_session_loop
async def test_a_pick_reads_a_child_of_a_column_or_a_text_without_its_glued_child(
    pool: BrowserPool, site: str
) -> None:
    """MRBS's room header «101<span class=capacity>30</span>» reads «10130» whole."""
    whole, name = Pick(), Pick(without="span.capacity")
    inside = Pick(css="a", without=".capacity")
    capacity = Pick(css="span.capacity", format="int")
    column = Pick(column="Время", css="a@href")
    async with pool.context() as context:
        page = await context.new_page()
        await page.goto(f"{site}/header")
        picks = [whole, name, inside, capacity]
        table = await read_table(page.locator("table#day"), probes=probes_of(picks))
    cells = table.row(0)[1:]
    assert [value(whole, c) for c in cells] == ["10130", "10224"]
    assert [value(name, c) for c in cells] == ["101", "102"]
    assert [value(inside, c) for c in cells] == ["101", "102"]
    assert [value(capacity, c) for c in cells] == ["30", "24"]
    assert cell_probes_of([column, name]) == ["a@href"]
    # The page's HTML read without a browser does not follow «without»: the page is read.
    html = '<table id="day"><tr><th>101<span class="capacity">30</span></th></tr></table>'
    way = Locator(css="table#day")
    assert table_in_html(html, way, probes=probes_of([name])) is None
    assert table_in_html(html, way, probes=probes_of([capacity])) is not None


@on_session_loop
async def test_another_persons_booking_a_search_for_the_login_found_is_not_the_accounts(
    pool: BrowserPool, site: str
) -> None:
    """MRBS's «my bookings» searches for the login: ivanov's «club meeting» is listed
    with the club's. Told by «Создано», it is not listed, not numbered (so never
    cancelled), and its page never read; a row whose owner is empty is left out and
    reported. Without ``owner`` the same list takes it for the club's: the gap."""
    recall = Recall(account="club")
    async with pool.context() as context:
        page = await context.new_page()
        entries: list[str] = []
        page.on("request", lambda r: entries.append(r.url) if "/entry" in r.url else None)
        mine = MyList(_navigator(site, "-search", owner=True), page, recall)
        await mine.open()
        found = await mine.in_full(_codes)
        assert mine.unread == (
            "строка 4: нет владельца брони: Клуб #c вторник, 8 декабря 2026 г. в 10:00",
        )
        numbers = await mine.numbers()
        assert await mine.cancel("14") is None  # not the club's: nothing pressed
        read = sorted({re.sub(r".*id=", "", u) for u in entries})
        unfiltered = MyList(_navigator(site, "-search"), page, Recall(account="club"))
        await unfiltered.open()
        gap = {b.number for b in await unfiltered.in_full(_codes)}
    assert found == [_booking("11", time(18), time(20)), _booking("13", time(19, 30), time(21))]
    assert set(numbers) == {"11", "13"}
    assert read == ["11", "13"]  # ivanov's page is not read either
    assert "14" in gap


@on_session_loop
async def test_the_lists_html_keeps_the_accounts_own_rows_too(pool: BrowserPool, site: str) -> None:
    """The check after booking from the list's HTML (the fast path) honours ``owner``
    as the page does: ivanov's row is neither taken nor completed from its page."""
    nav, recall = _navigator(site, "-search", owner=True), Recall(account="club")
    recall.buildings = {"1": "Главный корпус"}
    for number, start, end in (("11", time(18), time(20)), ("13", time(19, 30), time(21))):
        recall.pages.remember(_booking(number, start, end))
    async with pool.context() as context:
        listed = await confirming_list(nav, context.request, recall, {"11"})
        renamed = _navigator(site, "-search-renamed", owner=True)
        gone = await confirming_list(renamed, context.request, recall, {"11"})
    assert listed is not None and [b.number for b in listed] == ["11", "13"]
    assert gone is None  # no owner reads: the page is read, and says what changed


@on_session_loop
async def test_a_list_whose_owners_do_not_read_is_the_site_changed_and_one_made_by_hand_is_not(
    pool: BrowserPool, site: str
) -> None:
    """The owner's column renamed: not one owner reads, never a list of no booking (the
    club's bookings hidden, and sent again). The club's only row made by hand beside
    ivanov's, which reads: the list is as the profile says, the row left out (issue 66)."""
    async with pool.context() as context:
        page = await context.new_page()
        mine = MyList(_navigator(site, "-search-renamed", owner=True), page, Recall(account="club"))
        with pytest.raises(ProfileMismatch) as caught:
            await mine.open()
        by_hand = MyList(_navigator(site, "-search-by-hand", owner=True), page,
                         Recall(account="club"))  # fmt: skip
        await by_hand.open()
        assert await by_hand.in_full(_codes) == []
        assert by_hand.unread == ("строка 1: нет даты: Ремонт club (Клуб) ежедневно",)
    assert "владельца брони (колонка «Создано») в «моих бронях»" in str(caught.value)


@pytest.mark.parametrize(
    ("text", "fmt", "day"),
    [
        ("08.12.26", "dmy", date(2026, 12, 8)),  # a two-digit year: this century's
        ("08.12.26 18:00", "dmy", date(2026, 12, 8)),
        ("8/12/26", "dmy_slash", date(2026, 12, 8)),
        ("12/08/26", "mdy", date(2026, 12, 8)),
        ("вторник, 8 декабря 2026 г. в 18:00", "long", date(2026, 12, 8)),
        ("Tuesday 8 December 2026 18:00", "long", date(2026, 12, 8)),
        ("Tuesday, December 8, 2026 6:00 PM", "long", date(2026, 12, 8)),
        ("8 дек. 26 г.", "long", date(2026, 12, 8)),
        ("27.11, 08:00", "dmy", None),  # no year: no date
    ],
)
def test_a_date_is_read_with_a_two_digit_year_a_weekday_and_a_time_after_it(
    text: str, fmt: str, day: date | None
) -> None:
    assert as_date(Pick(format=fmt), text) == day


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("вторник, 8 декабря 2026 г. в 18:00", time(18)),
        ("Tuesday 8 December 2026 6:30 PM", time(18, 30)),
        ("08.12.2026 18.00", time(18)),  # not the day and month «08.12»
        ("08.12.26 в 9:30", time(9, 30)),
        ("8 декабря 2026", None),
    ],
)
def test_a_start_is_read_from_a_cell_holding_its_date_too(text: str, start: time | None) -> None:
    assert as_time(Pick(format="hhmm"), text) == start
