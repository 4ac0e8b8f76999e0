"""``core.acting``: which of a run's steps may have acted on the site already."""

from __future__ import annotations

from core.acting import MayHaveActed, RunActing
from core.store import ScenarioRun


def _run(acted: list[str] | None) -> ScenarioRun:
    return ScenarioRun(chat_id=1, user_id=1, scenario="book_rooms", acted=acted)


async def test_a_step_is_marked_and_saved_once_before_it_acts() -> None:
    run = _run([])
    saved: list[list[str] | None] = []

    async def save() -> None:
        saved.append(list(run.acted or []))

    acting = RunActing(run, save)
    assert not acting.may_have("book")
    assert await acting.begin("book") is False  # it had not: the look can be skipped
    assert saved == [["book"]]  # saved before begin returned
    assert acting.may_have("book")
    assert await acting.begin("book") is True  # again (a retry): it may have
    assert saved == [["book"]]
    assert not acting.may_have("cancel")


async def test_a_run_saved_before_the_mark_was_kept_may_have_acted_in_every_step() -> None:
    async def save() -> None:
        raise AssertionError("nothing to save")

    stored = ScenarioRun.model_validate({"chat_id": 1, "user_id": 1, "scenario": "book_rooms"})
    acting = RunActing(stored, save)
    assert acting.may_have("book")
    assert await acting.begin("book") is True
    assert await MayHaveActed().begin("book") is True
    assert MayHaveActed().may_have("anything")
