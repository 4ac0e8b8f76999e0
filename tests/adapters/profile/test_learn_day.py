"""The day's page learned from small real pages in a real Chromium, each draft then read by
the profile's own reader: the building drop-down hidden under a widget a script draws
(select2, as MRBS: the snapshot shows a combobox with no options), read from the DOM's
select; a room's name with its capacity glued on in the DOM («10130», brackets drawn by
CSS) or after a prefix («Ауд. 113»), read as the operator named it; a free cell told from
a booked one by its link to the form the operator opened (a booked cell links to its
booking); the day a heading outside the table writes, guarding the day asked."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import date, time
from typing import Any

import pytest
import pytest_asyncio
import yaml
from aiohttp import web
from playwright.async_api import BrowserContext

from adapters.profile.finding import Finder
from adapters.profile.grid import read_buildings, read_day
from adapters.profile.learn.catalogue import building_picker, draft_catalogue
from adapters.profile.learn.daygrid import draft_availability, title_regex
from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Recording, Step
from adapters.profile.loader import parse_site_profile
from adapters.profile.navigate import Navigator
from core.browser import BrowserPool
from core.site.errors import UnexpectedPage
from tests.adapters.profile.profile_text import FILE, TEXT
from tests.adapters.profile.served import served

ASYNC = pytest.mark.asyncio(loop_scope="session")

DAY = date(2026, 12, 12)
_LONG = "суббота, 12 декабря 2026 г."


@dataclass(frozen=True)
class _Room:
    number: str
    site_id: str
    capacity: int
    booked: tuple[int, int] | None = None  # hours, from and to


# Area 1 as MRBS draws it: room ids unlike their numbers, a booking over two rows.
_AREA_1 = (_Room("101", "11", 30), _Room("102", "12", 24, (9, 11)), _Room("103", "13", 16))
_AREA_2 = (_Room("201", "21", 40),)
_HOURS = (9, 10, 11)

# MRBS's look: the capacity glued to the name, its brackets drawn by CSS; the area's
# select hidden under a widget (select2) that shows only the chosen name, drawn above the
# grid and again below it.
_MRBS_STYLE = """<style>
.capacity::before { content: ' ('; } .capacity::after { content: ')'; }
td.new a { display: block; height: 1.2em; }
.hidden-accessible { border: 0; clip: rect(0 0 0 0); height: 1px; width: 1px; margin: -1px;
  overflow: hidden; padding: 0; position: absolute; }
</style>"""


def _picker(area: str, copy: int) -> str:
    names = {"1": "Главный корпус", "2": "Корпус Б"}
    options = "".join(
        f'<option value="{code}"{" selected" if code == area else ""}>{name}</option>'
        for code, name in names.items()
    )
    return f"""<form class="areaChangeForm" action="/mrbs">
<select name="area" class="hidden-accessible" aria-hidden="true" tabindex="-1">{options}</select>
<span class="selection"><span class="select2-selection" role="combobox" aria-expanded="false"
 aria-labelledby="area-shown-{copy}" tabindex="0"><span id="area-shown-{copy}" role="textbox"
 aria-readonly="true" title="{names[area]}">{names[area]}</span></span></span></form>"""


def _mrbs_cell(room: _Room, hour: int, area: str) -> str:
    if room.booked and room.booked[0] == hour:
        rows = room.booked[1] - room.booked[0]
        return (f'<td class="booked" rowspan="{rows}"><div class="booking"><a href="/view?id=6'
                f'&area={area}&room={room.site_id}">Чужая бронь</a></div></td>')  # fmt: skip
    if room.booked and room.booked[0] < hour < room.booked[1]:
        return ""  # under the booking's rowspan
    return (f'<td class="new"><a href="/edit?area={area}&room={room.site_id}&hour={hour}"'
            ' aria-label="Забронировать"></a></td>')  # fmt: skip


def _mrbs(area: str) -> str:
    """Rooms in columns, each header «101<span class=capacity>30</span>»."""
    rooms = _AREA_1 if area == "1" else _AREA_2
    heads = "".join(
        f'<th data-room="{r.site_id}"><a href="/week?room={r.site_id}">{r.number}'
        f'<span class="capacity">{r.capacity}</span></a></th>'
        for r in rooms
    )
    rows = "".join(
        f'<tr><th><a href="/mrbs?hour={h}">{h:02}:00</a></th>'
        + "".join(_mrbs_cell(r, h, area) for r in rooms)
        + "</tr>"
        for h in _HOURS
    )
    return f"""<!doctype html><html><head>{_MRBS_STYLE}</head><body>
