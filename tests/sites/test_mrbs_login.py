"""Logging in to the real MRBS by a profile whose login page is its form shown in place
(``login.shown``): MRBS answers a good and a wrong password on the same path, and shows
its form on any address once it has ended a session. A wrong password is
``LoginFailed`` in MRBS's words; a session MRBS ended is logged in again.

The profile is MRBS's login and what the session needs to check it (a «my bookings»
that lists nothing); profiles/mrbs.yaml is the whole one."""

from __future__ import annotations

import pytest
from playwright.async_api import BrowserContext

from adapters.profile.loader import parse_site_profile
from adapters.profile.session import ProfileSession
from core.site.errors import LoginFailed
from tests.sites.mrbs import MrbsServer

pytestmark = pytest.mark.asyncio(loop_scope="session")

_PROFILE = r"""
name: MRBS (its login)

login:
  open:
    url: /index.php
  username:
    - label: Пользователь
  password:
    - label: Пароль
  submit:
    - role: button
      name: Войти в систему
  shown:
    - css: form#logon
  failure:
    message:
      - css: form#logon > p
    refusals:
      - {text: неизвестный пользователь, error: wrong_password}
      - {text: unknown user, error: wrong_password}

catalogue:
  buildings:
    open:
      url: /index.php
    select:
      - css: select#area_select

availability:
  open:
    url: /index.php?view=day&page_date={date|iso}&area={building|url}
  grid:
    table:
      - css: table#day_main
    rooms_in: columns
    room:
      number: {regex: '(\S+)$'}
    slot:
      time: {of: header, format: hhmm}
      free: {has: "a"}

book:
  open:
    url: /edit_entry.php?area={building|url}&room={room_id|url}
  form:
    - css: form#main
  fields:
    - find: [{label: Краткое описание}]
      fill: "{purpose}"
  submit:
    - role: button
      name: Сохранить
  booked: ^/view_entry\.php\?id=(\d+)
  outcome:
    message:
      - css: div#flash

booking_page:
  url: /view_entry.php?id={number}
  number: {css: "input[name=id]@value"}
  building: {term: Помещение, regex: '^(.*) - '}
  room: {term: Помещение, regex: ' - (.*)$'}
  date: {term: Время начала, format: long}
  time: {term: Время начала, regex: '(\d+:\d+)', format: span}
  purpose: {css: h3}
  cancelled: {text: Неправильный id записи}

# Nothing of the club's is listed: a list that reads empty on the day view once logged in.
my_bookings:
  open:
    url: /index.php?view=day
  items:
    - css: table#day_main td.clubman-none
  number: {css: a}
  date: {css: a, format: iso}
  time: {css: a, format: span}
  purpose: {css: a}

cancel:
  at: booking_page
  control:
    - role: button
      name: Удалить запись
  confirm: native
"""


def _session(context: BrowserContext, server: MrbsServer, password: str) -> ProfileSession:
    loaded = parse_site_profile(_PROFILE, "tests/sites/mrbs-login.yaml")
    return ProfileSession(
        context, loaded, base_url=server.base_url, username="club", password=password,
        timeout_ms=10_000,
    )  # fmt: skip


async def test_a_wrong_password_is_login_failed_in_mrbs_words(
    context: BrowserContext, mrbs_server: MrbsServer
) -> None:
    session = _session(context, mrbs_server, "not-the-password")
    with pytest.raises(LoginFailed) as caught:
        await session.ensure_logged_in()
    assert "неизвестный пользователь" in caught.value.args[0]
    assert session.logins == 1  # refused once, not tried again as a lost session


async def test_a_session_mrbs_ended_is_logged_in_again(
    context: BrowserContext, mrbs_server: MrbsServer
) -> None:
    session = _session(context, mrbs_server, mrbs_server.club.password)
    await session.ensure_logged_in()
    assert session.logins == 1
    await session.ensure_logged_in()  # the cookies still open the day: no login
    assert session.logins == 1
    assert mrbs_server.end_sessions() >= 1  # the cookies stay, the form shows everywhere
    await session.ensure_logged_in()
    assert session.logins == 2
