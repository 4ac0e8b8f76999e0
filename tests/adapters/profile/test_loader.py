"""Loading a site profile: every mistake is a ``ProfileError`` naming the file and the
line, before anything runs (no browser here); templates write and read back dates and
times in every format.

Each bad profile is ``profiles/refportal.yaml`` with one mistake put in, and each test
says which line of the edited text the error must name.
"""

from __future__ import annotations

from datetime import date, time
from pathlib import Path
from typing import Any

import pytest

from adapters.profile.loader import VARIABLES, ProfileError, load_site_profile, parse_site_profile
from adapters.profile.template import (
    DATE_FORMATS,
    FILTERS,
    TIME_FORMATS,
    Template,
    TemplateError,
    parse_date,
    parse_time,
)
from app.systems import choose_system
from core.errors import ConfigError
from core.settings import PortalSettings

ROOT = Path(__file__).resolve().parents[3]
REFPORTAL = ROOT / "profiles" / "refportal.yaml"
TEXT = REFPORTAL.read_text(encoding="utf-8")
FILE = "profiles/mysite.yaml"


_DAY_ROOM = "    room: {number: number, id: id, floor: floor, capacity: capacity}\n"


def edited(old: str, new: str) -> str:
    """refportal.yaml with ``old`` (found exactly once) replaced by ``new``."""
    assert TEXT.count(old) == 1, f"{old!r} is not in refportal.yaml exactly once"
    return TEXT.replace(old, new)


def line_of(text: str, start: str | tuple[str, str]) -> int:
    """The number of the one line of ``text`` that starts with ``start``; for a pair
    (part, start), the first such line in the part that starts a line with ``part``."""
    lines = text.splitlines()
    if isinstance(start, tuple):
        part, start = start
        after = line_of(text, part)
        return next(n for n, line in enumerate(lines, 1) if n > after and line.startswith(start))
    found = [n for n, line in enumerate(lines, 1) if line.startswith(start)]
    assert len(found) == 1, f"{start!r} starts {len(found)} lines, not one"
    return found[0]


def refused(text: str) -> ProfileError:
    with pytest.raises(ProfileError) as caught:
        parse_site_profile(text, FILE)
    return caught.value


def bad(name: str, text: str, line: str | tuple[str, str], *words: str) -> Any:  # a pytest.param
    """One bad profile: the error names the line starting with ``line`` and ``words``."""
    return pytest.param(text, line, words, id=name)


