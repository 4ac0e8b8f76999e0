"""The bad profiles the loader must refuse, each naming its line: the reference portal's
profile with one mistake put in (``profile_text``)."""

from __future__ import annotations

from typing import Any

from tests.adapters.profile.profile_text import TEXT, bad, edited

__all__ = ["BAD_PROFILES"]

_DAY_ROOM = "    room: {number: number, id: id, floor: floor, capacity: capacity}\n"

BAD_PROFILES: list[Any] = [
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
    bad(
        "a-time-part-of-a-date",
        edited("&date={date|iso}&start=", "&year={date|year}&hour={date|hour}&start="),
        "    url: /book?",
        "book.open.url",
        "hour",
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
        edited(
            "  number: [{column: Номер}, {column: №}]", "  number: {column: Номер, term: Номер}"
        ),
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
        edited("  number: [{column: Номер}, {column: №}]", "  number: {of: address}"),
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