<div class="date_heading"><h2 class="date">{_LONG}</h2></div>
<nav>{_picker(area, 1)}</nav>
<table id="day_main" class="dwm_main"><thead><tr><th>Время</th>{heads}</tr></thead>
<tbody>{rows}</tbody></table><nav>{_picker(area, 2)}</nav></body></html>"""


def _prefixed(building: str) -> str:
    """Rooms in rows, each titled «Ауд. 113»; a visible select; the day as «12.12.2026»."""
    options = "".join(
        f'<option value="{code}"{" selected" if code == building else ""}>{name}</option>'
        for code, name in (("main", "Главный"), ("lab", "Лабораторный"))
    )
    heads = "".join(f"<th>{h:02}:00</th>" for h in _HOURS)
    rows = ""
    for number in ("113", "114"):
        cells = "".join(
            '<td><a href="/view?id=7">Занято</a></td>' if (number, h) == ("114", 10) else
            f'<td><a href="/edit?b={building}&r={number}&t={h}">+</a></td>'
            for h in _HOURS
        )  # fmt: skip
        rows += f"<tr><th>Ауд. {number}</th>{cells}</tr>"
    return f"""<!doctype html><html><body><p class="when">Занятость на 12.12.2026</p>
<label>Корпус <select name="b" onchange="this.form && this.form.submit()">{options}</select>
</label><table class="grid"><tr><th>Аудитория</th>{heads}</tr>{rows}</table></body></html>"""


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def site() -> AsyncIterator[str]:
    def html(text: str) -> web.Response:
        return web.Response(text=text, content_type="text/html")

    async def mrbs(request: web.Request) -> web.Response:
        return html(_mrbs(request.query.get("area", "1")))  # every day shows DAY

    async def prefixed(request: web.Request) -> web.Response:
        return html(_prefixed(request.query.get("b", "main")))

    async def form(_: web.Request) -> web.Response:
        return html("<!doctype html><html><body><form><input name=name></form></body></html>")

    app = web.Application()
    app.router.add_get("/mrbs", mrbs)
    app.router.add_get("/prefixed", prefixed)
    app.router.add_get("/edit", form)
    async with served(app) as url:
        yield url


async def _demonstrated(
    context: BrowserContext, site: str, day_url: str, free_cell: str, room: str
) -> Recording:
    """The operator shows the day at ``day_url``, then opens the booking form from the
    free cell ``free_cell`` (CSS) of ``room`` at 10:00."""
    recorder = Recorder(context)
    await recorder.attach()
    page = await context.new_page()
    await page.goto(f"{site}{day_url}")
    recorder.begin()
    day = await recorder.end("day", page, {"date": DAY.isoformat()})
    recorder.begin()
    await page.locator(free_cell).click()
    await page.wait_for_url("**/edit?**")
    answers = {"room": room, "date": DAY.isoformat(), "start": "10:00", "end": "11:00"}
    book = await recorder.end("book", page, answers)
    return Recording(name="t", site=site, steps=(day, book))


def _navigator(site: str, catalogue: dict[str, Any], availability: dict[str, Any]) -> Navigator:
    """The reference portal's profile with the drafted day and buildings, hourly."""
    profile = yaml.safe_load(TEXT)
    profile["catalogue"] = catalogue
    profile["availability"] = availability
    profile["rules"] = {"opens": "09:00", "closes": "12:00", "step_minutes": 60}
    loaded = parse_site_profile(yaml.safe_dump(profile, allow_unicode=True), FILE)
    return Navigator(loaded, site, Finder(loaded), timeout_ms=10_000)