BAD_PROFILES = [
    # -- YAML syntax --------------------------------------------------------------------
    bad(
        "bad-indent",
        edited("  username:\n", "   username:\n"),
        "   username:",
        "not valid YAML",
    ),
    bad(
        "tab-indent",
        edited("  page: ^/login\n", "\tpage: ^/login\n"),
        "\tpage: ^/login",
        "not valid YAML",
        "cannot start any token",
    ),
    bad(
        "colon-in-a-plain-value",
        edited("name: Reference portal\n", "name: Reference: portal\n"),
        "name: Reference: portal",
        "not valid YAML",
        "mapping values are not allowed",
    ),
    bad(
        "undefined-alias",
        edited("name: Reference portal\n", "name: *portal\n"),
        "name: *portal",
        "not valid YAML",
        "portal",
    ),
    bad(
        "unclosed-bracket",
        edited("lab, labs, laboratory, laboratories]", "lab, labs, laboratory, laboratories"),
        "      words: [лаб,",
        "not valid YAML",
    ),
    bad(
        "unclosed-brace",
        edited(
            "      - {text: слишком много, error: locked}",
            "      - {text: слишком много, error: locked",
        ),
        "      - {text: слишком много",
        "not valid YAML",
    ),
    # -- keys -----------------------------------------------------------------------------
    bad(
        "duplicate-key",
        edited("  page: ^/login\n", "  page: ^/login\n  page: ^/signin\n"),
        "  page: ^/signin",
        "«page»",
        "twice",
    ),
    bad(
        "duplicate-part",
        TEXT + "name: Another portal\n",
        "name: Another portal",
        "«name»",
        "twice",
    ),
    bad(
        "unknown-key-at-top",
        edited("name: Reference portal\n", "name: Reference portal\ncolour: blue\n"),
        "colour: blue",
        "unknown key «colour»",
    ),
    bad(
        "unknown-key-deep",
        edited("      floor: {regex:", "      flor: {regex:"),
        "      flor:",
        "availability.grid.room.flor",
        "unknown key «flor»",
    ),
    bad(
        "unknown-key-in-a-part",
        edited("    otherwise: rejected\n", "    otherwise: rejected\n  browser_chek: false\n"),
        "  browser_chek: false",
        "book.browser_chek",
        "unknown key «browser_chek»",
    ),
    bad(
        "typo-of-a-required-key",
        edited(
            "  submit:\n    - role: button\n      name: Забронировать\n",
            "  sumbit:\n    - role: button\n      name: Забронировать\n",
        ),
        "  sumbit:",
        "sumbit",
    ),
    bad(
        "missing-field-in-a-part",
        edited("  booked: ^/booking/(\\d+)$\n", ""),
        "book:",
        "book.booked",
        "missing",
    ),
    # -- templates ------------------------------------------------------------------------
    bad(
        "variable-the-part-does-not-have",
        edited("date={date|iso}\n  grid:", "date={date|iso}&why={purpose}\n  grid:"),
        "    url: /rooms?",
        "availability.open.url",
        "purpose",
        "building, date",
    ),
    bad(
        "misspelt-variable",
        edited("  url: /booking/{number}\n", "  url: /booking/{nmber}\n"),
        "  url: /booking/{nmber}",
        "booking_page.url",
        "nmber",
    ),
    bad(
        "unknown-format",
        edited("&date={date|iso}&start=", "&date={date|dmyy}&start="),
        "    url: /book?",
        "book.open.url",
        "unknown format «dmyy»",
    ),
    bad(
        "unclosed-slot",
        edited("  url: /booking/{number}\n", "  url: /booking/{number\n"),
        "  url: /booking/{number",
        "booking_page.url",
        "unbalanced «{»",
    ),
    bad(
        "stray-closing-brace",
        edited("  url: /booking/{number}\n", "  url: /booking/number}\n"),
        "  url: /booking/number}",
        "booking_page.url",
        "unbalanced «}»",
    ),
    bad(
        "unquoted-template-is-a-mapping",
        edited('      fill: "{purpose}"\n', "      fill: {purpose}\n"),
        "      fill: {purpose}",
        "book.fields.3.fill",
        "template must be text",
    ),
    bad(
        "format-that-does-not-fit-the-variable",
        edited("&date={date|iso}&start=", "&date={date|hhmm}&start="),
        "    url: /book?",
        "book.open.url",
        "hhmm",
    ),
    # -- regular expressions and picks ----------------------------------------------------
    bad(
        "invalid-regex",
        edited("  booked: ^/booking/(\\d+)$\n", "  booked: ^/booking/(\\d+$\n"),
        "  booked: ^/booking/(",
        "book.booked",
        "not a valid regular expression",
    ),
    bad(
        "invalid-regex-in-a-pick",
        edited("{regex: '(\\d+)\\s*этаж'", "{regex: '(\\d+\\s*этаж'"),
        "      floor:",
        "availability.grid.room.floor.regex",
        "not a valid regular expression",
    ),
    bad(
        "unknown-pick-format",
        edited("  date: {term: Дата, format: dmy}", "  date: {term: Дата, format: ddmmyy}"),
        "  date: {term: Дата, format: ddmmyy}",
        "booking_page.date.format",
        "'dmy'",
    ),
    bad(
        "pick-in-two-places",
        edited("  number: {column: Номер}", "  number: {column: Номер, term: Номер}"),
        "  number: {column: Номер, term: Номер}",
        "my_bookings.number",
        "column, term",
    ),
    # -- locators, actions, refusals ------------------------------------------------------
    bad(
        "locator-with-two-ways",
        edited(
            "    - role: heading\n      name: Бронирование аудитории\n",
            "    - role: heading\n      name: Бронирование аудитории\n      css: h1\n",
        ),
        "    - role: heading",
        "book.form.0",
        "(here: role, css)",
    ),
    bad(
        "locator-with-no-way",
        edited("    - label: Пароль\n", "    - exact: false\n"),
        "    - exact: false",
        "login.password.0",
        "exactly one of role, label, text, css, xpath",
    ),
    bad(
        "name-without-role",
        edited("    - label: Пароль\n", "    - label: Пароль\n      name: Пароль\n"),
        "    - label: Пароль",
        "login.password.0",
        "«name» goes with «role»",
    ),
    bad(
        "empty-find",
        edited("  password:\n    - label: Пароль\n", "  password: []\n"),
        "  password: []",
        "login.password",
        "at least 1",
    ),
    bad(
        "action-doing-two-things",
        edited('      fill: "{purpose}"\n', '      fill: "{purpose}"\n      click: true\n'),
        "    - find: [{label: Цель бронирования}]",
        "book.fields.3",
        "fill",
        "click",
    ),
    bad(
        "refusal-matching-nothing",
        edited("{status: 401, error: wrong_password}", "{error: wrong_password}"),
        "      - {error: wrong_password}",
        "login.failure.refusals.3",
        "«status», «code» or «text»",
    ),
    bad(
        "unknown-error-meaning",
        edited("{status: 409, error: slot_taken}", "{status: 409, error: taken}"),
        "      - {status: 409, error: taken}",
        "book.outcome.refusals.1.error",
        "'slot_taken'",
    ),
    bad(
        "open-saying-nothing",
        edited("  open:\n    url: /my\n", "  open: {}\n"),
        "  open: {}",
        "my_bookings.open",
        "«url», «actions» or «submit»",
    ),
    # -- rules and the rest ---------------------------------------------------------------
    bad(
        "impossible-time",
        edited('  opens: "08:00"', '  opens: "25:00"'),
        '  opens: "25:00"',
        "rules.opens",
    ),
    bad(
        "zero-step",
        edited("  step_minutes: 30", "  step_minutes: 0"),
        "  step_minutes: 0",
        "rules.step_minutes",
        "greater than 0",
    ),
    bad(
        "unknown-step-in-may-change",
        edited("  book: [/book]", "  booking: [/book]"),
        "  booking: [/book]",
        "may_change.booking",
    ),
    bad(
        "unknown-cancel-confirm",
        edited("  confirm: native", "  confirm: nativ"),
        "  confirm: nativ",
        "cancel.confirm",
        "'native'",
    ),
    # -- YAML the loader must refuse rather than crash on or ignore ----------------------
    bad(
        "python-tag-on-a-scalar",
        edited("  confirm: native", "  confirm: !!python/name:os.system native"),
        "  confirm: !!python/name:os.system",
        "not valid YAML",
        "python/name:os.system",
    ),
    bad(
        "python-tag-on-a-list",
        edited("      words: [гк,", "      words: !!python/object/apply:os.system [гк,"),
        "      words: !!python/object/apply:os.system",
        "python/object/apply",
    ),
    bad(
        "list-as-a-key",
        edited("name: Reference portal\n", "name: Reference portal\n[a]: b\n"),
        "[a]: b",
    ),
    bad(
        "recursive-alias",
        edited("name: Reference portal\n", "name: &self [*self]\n"),
        "name: &self",
    ),
    # -- the parts for pages their scripts draw ------------------------------------------
    bad(
        "a-day-both-as-grid-and-timeline",
        edited(
            "  grid:\n",
            "  timeline:\n    lines: [{css: .row}]\n    axis: [{css: .hour}]\n"
            "    bars: .booking\n    room: {number: {}}\n  grid:\n",
        ),
        "availability:",
        "availability",
        "«grid» or by «timeline»",
    ),
    bad(
        "my-bookings-both-as-table-and-items",
        edited(
            "  table:\n    - role: table\n      name: Мои брони\n",
            "  table:\n    - role: table\n      name: Мои брони\n  items: [{css: .card}]\n",
        ),
        "my_bookings:",
        "my_bookings",
        "«table» or as «items»",
    ),
    bad(
        "a-group-pick-without-its-heading",
        edited("  date: {column: Дата, format: dmy}", "  date: {of: group, format: dmy}"),
        "  date: {of: group",
        "my_bookings.date",
        "heading",
    ),
    bad(
        "an-address-pick-without-its-regex",
        edited("  number: {column: Номер}", "  number: {of: address}"),
        "  number: {of: address}",
        "my_bookings.number",
        "regex",
    ),
    bad(
        "cancel-on-the-booking-page-without-seeing-it-cancelled",
        edited(
            "  cancelled: {text: Бронь отменена}\n",
            "",
        ).replace("cancel:\n  control:", "cancel:\n  at: booking_page\n  control:"),
        "name: Reference portal",
        "booking_page.cancelled",
    ),
    bad(
        "unknown-place-to-cancel",
        edited("cancel:\n  control:", "cancel:\n  at: booking_pages\n  control:"),
        "  at: booking_pages",
        "cancel.at",
        "'booking_page'",
    ),
    bad(
        "a-request-both-form-and-json",
        edited("    token: csrf_token\n", "    token: csrf_token\n    json: {room: x}\n"),
        ("book:", "  request:"),
        "`form` or `json`",
    ),
    bad(
        "a-json-request-without-its-number",
        edited('    form:\n      room: "{room_id}"\n', '    json:\n      room: "{room_id}"\n'),
        ("book:", "  request:"),
        "`number`",
    ),
    bad(
        "a-form-token-in-a-header",
        edited("    token: csrf_token\n", "    token: {meta: csrf-token, header: X-CSRF-Token}\n"),
        ("book:", "  request:"),
        "a form's token is one of its fields",
    ),
    bad(
        "a-day-call-finding-its-rooms-both-ways",
        edited(_DAY_ROOM, _DAY_ROOM + "    key: id\n"),
        ("availability:", "  request:"),
        "`room` (the answer names its rooms) goes without",
    ),
    bad(
        "a-day-call-finding-its-rooms-no-way",
        edited(_DAY_ROOM, ""),
        ("availability:", "  request:"),
        "the rooms are either in the answer",
    ),
    bad(
        "no-field-writes-the-purpose",
        edited('      fill: "{purpose}"\n', '      fill: "club"\n'),
        "  fields:",
        "book.fields",
        "{purpose}",
    ),
]


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
    with pytest.raises(ProfileError) as caught:
        load_site_profile(path)
    assert caught.value.where == str(path)
    assert "cannot read it" in caught.value.problem
    assert "No such file" in caught.value.problem


