"""``clubman learn`` on the awkward legacy-style site (``portal/legacy``), the operator
played over CDP (``tests.support.learning_legacy``): times down and rooms across, free
slots as links carrying the room's id and the time in seconds, selects valued in
seconds, a password labelled in English, a refusal in a plain ``div``, «мои брони» as
an empty search with no room column, a native ``confirm()``. The profile drafted from
that one demonstration (no LLM, no edit by hand) passes the contract suite unchanged."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import aiohttp
import pytest
import pytest_asyncio
import yaml

from adapters.profile import ProfileSystem, parse_site_profile
from adapters.profile.learn.draft import draft_profile
from core.browser import BrowserPool
from portal.legacy.server import RunningLegacy
from tests.adapters.contract import HiddenOutcomeContract
from tests.adapters.profile.legacy_harness import LegacyHarness
from tests.adapters.refportal.helpers import FAST, TODAY
from tests.portal.helpers import TestClock
from tests.support.learning import Demonstration, operators_chromium
from tests.support.learning_legacy import LEGACY_PASSWORD, LEGACY_PURPOSE, demonstrate_legacy

pytestmark = pytest.mark.asyncio(loop_scope="session")


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def chromium() -> AsyncIterator[str]:
    async with operators_chromium() as endpoint:
        yield endpoint


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def shown(
    legacy: RunningLegacy, clock: TestClock, chromium: str, tmp_path_factory: pytest.TempPathFactory
) -> Demonstration:
    """One demonstration for the module, on the site reseeded first."""
    clock.shift = timedelta()
    async with aiohttp.ClientSession() as http, http.post(f"{legacy.url}/_test/reset") as got:
        assert got.status == 200, await got.text()
    work = tmp_path_factory.mktemp("learned-legacy")
    return await demonstrate_legacy(legacy.url, chromium, work, today=TODAY)


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def learned(shown: Demonstration) -> str:
    """The whole profile ``clubman learn`` wrote, with no edit by hand."""
    return (shown.out / "legacy.yaml").read_text(encoding="utf-8")


async def _bookings(site: RunningLegacy) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{site.url}/_test/bookings") as got:
        assert got.status == 200
        found: list[dict[str, Any]] = await got.json()
    return found


async def test_the_demonstration_drafts_a_whole_profile_and_keeps_no_secret(
    shown: Demonstration, learned: str, legacy: RunningLegacy
) -> None:
    recording = shown.recording
    assert [s.name for s in recording.steps] == [
        "login", "day", "book", "refused", "my_bookings", "cancel"
    ]  # fmt: skip
    assert learned == draft_profile(recording)
    assert not (shown.out / "legacy.parts.yaml").exists()
    made = [b for b in await _bookings(legacy) if b["purpose"] == LEGACY_PURPOSE]
    assert [b["status"] for b in made] == ["cancelled"]  # booked once, refused, cancelled

    # What the legacy site does its own way, read from the demonstration alone.
    drafted = yaml.safe_load(learned)
    assert drafted["login"]["password"][0] == {"role": "textbox", "name": "Password"}
    grid = drafted["availability"]["grid"]
    assert grid["rooms_in"] == "columns"
    # A free slot links to the form the operator opened; the room's id is read from that link.
    assert grid["slot"]["free"] == {"has": 'a[href*="/reserve?"]'}
    assert grid["room"]["id"] == {
        "of": "cells", "css": 'a[href*="/reserve?"]@href', "regex": "[?&]room=([^&#]+)"
    }  # fmt: skip
    assert drafted["book"]["open"]["url"] == (
        "/reserve?room={room_id|url}&t={start|seconds}&day={date|dmy}"
    )
    assert [f.get("select") for f in drafted["book"]["fields"]][1:3] == [
        "{start|seconds}",
        "{end|seconds}",
    ]
    assert drafted["book"]["outcome"]["refusals"] == [
        {"text": "Time slot is already booked", "error": "slot_taken"}
    ]
    mine = drafted["my_bookings"]
    assert mine["open"] == {"url": "/my?q="}  # the empty search lists every booking
    assert "room" not in mine  # read from each booking's own page
    assert drafted["cancel"]["confirm"] == "native"

    # No secret in anything the learner wrote.
    text = "\n".join(p.read_text(encoding="utf-8") for p in shown.out.iterdir())
    assert LEGACY_PASSWORD not in text
    assert shown.cookies and not [value for value in shown.cookies if value in text]
    tokens = {
        key: value
        for step in recording.steps
        for request in step.requests
        for key, value in request.form.items()
        if re.search("csrf|token", key, re.IGNORECASE)
    }
    assert tokens and set(tokens.values()) == {"***"}  # the forms' tokens, hidden


class TestLearnedLegacyContract(HiddenOutcomeContract):
    """The contract suite, unchanged, on the profile drafted from the demonstration."""

    @pytest_asyncio.fixture(loop_scope="session")
    async def site(
        self, learned: str, fresh_legacy: RunningLegacy, pool: BrowserPool
    ) -> LegacyHarness:
        harness = LegacyHarness(fresh_legacy, pool)
        loaded = parse_site_profile(learned, "learned.yaml")
        harness.system = ProfileSystem(fresh_legacy.url, loaded, retry=FAST)
        return harness
