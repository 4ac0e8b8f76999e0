"""A club's managers in one group (issue 18): they see one another's requests in /status;
only the requester, or a group administrator, may cancel a request — by /cancel or by
the «Отмена» button under its question. Through the fake Telegram server (a supergroup,
getChatMember) to the real bot on the product's scenarios and real storage."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest

from bot.factory import BotApp
from core.clock import ManualClock
from core.store import RunStatus, ScenarioRun
from storage import Storage
from tests.bot.support import product_bot
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.memory_site import MemorySite

GROUP = -100_123
WAIT = 30.0
NOT_YOURS = "Это запрос другого участника"


@pytest.fixture
async def app(tg: FakeTelegram, storage: Storage, clock: ManualClock) -> AsyncIterator[BotApp]:
    async with product_bot(tg, storage, MemorySite(REFPORTAL_CATALOGUE), clock=clock) as running:
        yield running


def has(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


def members(tg: FakeTelegram) -> tuple[SimUser, SimUser, SimUser]:
    """Анна and Борис, members; Вера, the group's administrator."""
    return (
        tg.member(GROUP, 501, "Анна", language_code="ru"),
        tg.member(GROUP, 502, "Борис", language_code="ru"),
        tg.member(GROUP, 503, "Вера", admin=True, language_code="ru"),
    )


async def asked(user: SimUser, storage: Storage) -> tuple[StoredMessage, ScenarioRun]:
    """``user`` asks for a room in the main building: the date question and its run."""
    await user.send("забронируй аудиторию в главном")
    question = await user.wait_for_message(has("На какую дату?"), timeout=WAIT)
    (run,) = await storage.runs.active_for_chat(GROUP)
    return question, run


async def test_members_see_each_others_requests_and_cancel_only_their_own(
    app: BotApp, tg: FakeTelegram, storage: Storage
) -> None:
    anna, boris, vera = members(tg)
    question, run = await asked(anna, storage)
    assert run.user_id == anna.id

    await boris.send("/status")
    status = await boris.wait_for_message(has("Текущие задачи"), timeout=WAIT)
    assert f"Анна: Бронирование аудиторий [{run.short_id}]" in (status.text or "")

    # Another member can neither tap «Отмена» under Анна's question nor /cancel it.
    refused = await boris.wait_for_answer(await boris.tap("Отмена", message_id=question.message_id))
    assert NOT_YOURS in (refused.text or "")
    await boris.send("/cancel")
    await boris.wait_for_message(has(NOT_YOURS), timeout=WAIT)
    still = await storage.runs.get(run.short_id)
    assert still is not None and still.status is RunStatus.COLLECTING
    assert question.labels[-1] == "Отмена"  # the question keeps its buttons for Анна

    # The group's administrator can.
    await vera.send("/cancel")
    await vera.wait_for_message(has("Отменено: Бронирование аудиторий"), timeout=WAIT)
    gone = await storage.runs.get(run.short_id)
    assert gone is not None and gone.status is RunStatus.CANCELLED


async def test_the_requester_cancels_their_own_request_in_the_group(
    app: BotApp, tg: FakeTelegram, storage: Storage
) -> None:
    anna = tg.member(GROUP, 501, "Анна", language_code="ru")
    await anna.send("забронируй аудиторию в главном")
    question = await anna.wait_for_message(has("На какую дату?"), timeout=WAIT)
    answer = await anna.wait_for_answer(await anna.tap("Отмена", message_id=question.message_id))
    assert NOT_YOURS not in (answer.text or "")
    await anna.wait_for_message(has("Отменено: Бронирование аудиторий"), timeout=WAIT)
    assert await storage.runs.active_for_chat(GROUP) == []


async def test_only_the_requester_or_an_admin_answers_a_question(
    app: BotApp, tg: FakeTelegram, storage: Storage
) -> None:
    """Another member's tap, «Другое…» and typed text change nothing of Анна's question;
    it keeps its buttons; the group's administrator may tap an answer for her."""
    anna, boris, vera = members(tg)
    question, run = await asked(anna, storage)
    day = question.labels[0]

    tapped = await boris.wait_for_answer(await boris.tap(day, message_id=question.message_id))
    assert "Это вопрос к другому участнику" in (tapped.text or "")
    other = await boris.wait_for_answer(await boris.tap("Другое…", message_id=question.message_id))
    assert "Это вопрос к другому участнику" in (other.text or "")
    await boris.send("завтра")  # typed: no answer to Анна's question
    await boris.send("/status")  # in the same chat after it: it has been handled
    await boris.wait_for_message(has("Текущие задачи"), timeout=WAIT)
    still = await storage.runs.get(run.short_id)
    assert still is not None and "date" not in still.slots and still.question is not None
    mine = tg.state.find(GROUP, question.message_id)
    assert mine is not None and mine.labels == question.labels  # the buttons stay for Анна

    accepted = await vera.wait_for_answer(await vera.tap(day, message_id=question.message_id))
    assert "другому участнику" not in (accepted.text or "")
    await anna.wait_for_message(has("Во сколько"), timeout=WAIT)
    answered = await storage.runs.get(run.short_id)
    assert answered is not None and "date" in answered.slots