def test_a_directory_is_refused_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ProfileError) as caught:
        load_site_profile(tmp_path)
    assert caught.value.where == str(tmp_path)
    assert "cannot read it" in caught.value.problem


def test_a_file_that_is_not_utf8_is_refused_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "cp1251.yaml"
    path.write_bytes(TEXT.encode("cp1251"))
    with pytest.raises(ProfileError) as caught:
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
    assert isinstance(caught.value, ProfileError)
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


# -- templates -------------------------------------------------------------------------------

DAY = date(2026, 11, 27)
EVENING = time(18, 0)

# Every format of template.FILTERS, with what it writes.
WRITTEN: dict[str, tuple[object, str]] = {
    "iso": (DAY, "2026-11-27"),
    "dmy": (DAY, "27.11.2026"),
    "dmy_slash": (DAY, "27/11/2026"),
    "mdy": (DAY, "11/27/2026"),
    "long": (DAY, "27 November 2026"),
    "hhmm": (EVENING, "18:00"),
    "h12": (EVENING, "06:00 PM"),
    "h12_short": (EVENING, "6:00 PM"),
    "seconds": (EVENING, "64800"),
    "minutes": (EVENING, "1080"),
    "url": ("Main 1/2 & ы?", "Main%201%2F2%20%26%20%D1%8B%3F"),
    "lower": ("Главный Корпус", "главный корпус"),
}


