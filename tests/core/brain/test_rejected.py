"""What a step rejected is never replayed (issue 65, 5): a pick whose step failed is kept
in the file its owner names, for the version of its place (``RejectedPicks``; a profile's
layout: ``tests/adapters/profile/test_history.py``), so that a later session asks
afresh; the picker and the page brain, with the product's response cache, ask again
instead of replaying it."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from core.brain import (
    Brain,
    ElementChoice,
    ElementPicker,
    ElementWanted,
    InMemoryBrainMemory,
    RejectedPicks,
)
from core.brain.rejected import MAX_PER_PLACE
from core.browser.harm import RequestBlocked
from core.errors import ScenarioError
from core.llm import LLMSettings, MemoryResponseCache, MemorySpendLedger, build_llm
from core.pause import NeedsAnswer
from core.site.models import PageSummary
from tests.core.brain.conftest import GO, NOTICE, TICK, Emitted, FakePage, make_ctx
from tests.fakes.llm import Answer, FakeAnthropic

WRONG = "role=link name=«Назад к аудиториям»"


def current(version: str) -> Callable[[str], str]:
    """Every place at ``version`` (the owner of the picks says what a version is)."""
    return lambda _place: version


def test_a_rejection_is_kept_for_the_next_session_in_the_file_it_was_handed(
    tmp_path: Path,
) -> None:
    file = tmp_path / "anywhere" / "picks.json"  # the adapter's layout, not core's
    RejectedPicks(file, version=current("v1")).keep("book.submit", WRONG)

    assert RejectedPicks(file, version=current("v1")).get("book.submit") == [WRONG]
    assert RejectedPicks(file, version=current("v2")).get("book.submit") is None
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == ["picks.json"]


def test_with_no_file_they_are_kept_for_the_session(tmp_path: Path) -> None:
    picks = RejectedPicks(None, version=current("v1"))
    picks.keep("book.submit", WRONG)
    assert picks["book.submit"] == [WRONG]
    assert RejectedPicks(None, version=current("v1")) == {}


def test_a_broken_file_is_no_rejections_and_a_long_list_is_capped(tmp_path: Path) -> None:
    kept = tmp_path / "rejected.json"
    kept.write_text("{not json", encoding="utf-8")
    picks = RejectedPicks(kept, version=current("v1"))
    assert picks == {}

    for n in range(MAX_PER_PLACE + 5):
        picks.keep("book.submit", f"role=link name=«{n}»")

    stored = RejectedPicks(kept, version=current("v1"))["book.submit"]
    assert len(stored) == MAX_PER_PLACE and stored[-1] == f"role=link name=«{MAX_PER_PLACE + 4}»"


async def test_the_picker_with_a_cache_asks_afresh_once_a_pick_was_rejected(
    tmp_path: Path,
) -> None:
    page = PageSummary(
        url="https://rooms.example/book", title="Бронирование",
        buttons=["Отправить заявку"], links=["Назад к аудиториям"],
    )  # fmt: skip
    wanted = ElementWanted(path="book.submit", what="кнопки брони",
                           tried="role=button name=«Забронировать»", kind="button")  # fmt: skip
    file = tmp_path / "rejected.json"

    async def nothing(_record: object) -> None:
        return None

    async with FakeAnthropic(api_key="sk-rejected") as vendor:
        settings = LLMSettings.model_validate(
            {"providers": "anthropic", "max_retries": 0,
             "anthropic": {"api_key": "sk-rejected", "base_url": vendor.base_url}}
        )  # fmt: skip
        llm = build_llm(
            settings, cache=MemoryResponseCache(), ledger=MemorySpendLedger(), on_call=nothing
        )
        assert llm is not None
        async with llm:
            picker = ElementPicker(llm)
            vendor.push(Answer({"kind": "link", "name": "Назад к аудиториям"}))
            assert (await picker.pick(wanted, page)) == ElementChoice(
                kind="link", name="Назад к аудиториям"
            )
            RejectedPicks(file, version=current("v1")).keep("book.submit", WRONG)  # it failed

            # The next session: what it kept is what it tells the picker.
            wrong = tuple(RejectedPicks(file, version=current("v1"))["book.submit"])
            vendor.push(Answer({"kind": "button", "name": "Отправить заявку"}))
            again = await picker.pick(wanted.model_copy(update={"wrong": wrong}), page)

    assert again == ElementChoice(kind="button", name="Отправить заявку")
    assert len(vendor.requests) == 2  # a new call, not the cached answer


class Blocking(FakePage):
    """A page whose link the guard stops (it posts somewhere undeclared)."""

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        await super().click(role, name, step=step)
        if role == "link":
            raise RequestBlocked("blocked", what=("POST http://portal.test/my/cleanup",))


@pytest.mark.parametrize(
    ("first", "stops"),
    [(FakePage(), NeedsAnswer), (Blocking(), ScenarioError)],
    ids=["probe-said-no", "guard-blocked"],
)
async def test_a_page_click_rejected_is_not_replayed_from_the_cache_next_run(
    emitted: Emitted, first: FakePage, stops: type[Exception]
) -> None:
    memory = InMemoryBrainMemory()  # the brain memory outlives runs (MongoDB in the app)
    rooms = {"role": "link", "name": "Аудитории"}

    async def nothing(_record: object) -> None:
        return None

    async with FakeAnthropic(api_key="sk-rejected") as vendor:
        settings = LLMSettings.model_validate(
            {"providers": "anthropic", "max_retries": 0,
             "anthropic": {"api_key": "sk-rejected", "base_url": vendor.base_url}}
        )  # fmt: skip
        llm = build_llm(
            settings, cache=MemoryResponseCache(), ledger=MemorySpendLedger(), on_call=nothing
        )
        assert llm is not None
        async with llm:
            vendor.push(Answer({"action": "click", "targets": [rooms]}))
            with pytest.raises(stops):  # the link did not get past the notice
                await Brain(llm, memory, max_rounds=1).resolve_page(
                    make_ctx(emitted), step="login", expected="«Мои брони»", page=NOTICE,
                    driver=first, probe=first.probe,
                )  # fmt: skip

            second = FakePage()  # the next run, the same page, the same model
            vendor.push(
                Answer({"action": "click", "targets": [rooms]}),
                Answer({"action": "click", "targets": [TICK, GO]}),
            )
            await Brain(llm, memory, max_rounds=1).resolve_page(
                make_ctx(emitted), step="login", expected="«Мои брони»", page=NOTICE,
                driver=second, probe=second.probe,
            )  # fmt: skip

    assert first.done == [("link", "Аудитории")]
    assert second.done == [("checkbox", TICK["name"]), ("button", GO["name"])]  # not the link
    asked = vendor.bodies[1]["messages"][0]["content"]
    assert "clicked before on this page without getting past it: link «Аудитории»" in asked
    assert len(vendor.requests) == 3  # asked afresh (and corrected once), not the cache
