"""``SiteProfile``: a booking site described as data (see docs/profiles.md).

The interpreter (``adapters.profile.session``) reads every page through these models:
locators are handed to Playwright as selectors, regular expressions run in Python,
templates only write the request's values (``adapters.profile.template``). Nothing in a
profile is run as Python or as JavaScript; the few page scripts the interpreter runs are
its own, fixed, and take a profile's selectors as data.
"""

from __future__ import annotations

import json
from datetime import time
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from adapters.profile.calls import DayRequest, ListRequest, Request
from adapters.profile.origin import SitePath
from adapters.profile.parts import (
    Action,
    Cond,
    Conds,
    Find,
    Part,
    PathTemplate,
    Pick,
    Picks,
    Regex,
)

__all__ = [
    "SCHEMA_FILE",
    "Availability",
    "Book",
    "BookingPage",
    "Buildings",
    "Cancel",
    "Catalogue",
    "Grid",
    "Login",
    "Meaning",
    "MyBookings",
    "Open",
    "Outcome",
    "Refusal",
    "RoomPicks",
    "RulesPart",
    "SiteProfile",
    "Slot",
    "Timeline",
    "Words",
    "json_schema",
]

# What a refusal or a login failure means (the port's errors).
Meaning = Literal[
    "slot_taken", "rejected", "too_far", "outside_hours", "retry", "wrong_password", "locked"
]


class Open(Part):
    """How to reach a page: load ``url`` (a template, relative to the site's address),
    then do ``actions`` in order; ``submit`` is clicked last and waited for."""

    url: PathTemplate | None = None
    # A page its scripts draw after loading (React and the like): wait, before the
    # actions, until one of these shows (list what an empty page shows, too).
    wait: Find | None = None
    actions: tuple[Action, ...] = ()
    submit: Find | None = None
    # What the submit's page draws by its scripts once it has its data (MRBS's search
    # fetches its rows after the page): waited for, the page settled first.
    after: Find | None = None

    @model_validator(mode="after")
    def _somewhere(self) -> Open:
        if self.url is None and not self.actions and self.submit is None:
            raise ValueError("say how to open the page: «url», «actions» or «submit»")
        return self


class Refusal(Part):
    """When the site's answer matches (its HTTP status, the message's code attribute, or
    words in the message), it means ``error``."""

    status: int | None = None
    code: str | None = None
    text: str | None = None  # contained, any case
    error: Meaning

    @model_validator(mode="after")
    def _matches_something(self) -> Refusal:
        if self.status is None and self.code is None and self.text is None:
            raise ValueError("a refusal needs «status», «code» or «text» to match")
        return self


class Outcome(Part):
    """How a form's answer is told apart: the message element and its code attribute,
    and what each kind of message means (checked in order; else ``otherwise``)."""

    message: Find
    code_attr: str | None = None
    refusals: tuple[Refusal, ...] = ()
    otherwise: Meaning = "rejected"


class Login(Part):
    """How to log in, and how the login page is told: its path matches ``page``, or the
    login form (``shown``) shows on it, at any address (a form drawn in place: MRBS).
    Neither given: a path starting «/login»."""

    open: Open
    username: Find
    password: Find
    submit: Find
    # Landing on a page whose path matches this means the site wants us to log in.
    page: Regex | None = None
    # ... or landing on a page where one of these shows (the login form), whatever its path.
    shown: Find | None = None
    failure: Outcome
    # A redirect to one of these hosts is single sign-on, which a profile cannot drive.
    sso_hosts: tuple[str, ...] = ()

    def page_path(self) -> str | None:
        """The login page's path pattern: ``page``, else «^/login» unless ``shown`` tells
        the login page by its form alone (None)."""
        if self.page is not None:
            return self.page
        return None if self.shown is not None else r"^/login"


class Words(Part):
    """What people call a building that the site cannot know: ``name`` in place of the
    site's (a site showing only «7» says nothing in «Забронированы 701 (7, …)»)."""

    name: str = ""
    name_en: str = ""
    words: tuple[str, ...] = ()