def test_every_format_is_tested() -> None:
    assert set(WRITTEN) == set(FILTERS)


@pytest.mark.parametrize(
    ("fmt", "written"),
    [pytest.param(fmt, written, id=fmt) for fmt, written in WRITTEN.items()],
)
def test_a_template_writes_each_format(fmt: str, written: tuple[object, str]) -> None:
    value, text = written
    assert Template.parse(f"[{{value|{fmt}}}]").render({"value": value}) == f"[{text}]"


@pytest.mark.parametrize(("fmt", "written"), WRITTEN.items(), ids=list(WRITTEN))
def test_each_format_writes_its_value(fmt: str, written: tuple[object, str]) -> None:
    value, text = written
    assert FILTERS[fmt](value) == text  # type: ignore[operator]


def test_a_profile_may_write_a_time_on_the_12_hour_clock() -> None:
    text = edited('      select: "{start|hhmm}"', '      select: "{start|h12_short}"')
    select = parse_site_profile(text, FILE).profile.book.fields[1].select
    assert select is not None
    assert select.render({"start": time(18, 30)}) == "6:30 PM"


def test_a_slot_without_format_writes_iso_dates_24_hour_times_and_text() -> None:
    template = Template.parse("{date} {start} {room} {attendees} {purpose}")
    assert template.names == {"date", "start", "room", "attendees", "purpose"}
    written = template.render({"date": DAY, "start": time(9, 5), "room": "101", "attendees": 12})
    assert written == "2026-11-27 09:05 101 12 "  # a value not given writes nothing


