"""What the user is offered for an unexpected page (issue 65, 4): the page's buttons and
links by kind and name, only real checkboxes ticked, read from real Chromium; and one
question per page and run."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from core.brain import (
    Brain,
    BrainDecided,
    BrainDecision,
    InMemoryBrainMemory,
    PageSnapshot,
    Situation,
    check_decision,
    user_choices,
)
from core.browser import BrowserPool
from core.browser.summary import summarize
from core.errors import ScenarioError
from core.pause import NeedsAnswer
from tests.core.brain.conftest import GO, NOTICE, TICK, Emitted, FakePage, make_ctx

# An MRBS-like notice: its header's «перейти» date and «Поиск» box, one real checkbox.
HEADER = """
<form action="/day" role="search">
  <input type="date" name="date" aria-label="перейти">
  <input type="search" name="q" placeholder="Поиск">
</form>"""
NOTICE_FORM = """
<h1>Правила изменились</h1>
<form action="/notice" method="post">
  CHECKBOX
  <button type="submit">Продолжить</button>
</form>
<a href="/help">Справка</a>"""
TICKBOX = '<input id="ack" type="checkbox"><label for="ack">Я ознакомлен(а)</label>'


@pytest.fixture
async def pool() -> AsyncIterator[BrowserPool]:
    async with BrowserPool(max_contexts=1) as opened:
        yield opened


async def read(pool: BrowserPool, html: str) -> PageSnapshot:
    async with pool.context() as context:
        page = await context.new_page()
        await page.set_content(html)
        summary = await summarize(page)
    return PageSnapshot.model_validate(summary.model_dump())


async def test_a_page_whose_fields_are_a_date_and_a_search_box_offers_no_tick(
    pool: BrowserPool,
) -> None:
    page = await read(pool, HEADER + NOTICE_FORM.replace("CHECKBOX", ""))
    assert page.fields == ["перейти", "Поиск"] and page.checkboxes == []

    choices = user_choices(page, "ru")

    assert [c.label for c in choices] == ["Нажать «Продолжить»", "Перейти: «Справка»", "Отменить"]
    assert not any(c.label.startswith("Отметить") for c in choices)
    assert [(t.role, t.name) for t in choices[0].clicks] == [("button", "Продолжить")]


async def test_only_the_real_checkbox_is_ticked_with_the_button(pool: BrowserPool) -> None:
    page = await read(pool, HEADER + NOTICE_FORM.replace("CHECKBOX", TICKBOX))
    assert page.checkboxes == ["Я ознакомлен(а)"]

    first = user_choices(page, "ru")[0]

    assert first.label == "Отметить «Я ознакомлен(а)» и нажать «Продолжить»"
    assert [(t.role, t.name) for t in first.clicks] == [
        ("checkbox", "Я ознакомлен(а)"),
        ("button", "Продолжить"),
    ]


def test_a_field_that_is_not_a_checkbox_cannot_be_ticked() -> None:
    page = NOTICE.model_copy(update={"fields": ["перейти", *NOTICE.fields]})
    situation = Situation(step="login", expected="«Мои брони»", problem="?", page=page)
    tick = BrainDecision(action="click", targets=[{"role": "checkbox", "name": "перейти"}])

    with pytest.raises(ValueError, match="no checkbox «перейти»"):
        check_decision(tick, situation)
    check_decision(BrainDecision(action="click", targets=[TICK, GO]), situation)


async def test_a_page_still_there_after_its_answer_stops_the_run_instead_of_asking_again(
    emitted: Emitted,
) -> None:
    brain, stuck = Brain(None, InMemoryBrainMemory()), FakePage(needs=(("button", "Нет такой"),))

    async def resolve(answers: dict[str, str]) -> None:
        await brain.resolve_page(
            make_ctx(emitted, answers=answers), step="login", expected="«Мои брони»",
            page=stuck.page, driver=stuck, probe=stuck.probe,
        )  # fmt: skip

    with pytest.raises(NeedsAnswer) as paused:
        await resolve({})
    question = paused.value.question
    assert question.key == "page1"

    with pytest.raises(ScenarioError, match="второй раз о ней я спрашивать не стану"):
        await resolve({"page1": question.options[0].id})  # ticked and pressed: still there

    assert stuck.done == [("checkbox", TICK["name"]), ("button", GO["name"])]  # once
    decided = [(e.source, e.action) for e in emitted.events if isinstance(e, BrainDecided)]
    assert decided == [("policy", "ask_user"), ("user", "click"), ("policy", "abort")]


async def test_another_page_after_an_answer_is_asked_about(emitted: Emitted) -> None:
    brain = Brain(None, InMemoryBrainMemory())
    other = NOTICE.model_copy(update={"heading": "Ещё одно правило", "buttons": ["Дальше"]})
    page = FakePage(needs=(("button", "Дальше"),))
    ctx = make_ctx(emitted)
    with pytest.raises(NeedsAnswer) as paused:
        await brain.resolve_page(ctx, step="login", expected="?", page=NOTICE, driver=page,
                                 probe=page.probe)  # fmt: skip
    page.page = other  # the answer gets past the notice, onto another unexpected page
    ctx = make_ctx(emitted, answers={"page1": paused.value.question.options[0].id})

    with pytest.raises(NeedsAnswer) as again:
        await brain.resolve_page(ctx, step="login", expected="?", page=NOTICE, driver=page,
                                 probe=page.probe)  # fmt: skip

    assert again.value.question.key == "page2"
    assert "Ещё одно правило" in again.value.question.text