class Buildings(Part):
    """Buildings as a page lists them: the options of a select (value = the site's code,
    text = the name), or items of a list with picks for ``code`` and ``name``."""

    open: Open
    select: Find | None = None
    items: Find | None = None
    code: Pick | None = None
    name: Pick | None = None

    @model_validator(mode="after")
    def _one_source(self) -> Buildings:
        if (self.select is None) == (self.items is None):
            raise ValueError("list buildings by «select» or by «items» (one of them)")
        if self.items is not None and (self.code is None or self.name is None):
            raise ValueError("«items» need «code» and «name» picks")
        return self


class Catalogue(Part):
    buildings: Buildings
    # Rooms are read from each building's availability grid (today). Rooms are adjacent
    # when they share a floor and their numbers follow one another.
    words: dict[str, Words] = Field(default_factory=dict)


def _clock(value: object) -> object:
    if isinstance(value, int):  # YAML reads 18:00 as a sexagesimal number
        return time(value // 60, value % 60)
    return value


class RulesPart(Part):
    """What the site allows, as the file states it."""

    opens: time = time(8, 0)
    closes: time = time(22, 0)
    step_minutes: int = Field(30, gt=0, le=240)
    # None (``longest_minutes: null``): the site sets no longest booking; one may last
    # from ``opens`` to ``closes``.
    longest_minutes: int | None = Field(240, gt=0)
    horizon_days: int = Field(14, gt=0)
    rooms_per_booking: int = Field(1, ge=1)

    _clocks = field_validator("opens", "closes", mode="before")(_clock)

    @model_validator(mode="after")
    def _open_before_closed(self) -> RulesPart:
        if self.opens >= self.closes:
            raise ValueError("opens must be before closes")
        return self

    @property
    def longest(self) -> int:
        """The longest booking in minutes: the stated one, else the whole opening."""
        if self.longest_minutes is not None:
            return self.longest_minutes
        return (self.closes.hour - self.opens.hour) * 60 + self.closes.minute - self.opens.minute


class RoomPicks(Part):
    """A room's fields, read from the header of its grid line (``of: line`` reads the
    line's own element, e.g. ``@data-room`` on the row)."""

    number: Pick
    id: Pick | None = None  # the site's id of the room; else «building-number»
    floor: Pick | None = None
    capacity: Pick | None = None


class Slot(Part):
    """A grid cell: when it is (``time``: a ``span`` in the cell, or a start time in the
    axis header, ending one step later), and whether it is free or the user's own."""

    time: Pick
    free: Conds
    mine: Cond | None = None


class Grid(Part):
    """A day's table of rooms and times. ``rooms_in``: one room per row (times across)
    or per column (times down). Cells spanning several rows or columns cover all of them."""

    table: Find
    rooms_in: Literal["rows", "columns"] = "rows"
    header_lines: int = Field(1, ge=0)  # leading lines that are headings, not rooms/times
    room: RoomPicks
    slot: Slot
    # Shown instead of the table when the site failed to load it (worth another try).
    failed: Find | None = None
    # The table shows this day; checked against the requested one. Its ``css`` is looked
    # for in the table first, then anywhere on the page (a heading over the grid).
    caption_date: Pick | None = None


class Timeline(Part):
    """A day drawn as bars along a time axis, one line per room: a time is busy where one
    of the ``bars`` covers it. A bar's place is its box within its positioned container
    (CSS ``left``/``width``); the ``axis`` labels' places and times give the scale."""

    lines: Find  # each room's line; ``room`` picks read from it
    axis: Find  # the time labels along the axis («06:00», «08:00», ...)
    bars: str  # CSS inside a line: whatever makes its time not free
    mine: str | None = None  # CSS: a bar that is the user's own booking
    room: RoomPicks


class Availability(Part):
    """One building on one day: a table (``grid``) or bars on a time axis (``timeline``);
    ``request``: the same day as its page's own call returns it, for the fast path."""

    open: Open
    grid: Grid | None = None
    timeline: Timeline | None = None
    request: DayRequest | None = None

    @model_validator(mode="after")
    def _one_view(self) -> Availability:
        if (self.grid is None) == (self.timeline is None):
            raise ValueError("show a day by «grid» or by «timeline» (one of them)")
        return self


class Book(Part):
    open: Open
    form: Find  # present when the booking form is shown
    fields: tuple[Action, ...]
    submit: Find
    # The booking's address: the page after a made booking has a path (else a decoded
    # «path?query») matching ``booked``; group 1 is its number.
    booked: Regex
    # A site whose save leads to a page no address of which carries the number (MRBS: the
    # day's view): an address matching ``saved`` says the booking is made; its number is
    # then found in «my bookings» by what was sent.
    saved: Regex | None = None
    # Sites that answer in the page: ``made`` shows when the booking is made, then
    # ``made_then`` leads to the booking's address (a «see your booking» link).
    made: Find | None = None
    made_then: tuple[Action, ...] = ()
    # Shown, once the form's page is open, instead of what leads to the form when the
    # slot is not free (a search that finds no free room): ``SlotTaken``.
    taken: Find | None = None
    # The room the open form is for (its number, or the site's id of it as ``{room_id}``
    # writes it), read before anything is sent: a form for another room (a search that
    # found a room with a like name) is refused.
    room: Pick | None = None
    outcome: Outcome
    # The browser's own check of the form (required fields, min/max) before sending.
    browser_check: bool = True
    request: Request | None = None  # the fast path, where the form is one plain POST


def _spans(picks: tuple[Pick, ...] | None) -> tuple[Pick, ...] | None:
    if picks is not None and any(pick.format != "span" for pick in picks):
        raise ValueError(
            "«time» is read as a span: «format: span» (18:00–19:30); a start and an end "
            "shown apart are «start» and «end»"
        )
    return picks


def _clocks(picks: tuple[Pick, ...] | None) -> tuple[Pick, ...] | None:
    if picks is not None and any(pick.format in ("span", "int", *_DATE_ONLY) for pick in picks):
        raise ValueError("«start» and «end» are one time each: a time format (hhmm, …)")
    return picks


_DATE_ONLY = ("iso", "dmy", "dmy_slash", "mdy", "long")


def _times(part: str, *, time: object, start: object, end: object, end_needed: bool) -> None:
    """A booking's times: a ``time`` span, or a ``start`` (and its ``end``)."""
    if (time is None) == (start is None):
        raise ValueError(
            f"read a booking's times in «{part}» by «time» (a span) or by «start» and "
            "«end» (one of the two)"
        )
    if end is not None and start is None:
        raise ValueError(f"«end» in «{part}» goes with «start»")
    if end_needed and start is not None and end is None:
        raise ValueError(f"a booking's page shows its end: «end» in «{part}»")


class BookingPage(Part):
    """A booking's own page: ``url`` by its number, and picks for its fields."""

    url: PathTemplate
    wait: Find | None = None  # drawn by scripts: shows once the booking is shown
    missing: Find | None = None  # shown instead when there is no such booking
    number: Picks | None = None  # missing: the page at the booking's address is the booking
    building: Picks
    room: Picks
    date: Picks
    time: Picks | None = None  # a span; or:
    start: Picks | None = None  # a time each, read apart (a cell may hold the date too)
    end: Picks | None = None
    purpose: Picks
    cancelled: Cond | None = None  # shown when the booking is cancelled

    _span = field_validator("time")(lambda value: _spans(value))
    _clock = field_validator("start", "end")(lambda value: _clocks(value))

    @model_validator(mode="after")
    def _timed(self) -> BookingPage:
        _times("booking_page", time=self.time, start=self.start, end=self.end, end_needed=True)
        return self


class MyBookings(Part):
    """The user's bookings: a ``table``, one booking per row, picks by column; or
    ``items`` (cards), picks by CSS inside each. ``request``: the same list as its page's
    own call returns it, for the fast path."""

    open: Open
    table: Find | None = None
    items: Find | None = None
    number: Picks
    building: Picks | None = None  # missing: read from the booking's page
    room: Picks | None = None  # missing: read from the booking's page
    date: Picks
    time: Picks | None = None  # a span; or:
    start: Picks | None = None  # a time each, read apart
    end: Picks | None = None  # missing: read from the booking's page
    purpose: Picks
    # Who made each booking, read as the login the session logged in with: a list that
    # is a search (MRBS's: any booking naming the login) keeps only the account's own
    # (``adapters.profile.owner``). None: every booking listed is the account's.
    owner: Picks | None = None
    # Shown instead of the table when there is no booking («Совпадений не найдено.»):
    # then no table is an empty list; else it is the site changed.
    empty: Find | None = None
    request: ListRequest | None = None
    # A list of the next days only: today's bookings and those of the days after, this
    # many days in all. A booking past them is not listed, which says nothing of it: one
    # the account made is read on its own page instead. None: every upcoming booking.
    days: int | None = Field(None, ge=1)

    _span = field_validator("time")(lambda value: _spans(value))
    _clock = field_validator("start", "end")(lambda value: _clocks(value))

    @model_validator(mode="after")
    def _one_list(self) -> MyBookings:
        if (self.table is None) == (self.items is None):
            raise ValueError("list bookings as a «table» or as «items» (one of them)")
        _times("my_bookings", time=self.time, start=self.start, end=self.end, end_needed=False)
        if self.request is not None and self.start is not None and self.end is None:
            raise ValueError("a list read by its request reads «end» too")
        if self.request is not None and (self.building is None or self.room is None):
            raise ValueError("a list read by its request reads «building» and «room» too")
        if self.request is not None and (self.owner is None) != (self.request.owner is None):
            raise ValueError(
                "a list that tells the account's bookings by their «owner» tells them in its "
                "request's answer too («request.owner»), and only then"
            )
        return self


class Cancel(Part):
    """Cancelling: the control in the booking's row of «my bookings» (``at: my_bookings``)
    or on the booking's own page (``at: booking_page``), then the confirmation: the
    browser's own ``confirm()`` (``native``) or a dialog's button."""

    at: Literal["my_bookings", "booking_page"] = "my_bookings"
    control: Find
    confirm: Literal["none", "native"] | Find = "native"


class SiteProfile(Part):
    """One booking site. ``name`` is how reports and errors call it."""

    name: str
    login: Login
    catalogue: Catalogue
    rules: RulesPart = Field(default_factory=RulesPart)
    availability: Availability
    book: Book
    booking_page: BookingPage
    my_bookings: MyBookings
    cancel: Cancel
    # The site's own page while it is down, answered as any page (MRBS: «база данных не
    # доступна», HTTP 200): a page showing one of these is the site unavailable, as a
    # 5xx is — tried again, then said so — never a page that changed.
    unavailable: Find | None = None
    # Paths (exact, from one «/») a step may send a change to on the site; anything else
    # a brain-chosen click tries to change is blocked by the network guard.
    may_change: dict[Literal["login", "book", "cancel"], tuple[SitePath, ...]] = Field(
        default_factory=dict
    )

    @model_validator(mode="after")
    def _cancel_seen(self) -> SiteProfile:
        page = self.booking_page
        if self.cancel.at == "booking_page" and page.cancelled is None and page.missing is None:
            raise ValueError(
                "cancelling on the booking's page needs «booking_page.cancelled» (how the "
                "page shows a cancelled booking) or «missing» (a site that deletes it)"
            )
        return self


# The JSON Schema for editors (``clubman site schema`` writes it; a test keeps it current).
SCHEMA_FILE = Path(__file__).parents[2] / "profiles" / "site-profile.schema.json"


def json_schema() -> str:
    """The JSON Schema of a site profile, as the committed ``SCHEMA_FILE`` holds it."""
    schema = SiteProfile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "club manager site profile"
    return json.dumps(schema, ensure_ascii=False, indent=2) + "\n"
