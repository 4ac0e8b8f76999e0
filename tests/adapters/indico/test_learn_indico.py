"""``clubman learn`` on a real Indico 3.2.9's room booking pages (React, its forms sent
by script as JSON), the operator played over CDP (``tests/support/learning_indico.py``).

The demonstration drafts the whole profile: the day is a timeline drawn in ``div``s (no
table in the page's accessibility tree), shown by example (its rooms' lines, its axis,
two busy bars); the booking's page is a modal read by the pieces of text it showed;
Indico's pages do not state its rules, so the operator writes them when asked. The
draft, with no edit by hand, passes the contract suite on the live site.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import datetime, time, timedelta

import pytest
import pytest_asyncio
import yaml

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.learn.draft import draft_profile
from core.browser.retry import RetryPolicy
from tests.adapters.contract import BookingSystemContract
from tests.adapters.indico.profile_harness import IndicoPagesHarness
from tests.support.indico_server import IndicoServer
from tests.support.learning import Demonstration, operators_chromium
from tests.support.learning_indico import (
    INDICO_PURPOSE,
    INDICO_ROOM,
    INDICO_RULES,
    demonstrate_indico,
)

pytestmark = [pytest.mark.asyncio(loop_scope="session"), pytest.mark.slow]  # tests/conftest.py


_FAST = RetryPolicy(attempts=4, base_delay=0.1, max_delay=0.5)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def shown(
    indico_server: IndicoServer, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Demonstration]:
    """One demonstration for the module, on a day no other Indico test books, with
    another member's booking on it (a busy bar to show)."""
    indico_server.as_seeded()
    day = indico_server.today() + timedelta(days=8)
    other = indico_server.room("7/7-702").id
    indico_server.add_booking(
        other, datetime.combine(day, time(12)), datetime.combine(day, time(13))
    )
    work = tmp_path_factory.mktemp("learned-indico")
    club = indico_server.club
    async with operators_chromium() as chromium:
        yield await demonstrate_indico(
            indico_server.base_url, chromium, work, day=day,
            username=club.username, password=club.password,
        )  # fmt: skip
    # The second booking, made to show «my bookings» by example, and the other's.
    indico_server.as_seeded()


@pytest.fixture(scope="module")
def learned(shown: Demonstration) -> str:
    """The whole profile drafted from the demonstration, with no edit by hand."""
    return draft_profile(shown.recording)


async def test_the_demonstration_is_recorded_without_secrets(
    shown: Demonstration, indico_server: IndicoServer
) -> None:
    recording = shown.recording
    assert [s.name for s in recording.steps] == [
        "login", "day", "book", "refused", "my_bookings", "cancel"
    ]  # fmt: skip
    mine = [b for b in indico_server.bookings() if b.reason == INDICO_PURPOSE]
    assert [b.state for b in mine] == ["cancelled"]  # booked, then cancelled in step 6
    book = recording.steps[2]
    assert book.answers["room"] == INDICO_ROOM
    # Sent by the page's script (JSON, its keys only), by the click on «Create Booking».
    [sent] = book.requests
    assert sent.method == "POST" and "reason" in sent.json_keys and not sent.form
    assert book.actions[sent.after - 1].candidates[0].name == "Create Booking"
    assert recording.steps[3].requests == ()  # refused before anything was sent

    text = "\n".join(p.read_text(encoding="utf-8") for p in shown.out.iterdir())
    assert indico_server.club.password not in text
    assert shown.cookies and not [value for value in shown.cookies if value in text]
    tokens = [
        value
        for step in recording.steps
        for request in step.requests
        for key, value in request.form.items()
        if re.search("csrf|token", key, re.IGNORECASE)
    ]
    assert tokens and set(tokens) == {"***"}  # the login form's token, hidden


async def test_the_whole_profile_is_drafted(shown: Demonstration, learned: str) -> None:
    assert shown.recording.steps[1].answers["rules"] == INDICO_RULES  # asked: not on the page
    drafted = yaml.safe_load(learned)
    rules = parse_site_profile(learned, "learned.yaml").profile.rules
    assert (rules.opens, rules.closes, rules.step_minutes) == (time(8), time(22), 30)
    assert (rules.longest_minutes, rules.horizon_days) == (840, 29)
    book = drafted["book"]
    # The room's card opens the form, found by the room's whole name (the site's id of
    # it); the site answers in the page, and its link leads to the booking, whose number
    # is in the address's query.
    assert book["open"]["url"].startswith("/rooms/book?") and "{date|iso}" in book["open"]["url"]
    assert "text={room_id|url}" in book["open"]["url"]
    assert book["open"]["actions"] and book["made_then"]
    assert book["made"] == [{"text": "The space has been successfully booked!", "exact": False}]
    assert book["booked"] == r"modal=booking\-details:(\d+)"
    assert book["taken"] == [{"text": "No spaces are available during that time slot",
                              "exact": False}]  # fmt: skip
    assert [f.get("fill") for f in book["fields"]] == [None, "{purpose}"]  # a radio clicked
    listed = drafted["my_bookings"]
    assert listed["number"] == {"of": "address", "regex": r"modal=booking\-details:(\d+)"}
    assert listed["date"]["of"] == "group" and listed["date"]["format"] == "long"
    assert drafted["cancel"]["at"] == "booking_page"
    # The day: a timeline as shown by example; a room's name read by its parts.
    timeline = drafted["availability"]["timeline"]
    assert "{date|iso}" in drafted["availability"]["open"]["url"]
    assert "building={building}" in drafted["availability"]["open"]["url"]
    assert "__timeline-row___" in timeline["lines"][0]["css"]
    assert "__timeline-header-label___" in timeline["axis"][0]["css"]
    assert "__timeline-occurrence___" in timeline["bars"]  # what both kinds of bar share
    assert {"number", "id", "floor"} <= set(timeline["room"])
    # The buildings: the first part of every room's name on today's timeline.
    buildings = drafted["catalogue"]["buildings"]
    assert buildings["open"]["url"] == "/rooms/calendar?view=timeline"
    # The booking's modal, read by its pieces; cancelled: what the cancel's modal showed.
    page = drafted["booking_page"]
    assert page["url"] == "/rooms/book?modal=booking-details:{number}"
    assert page["date"]["format"] == "dmy_slash" and page["time"]["format"] == "span"
    assert page["purpose"]["regex"] == r"^Booking\ reason\s*(.*)$"
    assert "has" in page["cancelled"]


class TestLearnedIndicoContract(BookingSystemContract):
    """The contract suite, unchanged, on the profile ``clubman learn`` drafted from the
    demonstration alone (no LLM: none is configured)."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, learned: str, indico_server: IndicoServer) -> IndicoPagesHarness:
        indico_server.cancel_all()  # a clean slate: the demonstration's are gone
        harness = IndicoPagesHarness(indico_server)
        loaded = parse_site_profile(learned, "learned.yaml")
        harness.system = ProfileSystem(indico_server.base_url, loaded, retry=_FAST)
        return harness