@pytest.mark.parametrize(
    ("source", "written"),
    [
        ("{{", "{"),
        ("}}", "}"),
        ("{{number}}", "{number}"),
        ("{{{number}}}", "{7}"),
        ("a{{b}}c {number}", "a{b}c 7"),
        ('{{"n": {number}}}', '{"n": 7}'),
    ],
)
def test_doubled_braces_are_literal(source: str, written: str) -> None:
    assert Template.parse(source).render({"number": 7}) == written
    assert str(Template.parse(source)) == source


@pytest.mark.parametrize(
    "source",
    [
        "{date.year}",  # attribute access
        "{date[0]}",  # indexing
        "{date()}",  # a call
        "{ date }",  # not a slot
        "{Date}",  # names are lower case
        "{date|iso|lower}",  # one format per slot
        "{date|}",
        "{}",
        "{0}",
        "{date!r}",
        "{date:%Y}",
    ],
)
def test_a_template_is_slots_not_expressions(source: str) -> None:
    with pytest.raises(TemplateError):
        Template.parse(source)


DATES = [date(2026, 1, 1), date(2026, 11, 27), date(2028, 2, 29), date(2026, 12, 31)]
TIMES = [
    time(0, 0),
    time(0, 30),
    time(9, 5),
    time(11, 59),
    time(12, 0),
    time(12, 30),
    time(13, 0),
    time(18, 0),
    time(23, 30),
]


@pytest.mark.parametrize("fmt", DATE_FORMATS)
@pytest.mark.parametrize("day", DATES, ids=str)
def test_a_date_reads_back_in_its_format(fmt: str, day: date) -> None:
    written = DATE_FORMATS[fmt](day)
    assert parse_date(written, fmt) == day
    assert parse_date(f"Дата: {written} (пт)", fmt) == day  # the first date in a text


@pytest.mark.parametrize("fmt", TIME_FORMATS)
@pytest.mark.parametrize("moment", TIMES, ids=str)
def test_a_time_reads_back_in_its_format(fmt: str, moment: time) -> None:
    assert parse_time(TIME_FORMATS[fmt](moment), fmt) == moment


