"""Issue 65 (4): the notice after login with no LLM configured, in real Chromium through the
whole core. The user is offered the page's buttons and links by kind and name (a form
field is never ticked as if it were a checkbox), one tap gets past the notice, and a page
that one tap does not get past stops the run plainly instead of asking again.

The reference notice (a checkbox and «Продолжить») is held to the letter by other tests,
so the browser here dresses it as the MRBS site where the loop was seen: its header's
«перейти» date field and «Поиск» box above the notice, both plain form fields."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from playwright.async_api import BrowserContext

from core.browser import BrowserPool
from core.commands import Answer
from core.events import BaseEvent
from core.llm import LLMSettings
from core.output import Done, Failed, Question
from tests.support.brain_core import CoreFactory, cmd, decided
from tests.support.portal import portal_bookings, set_quirks
from tests.support.sinks import CollectingSink

pytestmark = pytest.mark.slow

BOOK = "забронируй 301 в главном послезавтра с 12 до 13"
HEADER = """
<form action="/rooms" method="get" role="search">
  <input type="date" name="date" aria-label="перейти">
  <input type="search" name="q" placeholder="Поиск">
</form>"""
# Only on the notice: the header's fields put above it; with ``drop_tick`` the notice's
# own checkbox taken away too, so that «Продолжить» posts no acknowledgement and the
# portal shows the notice again (with its error).
DRESS = """
document.addEventListener("DOMContentLoaded", () => {
  if (location.pathname !== "/notice") return;
  const main = document.querySelector("main");
  main.insertAdjacentHTML("afterbegin", HEADER);
  if (DROP) document.querySelector("input[type=checkbox]")?.closest("p")?.remove();
});
"""


class DressedPool(BrowserPool):
    """A pool whose every page runs ``script`` first (the notice dressed as above)."""

    def __init__(self, script: str) -> None:
        super().__init__(max_contexts=3)
        self._script = script

    @asynccontextmanager
    async def context(self, **kwargs: Any) -> AsyncIterator[BrowserContext]:
        async with super().context(**kwargs) as context:
            await context.add_init_script(self._script)
            yield context


def dressed(*, drop_tick: bool) -> str:
    header = " ".join(HEADER.split())
    return DRESS.replace("HEADER", f"`{header}`").replace("DROP", str(drop_tick).lower())


@pytest.fixture
async def pool(request: pytest.FixtureRequest) -> AsyncIterator[BrowserPool]:
    async with DressedPool(dressed(drop_tick=getattr(request, "param", False))) as opened:
        yield opened


def tap(question: Question, option_id: str) -> Answer:
    return Answer(
        chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, option_id=option_id
    )


def questions(sink: CollectingSink) -> list[Question]:
    return [o for o in sink.outputs if isinstance(o, Question)]


async def test_the_notice_with_no_llm_is_passed_by_tapping_continue_once(
    make_core: CoreFactory, sink: CollectingSink, portal_url: str, events: list[BaseEvent]
) -> None:
    async with make_core(LLMSettings()) as core:
        await set_quirks(portal_url, notice=True)
        await core.handle(cmd(BOOK))
        question = await sink.wait_for(Question, timeout=60)
        labels = [o.label for o in question.options]
        assert labels == [
            "Отметить «Я ознакомлен(а) с правилами» и нажать «Продолжить»",
            "Перейти: «Аудитории»",
            "Отменить",
        ]
        assert not any("перейти" in label or "Поиск" in label for label in labels)
        outcome = await core.answer(tap(question, question.options[0].id))
        assert outcome.accepted
        done = await sink.wait_for(Done, timeout=60)

    assert "301" in done.text
    assert len(questions(sink)) == 1  # tapped once, asked once
    assert decided(events) == [("policy", "ask_user", None), ("user", "click", True)]
    booked = await portal_bookings(portal_url, user="club")
    assert [str(b["room_number"]) for b in booked] == ["301"]


@pytest.mark.parametrize("pool", [True], indirect=True)
async def test_a_page_one_tap_does_not_get_past_stops_the_run_instead_of_asking_again(
    make_core: CoreFactory, sink: CollectingSink, portal_url: str, events: list[BaseEvent]
) -> None:
    async with make_core(LLMSettings()) as core:
        await set_quirks(portal_url, notice=True)
        await core.handle(cmd(BOOK))
        question = await sink.wait_for(Question, timeout=60)
        go = next(o for o in question.options if "Продолжить" in o.label)
        assert go.label == "Нажать «Продолжить»"  # no checkbox left to tick
        assert (await core.answer(tap(question, go.id))).accepted
        failed = await sink.wait_for(Failed, timeout=60)

    assert len(questions(sink)) == 1  # not asked again about the same page
    assert "Правила бронирования изменились" in failed.text
    assert decided(events)[-1] == ("policy", "abort", None)
    assert await portal_bookings(portal_url, user="club") == []
