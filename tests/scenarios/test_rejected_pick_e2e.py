"""Issue 65 (5): an LLM pick the step's own check rejected is never replayed — not in the
next session either, where the LLM response cache (an hour) used to give the same answer
back with no call and the element was pressed again.

The reference portal with its buttons reworded, booked through a copy of its profile in
real Chromium; the element picker is the product's (real Anthropic SDK over HTTP to the
fake vendor, with the response cache). The first session's model picks «Назад к
аудиториям» for the booking's button: the step fails. The second session opens a new
``ProfileSystem`` on the same file (as after a restart): the model is asked again, its
repeated wrong answer is refused, and the booking is made with «Отправить заявку»."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import BrowserContext, Request

from core.browser import BrowserPool
from tests.fakes.llm import Answer
from tests.support.drift import Drift, drift_llm, fresh_profile, run_drift, set_drift

pytestmark = pytest.mark.slow

LOGIN = Answer({"kind": "button", "name": "Вход"})
BACK = Answer({"kind": "link", "name": "Назад к аудиториям"})
SEND = Answer({"kind": "button", "name": "Отправить заявку"})
WRONG = "role=link name=«Назад к аудиториям»"


class RecordingPool(BrowserPool):
    """A pool that notes every page load («GET /rooms?…», «POST /book») of its contexts."""

    def __init__(self) -> None:
        super().__init__(max_contexts=2)
        self.loads: list[str] = []

    @asynccontextmanager
    async def context(self, **kwargs: Any) -> AsyncIterator[BrowserContext]:
        def note(request: Request) -> None:
            if request.resource_type == "document":
                self.loads.append(f"{request.method} {request.url.partition('//')[2]}")

        async with super().context(**kwargs) as context:
            context.on("request", note)
            yield context


@pytest.fixture
async def pool() -> AsyncIterator[BrowserPool]:
    async with RecordingPool() as opened:
        yield opened


def after_the_form(loads: list[str]) -> list[str]:
    """The page loaded next after each booking form."""
    return [loads[i + 1] for i, load in enumerate(loads[:-1]) if "/book?" in load]


async def test_a_rejected_pick_is_not_replayed_from_the_cache_in_the_next_session(
    portal_url: str, pool: RecordingPool, tmp_path: Path
) -> None:
    path = fresh_profile(tmp_path)
    first_drift = Drift("reworded", {"drift": ["reworded"]}, (LOGIN, BACK))
    # The same model next time: it says the same wrong thing first.
    second_drift = Drift("reworded", {"drift": ["reworded"]}, (BACK, SEND))
    await set_drift(portal_url, first_drift)
    async with drift_llm() as (vendor, picker):
        first = await run_drift(portal_url, pool, path, vendor, picker, first_drift)
        assert not first.done
        assert any("/rooms?" in load for load in after_the_form(pool.loads))  # it was pressed
        pool.loads.clear()

        second = await run_drift(portal_url, pool, path, vendor, picker, second_drift)

    assert second.done, second.error
    assert second.llm_calls >= 1  # asked afresh, not answered from the cache
    asked = vendor.bodies[-second.llm_calls]["messages"][0]["content"]
    assert f"Picked before and wrong (its step failed): {WRONG}" in asked
    assert all(load.startswith("POST") for load in after_the_form(pool.loads))  # not pressed
    kept = json.loads((tmp_path / "refportal.history" / "rejected.json").read_text("utf-8"))
    assert kept["book.submit"]["wrong"] == [WRONG]