@pytest.mark.parametrize(
    ("fmt", "moment", "written"),
    [
        ("h12", time(0, 0), "12:00 AM"),
        ("h12", time(0, 30), "12:30 AM"),
        ("h12", time(12, 0), "12:00 PM"),
        ("h12", time(12, 30), "12:30 PM"),
        ("h12", time(23, 30), "11:30 PM"),
        ("h12_short", time(0, 0), "12:00 AM"),
        ("h12_short", time(9, 5), "9:05 AM"),
        ("h12_short", time(12, 30), "12:30 PM"),
        ("h12_short", time(23, 30), "11:30 PM"),
        ("hhmm", time(0, 0), "00:00"),
        ("hhmm", time(23, 30), "23:30"),
        ("seconds", time(0, 0), "0"),
        ("seconds", time(23, 30), "84600"),
        ("minutes", time(12, 30), "750"),
    ],
)
def test_the_edges_of_the_clock_are_written_right(fmt: str, moment: time, written: str) -> None:
    assert TIME_FORMATS[fmt](moment) == written


@pytest.mark.parametrize(
    ("text", "moment"),
    [
        ("12:00 AM", time(0, 0)),
        ("12:30 am", time(0, 30)),
        ("12:00 PM", time(12, 0)),
        ("12:30 p.m.", time(12, 30)),
        ("6:00PM", time(18, 0)),
        ("11:30 PM", time(23, 30)),
        ("18.00", time(18, 0)),
        ("18:00:00", time(18, 0)),
        ("с 23:30", time(23, 30)),
    ],
)
def test_a_clock_is_read_in_12_and_24_hour_forms(text: str, moment: time) -> None:
    assert parse_time(text, "h12") == moment
    assert parse_time(text, "hhmm") == moment


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("24:00", "hhmm"),
        ("18:60", "hhmm"),
        ("вечером", "hhmm"),
        ("86400", "seconds"),
        ("1440", "minutes"),
        ("18:00", "seconds"),
        ("-60", "minutes"),
    ],
)
def test_a_time_that_is_not_one_reads_as_none(text: str, fmt: str) -> None:
    assert parse_time(text, fmt) is None


@pytest.mark.parametrize(
    ("text", "fmt"),
    [("2026-02-30", "iso"), ("31.04.2026", "dmy"), ("13/27/2026", "mdy"), ("завтра", "iso")],
)
def test_a_date_that_is_not_one_reads_as_none(text: str, fmt: str) -> None:
    assert parse_date(text, fmt) is None


@pytest.mark.parametrize(
    ("text", "day"),
    [
        ("Friday, 27 November 2026", date(2026, 11, 27)),
        ("27 Nov 2026", date(2026, 11, 27)),
        ("пятница, 27 ноября 2026", date(2026, 11, 27)),
        ("1 мая 2026 г.", date(2026, 5, 1)),
        ("3 Sept. 2026", date(2026, 9, 3)),
    ],
)
def test_a_date_with_the_months_name_is_read_in_english_and_russian(text: str, day: date) -> None:
    assert parse_date(text, "long") == day


def test_a_month_name_that_is_not_one_reads_as_none() -> None:
    assert parse_date("27 Brumaire 2026", "long") is None


def test_the_indico_profile_loads_as_pages_its_scripts_draw() -> None:
    profile = load_site_profile(ROOT / "profiles" / "indico.yaml").profile
    assert profile.availability.timeline is not None and profile.availability.grid is None
    assert profile.availability.open.wait is not None
    assert profile.my_bookings.items is not None and profile.my_bookings.number.of == "address"
    assert profile.my_bookings.date.of == "group" and profile.my_bookings.date.format == "long"
    assert profile.cancel.at == "booking_page" and profile.booking_page.number is None
    assert profile.book.made is not None and profile.book.taken is not None
    assert profile.catalogue.words["7"].name == "Корпус 7"


def test_day_and_month_orders_are_told_apart() -> None:
    assert parse_date("03/04/2026", "dmy_slash") == date(2026, 4, 3)
    assert parse_date("03/04/2026", "mdy") == date(2026, 3, 4)