def _day_step(recording: Recording) -> Step:
    step = recording.step("day")
    assert step is not None
    return step


@pytest.mark.browser
@ASYNC
async def test_a_day_as_mrbs_draws_it_is_learned_and_read_as_the_operator_named_it(
    site: str, pool: BrowserPool
) -> None:
    # The operator came by MRBS's own links: «view_all=1» beside the building's «area=1».
    day_url = f"/mrbs?view_all=1&page_date={DAY.isoformat()}&area=1"
    async with pool.context() as context:
        recording = await _demonstrated(
            context, site, day_url, 'a[href="/edit?area=1&room=11&hour=10"]', "101"
        )
    day = _day_step(recording)
    # What the snapshot shows is not what a profile reads: the widget has no options,
    # and the room's header reads «10130».
    assert 'combobox "Главный корпус"' in day.snapshot and "option" not in day.snapshot
    assert '"101 (30)"' in day.snapshot
    # Its two copies are one drop-down, found by its name.
    (area,) = [s for s in day.selects if s.name == "area"]
    assert (area.css, area.chosen, area.shown) == ('select[name="area"]', "1", False)
    assert [(o.value, o.text) for o in area.options] == [("1", "Главный корпус"), ("2", "Корпус Б")]
    assert any(t.text == "10130" and t.table == "table#day_main" for t in day.titles)

    picker = building_picker(recording)
    assert picker is not None and (picker.code, picker.key) == ("1", "area")
    catalogue = draft_catalogue(recording)
    assert catalogue == {
        "buildings": {
            "open": {"url": "/mrbs?view_all=1"},
            "select": [{"css": 'select[name="area"]'}],
        }
    }
    drafted = draft_availability(recording)
    assert drafted["open"] == {"url": "/mrbs?view_all=1&page_date={date|iso}&area={building|url}"}
    grid = drafted["grid"]
    assert grid["table"] == [{"css": "table#day_main"}, {"role": "table"}]
    assert grid["room"]["number"] == {"without": "span.capacity", "regex": r"^\s*(\S+)"}
    assert grid["room"]["capacity"] == {"css": "span.capacity", "format": "int"}
    assert grid["slot"]["free"] == {"has": 'a[href*="/edit?"]'}  # a booked cell links too
    assert grid["caption_date"] == {"css": "body h2.date", "format": "long"}

    nav = _navigator(site, catalogue, drafted)
    async with pool.context() as context:
        page = await context.new_page()
        assert await read_buildings(nav, page) == {"1": "Главный корпус", "2": "Корпус Б"}
        read = await read_day(nav, page, building="1", name="Главный корпус", day=DAY,
                              timeout_ms=10_000)  # fmt: skip
        assert [(r.room.number, r.room.id, r.room.capacity, r.busy) for r in read.rooms] == [
            ("101", "11", 30, []),
            ("102", "12", 24, [(time(9), time(11))]),
            ("103", "13", 16, []),
        ]
        other = await read_day(nav, page, building="2", name="Корпус Б", day=DAY,
                               timeout_ms=10_000)  # fmt: skip
        assert [(r.room.number, r.room.id) for r in other.rooms] == [("201", "21")]
        with pytest.raises(UnexpectedPage, match="другой день: 2026-12-12"):
            await read_day(nav, page, building="1", name="Главный корпус",
                           day=date(2026, 12, 13), timeout_ms=10_000)  # fmt: skip


