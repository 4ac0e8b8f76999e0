"""``clubman learn`` on a real MRBS 1.12.2, the operator played over CDP
(``tests.support.learning_mrbs``): a login drawn in place, a building picker that is a
select2 widget over a hidden select, rooms across with their capacities glued to their
names, a booking form that checks the slot in the background as it opens, a save that
goes back to the day (no address names the booking), «my bookings» as a search posted by
a button, whose rows have the start but no end and no room, a booking's page of two-cell
rows, and a cancel through the browser's ``confirm()``. The profile drafted from that one
demonstration (no LLM, no edit by hand) passes the contract suite unchanged."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import pytest
import pytest_asyncio
import yaml

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.learn.draft import draft_profile
from tests.adapters.contract import BookingSystemContract
from tests.adapters.mrbs.harness import MrbsHarness
from tests.adapters.refportal.helpers import FAST
from tests.sites.mrbs import MrbsServer
from tests.support.learning import Demonstration, operators_chromium
from tests.support.learning_mrbs import STOCK_SHOW, demonstrate_mrbs

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def chromium() -> AsyncIterator[str]:
    async with operators_chromium() as endpoint:
        yield endpoint


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def shown(
    mrbs_server: MrbsServer, chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Demonstration]:
    """One demonstration for the module, on MRBS as seeded, the draft checked on the
    site by the learner (the password given)."""
    mrbs_server.as_seeded()
    work = tmp_path_factory.mktemp("learned-mrbs")
    day = mrbs_server.today() + timedelta(days=5)  # past the seed's days: the room is free
    yield await demonstrate_mrbs(mrbs_server, chromium, work, day=day, check=True)
    mrbs_server.as_seeded()


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def learned(shown: Demonstration) -> str:
    """The whole profile ``clubman learn`` wrote, with no edit by hand."""
    whole = shown.out / "mrbs.yaml"
    parts = shown.out / "mrbs.parts.yaml"
    assert whole.exists(), parts.read_text(encoding="utf-8") if parts.exists() else shown.said
    return whole.read_text(encoding="utf-8")


async def test_the_demonstration_drafts_a_whole_profile_and_keeps_no_secret(
    shown: Demonstration, learned: str, mrbs_server: MrbsServer
) -> None:
    recording = shown.recording
    assert [s.name for s in recording.steps] == [
        "login", "day", "book", "refused", "my_bookings", "opened", "cancel"
    ]  # fmt: skip
    assert learned == draft_profile(recording)
    assert not (shown.out / "mrbs.parts.yaml").exists()
    # The learner's own check of its draft, with the password given once: every part.
    assert "итог: профиль подходит" in shown.said, "\n".join(shown.said)
    # Booked once, refused once, deleted: nothing of the demonstration is left.
    assert [e for e in mrbs_server.bookings("club") if e.name == STOCK_SHOW.purpose] == []

    # What MRBS does its own way, read from the demonstration alone.
    drafted = yaml.safe_load(learned)
    assert "shown" in drafted["login"] and "page" not in drafted["login"]
    assert drafted["book"]["saved"] == r"^/index\.php$"  # back to the day: no number there
    assert [f.get("select") for f in drafted["book"]["fields"][1:]] == [
        "{start|seconds}",
        "{end|seconds}",
    ]  # the form's own defaults (type, repetition, the disabled copies) left alone
    mine = drafted["my_bookings"]
    assert mine["number"] == {"column": "Краткое описание", "css": "a@href",
                              "regex": r"[?&]id=(\d+)"}  # fmt: skip
    assert "end" not in mine and "time" not in mine  # read from each booking's own page
    assert mine["owner"] == {"column": "Создано", "regex": r"^(\S+)"}  # a search lists others' too
    # Opened again by the learner after the cancel: how MRBS says a deleted booking is
    # gone, and what its list says with none.
    assert drafted["booking_page"]["missing"] == [
        {"text": "Неправильный id записи", "exact": False}
    ]
    assert mine["empty"] == [{"text": "Совпадений не найдено", "exact": False}]
    assert drafted["cancel"] == {
        "at": "booking_page",
        "control": drafted["cancel"]["control"],
        "confirm": "native",
    }

    # No secret in anything the learner wrote.
    text = "\n".join(p.read_text(encoding="utf-8") for p in shown.out.iterdir())
    assert mrbs_server.club.password not in text
    assert shown.cookies and not [value for value in shown.cookies if value in text]


class TestLearnedMrbsContract(BookingSystemContract):
    """The contract suite, unchanged, on the profile drafted from the demonstration."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, learned: str, mrbs: MrbsServer) -> MrbsHarness:
        harness = MrbsHarness(mrbs)
        loaded = parse_site_profile(learned, "learned.yaml")
        harness.system = ProfileSystem(mrbs.base_url, loaded, retry=FAST)
        return harness