@pytest.mark.browser
@ASYNC
async def test_prefixed_room_names_and_a_booked_cells_link_are_learned_as_the_page_has_them(
    site: str, pool: BrowserPool
) -> None:
    day_url = f"/prefixed?b=main&d={DAY.isoformat()}"
    async with pool.context() as context:
        recording = await _demonstrated(
            context, site, day_url, 'a[href="/edit?b=main&r=113&t=10"]', "113"
        )
    catalogue = draft_catalogue(recording)
    # A select shown as itself: by its CSS, then by its role and name.
    assert catalogue["buildings"]["select"] == [
        {"css": 'select[name="b"]'}, {"role": "combobox", "name": "Корпус"}
    ]  # fmt: skip
    assert catalogue["buildings"]["open"] == {"url": "/prefixed"}
    drafted = draft_availability(recording)
    assert drafted["open"] == {"url": "/prefixed?b={building|url}&d={date|iso}"}
    grid = drafted["grid"]
    assert grid["room"]["number"] == {"regex": r"(\S+)\s*$"}
    assert grid["slot"]["free"] == {"has": 'a[href*="/edit?"]'}
    assert grid["caption_date"] == {"css": "body p.when", "format": "dmy"}

    nav = _navigator(site, catalogue, drafted)
    async with pool.context() as context:
        page = await context.new_page()
        assert await read_buildings(nav, page) == {"main": "Главный", "lab": "Лабораторный"}
        read = await read_day(nav, page, building="lab", name="Лабораторный", day=DAY,
                              timeout_ms=10_000)  # fmt: skip
    assert [(r.room.number, r.busy) for r in read.rooms] == [
        ("113", []),
        ("114", [(time(10), time(11))]),  # its link is to the booking, not to the form
    ]


@pytest.mark.parametrize(
    ("title", "room", "read"),
    [
        ("101", "101", True),
        ("101 (2 этаж, 24 места)", "101", True),
        ("Ауд. 113", "113", True),
        ("Ауд.113", "113", True),
        ("№113 (30)", "113", True),
        ("Корпус 2 ауд 305 лаб", "305", True),
        ("Читальный зал", "Читальный зал", True),
        ("10130", "101", False),  # a capacity glued on: read with «without», not a regex
        ("A113", "113", False),  # a letter before it may be the name's own
    ],
)
def test_a_room_title_is_read_by_where_it_writes_the_room(
    title: str, room: str, read: bool
) -> None:
    regex = title_regex(title, room)
    assert (regex is not None) == read, regex


def test_a_recording_made_before_the_dom_was_kept_drafts_from_its_snapshot() -> None:
    """An older recording (no selects, no titles) still loads, and its drafts come from
    the snapshot: a drop-down whose options show, a room's first word."""
    snapshot = """- combobox "Корпус":
  - option "Главный" [selected]
  - option "Лабораторный"
- table:
  - row "Аудитория 09:00 10:00":
    - columnheader "Аудитория"
    - columnheader "09:00"
    - columnheader "10:00"
  - row "201 (24) + +":
    - rowheader "201 (24)"
    - cell "+":
      - link "+":
        - /url: /reserve?room=201&t=9
    - cell "+":
      - link "+":
        - /url: /reserve?room=201&t=10
"""
    day = Step.model_validate(
        {"name": "day", "url": "http://rooms.test/day?b=main&d=2026-12-12",
         "answers": {"date": DAY.isoformat()}, "snapshot": snapshot}
    )  # fmt: skip
    assert day.selects == () and day.titles == ()
    recording = Recording(name="t", site="http://rooms.test", steps=(day,))
    assert draft_catalogue(recording)["buildings"]["select"] == [
        {"role": "combobox", "name": "Корпус"}
    ]
    grid = draft_availability(recording)["grid"]
    assert grid["room"]["number"] == {"regex": r"^\s*(\S+)"}
    assert grid["slot"]["free"] == {"has": "a[href]"}  # no form opened: any link
