"""The manager end to end on real storage: routing, slot collection, pause/resume,
restarts, ordering, cancellation, expiry and the events written for each."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.events import BaseEvent, CommandReceived, EventBus
from core.output import Done, Progress, Question, Reply
from core.store import RunStatus
from scenarios.help import DeclineScenario, HelpScenario, UnknownScenario
from storage import EventDocument, Storage
from tests.core.conftest import CoreFactory
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink


def cmd(text: str, chat: int = 100) -> Command:
    return Command(chat_id=chat, user_id=chat, text=text)


async def kinds_of(storage: Storage, run_id: str) -> list[str]:
    return [e.kind for e in await storage.events.for_run(run_id)]


async def test_help_is_answered_in_the_commands_language(
    core: ChatDispatcher, sink: CollectingSink
) -> None:
    await core.handle(cmd("что умеешь"))
    await core.handle(cmd("help"))
    replies = sink.of_kind(Reply)
    assert "Я бронирую аудитории" in replies[0].text
    assert "I book rooms" in replies[1].text


async def test_unknown_suggests_closest_commands(
    core: ChatDispatcher, sink: CollectingSink
) -> None:
    await core.handle(cmd("какая сегодня погода"))
    reply = sink.outputs[-1]
    assert isinstance(reply, Reply)
    assert "не понял" in reply.text and "•" in reply.text and "/help" in reply.text


async def test_an_intent_read_but_not_served_says_not_configured(
    make_core: CoreFactory, sink: CollectingSink
) -> None:
    # the booking job's words read a recurring booking; no schedule scenario is registered
    async with make_core(TrackedScenario(), HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("бронируй каждый четверг с 18 до 20"))
    reply = sink.outputs[-1]
    assert isinstance(reply, Reply) and "не подключён" in reply.text
    assert "schedule_booking" in reply.text


async def test_help_is_understood_without_any_job(
    make_core: CoreFactory, sink: CollectingSink
) -> None:
    # help is the engine's: asked in words, it is answered where no job is registered
    async with make_core(HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("что ты умеешь?"))
        await manager.handle(cmd("помощь"))
    asked, plain = (o for o in sink.outputs if isinstance(o, Reply))
    assert "Команды:" in asked.text and asked.text == plain.text


async def test_words_of_a_job_not_registered_are_not_understood(
    make_core: CoreFactory, sink: CollectingSink
) -> None:
    async with make_core(HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
    reply = sink.outputs[-1]
    assert isinstance(reply, Reply) and "не понял" in reply.text


async def test_full_command_runs_every_step_and_reports(
    core: ChatDispatcher, sink: CollectingSink, tracked: TrackedScenario, storage: Storage
) -> None:
    await core.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
    done = await sink.wait_for(Done)
    done_id = done.run_id
    assert done_id is not None
    assert done.text == "Готово: 2026-11-24 10:00–12:00"
    assert tracked.executed == ["prepare", "confirm?", "finish"]
    run = await storage.runs.get(done_id)
    assert run is not None and run.status is RunStatus.DONE
    assert [s.name for s in run.steps] == ["prepare", "confirm", "finish"]
    kinds = await kinds_of(storage, done_id)
    assert kinds.count("step.started") == 3 and kinds.count("step.succeeded") == 3
    assert kinds[-1] == "run.finished"
    progress = sink.of_kind(Progress)
    assert progress and all(s.state == "done" for s in progress[-1].steps)


async def test_missing_slots_are_asked_one_by_one_and_bad_answers_reasked(
    core: ChatDispatcher, sink: CollectingSink, storage: Storage
) -> None:
    await core.handle(cmd("забронируй аудиторию"))
    first = sink.outputs[-1]
    assert isinstance(first, Question) and first.key == "date"
    await core.handle(cmd("в четверг"))
    assert isinstance(sink.outputs[-1], Question) and sink.outputs[-1].key == "start"
    await core.handle(cmd("когда-нибудь"))
    again = sink.outputs[-1]
    assert isinstance(again, Question) and again.key == "start"
    assert again.text != first.text and again.seq > first.seq
    await core.handle(cmd("18"))
    await core.handle(cmd("17"))  # end before start: asked again with the reason
    reasked = sink.outputs[-1]
    assert isinstance(reasked, Question) and reasked.key == "end"
    assert "Конец раньше начала" in reasked.text
    await core.handle(cmd("20:00"))
    done = await sink.wait_for(Done)
    done_id = done.run_id
    assert done_id is not None
    assert done.text == "Готово: 2026-11-26 18:00–20:00"
    kinds = await kinds_of(storage, done_id)
    assert kinds.count("slot.missing") == 5
    assert kinds.count("answer.rejected") == 1
    assert kinds.count("answer.received") == 4


async def test_step_question_pauses_and_a_tap_resumes(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    scenario = TrackedScenario(confirm=True)
    async with make_core(scenario, HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
        question = await sink.wait_for(Question)
        assert isinstance(question, Question) and [o.label for o in question.options] == [
            "Да",
            "Нет",
        ]
        run = await storage.runs.get(question.run_id)
        assert run is not None and run.status is RunStatus.WAITING
        outcome = await manager.answer(
            Answer(
                chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, option_id="yes"
            )
        )
        assert outcome.accepted and outcome.label == "Да"
        await sink.wait_for(Done)
    assert scenario.executed == ["prepare", "confirm?", "confirm?", "finish"]


async def test_stale_taps_are_refused_politely(
    make_core: CoreFactory, sink: CollectingSink
) -> None:
    scenario = TrackedScenario(confirm=True)
    async with make_core(scenario, HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
        question = await sink.wait_for(Question)
        tap = Answer(
            chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, option_id="yes"
        )
        assert (await manager.answer(tap)).accepted
        await sink.wait_for(Done)
        late = await manager.answer(tap)
        assert not late.accepted and late.note == "Этот вопрос уже закрыт."
        unknown = await manager.answer(tap.model_copy(update={"run_id": "nope"}))
        assert not unknown.accepted


async def test_restart_while_waiting_keeps_the_question_answerable(
    make_core: CoreFactory, sink: CollectingSink
) -> None:
    first = TrackedScenario(confirm=True)
    async with make_core(first, HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
        question = await sink.wait_for(Question)
    second = TrackedScenario(confirm=True)
    async with make_core(second, HelpScenario(), UnknownScenario()) as manager:
        outcome = await manager.answer(
            Answer(
                chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, option_id="yes"
            )
        )
        assert outcome.accepted
        await sink.wait_for(Done)
    assert first.executed == ["prepare", "confirm?"]
    assert second.executed == ["confirm?", "finish"]  # prepare is not repeated


async def test_restart_while_running_resumes_after_the_last_done_step(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    first = TrackedScenario()
    first.block_at = "finish"
    async with make_core(first, HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
        await asyncio.wait_for(first.blocked.wait(), 10)
    # The process "died" in the middle of the last step.
    runs = await storage.runs.with_status(RunStatus.RUNNING)
    assert len(runs) == 1 and [s.name for s in runs[0].steps] == ["prepare", "confirm"]
    second = TrackedScenario()
    async with make_core(second, HelpScenario(), UnknownScenario()):
        done = await sink.wait_for(Done)
        done_id = done.run_id
        assert done_id is not None
    assert first.executed == ["prepare", "confirm?", "finish"]
    assert second.executed == ["finish"]
    assert "run.resumed" in await kinds_of(storage, done_id)


async def test_messages_of_one_chat_are_handled_in_order(
    core: ChatDispatcher, sink: CollectingSink, storage: Storage
) -> None:
    texts = [f"help {n}" for n in range(20)]
    await asyncio.gather(*(core.handle(cmd(text)) for text in texts))
    history = await storage.conversations.history(100, limit=100)
    incoming = [m.text for m in history if m.direction == "in"]
    assert incoming == texts
    assert len(sink.of_kind(Reply)) == 20


async def test_cancel_stops_a_waiting_run(
    core: ChatDispatcher, sink: CollectingSink, storage: Storage
) -> None:
    await core.handle(cmd("забронируй аудиторию"))
    question = sink.outputs[-1]
    assert isinstance(question, Question)
    await core.control.cancel(chat_id=100, user_id=100)
    reply = sink.outputs[-1]
    assert isinstance(reply, Reply) and reply.text.startswith("Отменено")
    run = await storage.runs.get(question.run_id)
    assert run is not None and run.status is RunStatus.CANCELLED
    await core.control.cancel(chat_id=100, user_id=100)
    assert sink.last(Reply).text == "Сейчас нечего отменять."
    await core.handle(cmd("помощь"))  # the chat is free again
    assert "Я бронирую" in sink.last(Reply).text


async def test_cancel_stops_a_running_run(
    core: ChatDispatcher, sink: CollectingSink, tracked: TrackedScenario, storage: Storage
) -> None:
    tracked.block_at = "prepare"
    await core.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
    await asyncio.wait_for(tracked.blocked.wait(), 10)
    status = await core.control.status(100)
    assert [v.status for v in status] == ["running"]
    await core.control.cancel(chat_id=100, user_id=100)
    assert await core.control.status(100) == []
    assert tracked.executed == ["prepare"]
    assert not await storage.runs.with_status(RunStatus.RUNNING)


async def test_unanswered_question_expires_with_a_message(
    core: ChatDispatcher, sink: CollectingSink, clock: ManualClock, storage: Storage
) -> None:
    await core.handle(cmd("забронируй аудиторию"))
    question = sink.outputs[-1]
    assert isinstance(question, Question)
    assert await core.control.expire_due() == 0
    clock.advance(timedelta(days=1, seconds=1))
    assert await core.control.expire_due() == 1
    reply = sink.outputs[-1]
    assert isinstance(reply, Reply) and "осталс" in reply.text
    run = await storage.runs.get(question.run_id)
    assert run is not None and run.status is RunStatus.EXPIRED
    assert "run.finished" in await kinds_of(storage, question.run_id)


async def test_a_clear_new_command_while_a_question_waits_is_a_new_command(
    core: ChatDispatcher, sink: CollectingSink
) -> None:
    await core.handle(cmd("забронируй аудиторию"))
    await core.handle(cmd("помощь"))
    assert "Я бронирую" in sink.last(Reply).text
    assert [v.status for v in await core.control.status(100)] == ["collecting"]


async def test_conversation_is_stored_both_ways(core: ChatDispatcher, storage: Storage) -> None:
    await core.handle(cmd("help"))
    history = await storage.conversations.history(100)
    assert [m.direction for m in history] == ["in", "out"]


async def test_a_command_is_stored_once_and_its_decision_as_an_event(
    core: ChatDispatcher, storage: Storage
) -> None:
    await core.handle(cmd("help", chat=101))
    await storage.events.flush()
    # The conversation row records the command; the event store adds what was decided.
    assert [m.text for m in await storage.conversations.history(101)][0] == "help"
    stored = await EventDocument.find(EventDocument.chat_id == 101).to_list()
    assert [e.kind for e in stored] == ["scenario.chosen"]
    assert stored[0].data["scenario"] == "help"


async def test_answer_while_the_paused_task_still_winds_down_is_not_lost(
    make_core: CoreFactory, sink: CollectingSink
) -> None:
    """Regression: a tap arriving while the paused step was still closing its browser
    context was dropped, and the run never resumed."""
    scenario = TrackedScenario(confirm=True)
    scenario.release_delay = 0.5
    async with make_core(scenario, HelpScenario(), UnknownScenario()) as manager:
        await manager.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
        question = await sink.wait_for(Question)
        outcome = await manager.answer(
            Answer(
                chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq, option_id="yes"
            )
        )
        assert outcome.accepted
        await sink.wait_for(Done)
    assert scenario.executed == ["prepare", "confirm?", "confirm?", "finish"]


async def test_a_run_started_without_a_command_asks_what_is_missing(
    core: ChatDispatcher, sink: CollectingSink, storage: Storage
) -> None:
    run_id = await core.control.start_scenario(
        chat_id=100,
        user_id=100,
        scenario="book_rooms",
        slots={"date": "2026-11-26", "start": "18:00"},
        lang="ru",
        schedule_id="s1",
        note="Регулярная бронь на чт 26.11",
    )
    assert sink.outputs[0].text == "Регулярная бронь на чт 26.11"  # type: ignore[union-attr]
    question = sink.last(Question)
    assert question.run_id == run_id and question.key == "end"
    run = await storage.runs.get(run_id)
    assert run is not None and run.schedule_id == "s1"
    await core.handle(cmd("20:00"))
    done = await sink.wait_for(Done)
    assert done.text == "Готово: 2026-11-26 18:00–20:00"


async def test_unstored_events_still_reach_subscribers(storage: Storage) -> None:
    bus = EventBus(storage.events)
    seen: list[BaseEvent] = []

    async def subscriber(event: BaseEvent) -> None:
        seen.append(event)

    bus.subscribe(subscriber)
    await bus.publish(CommandReceived(chat_id=102, user_id=102, text="привет"))
    await storage.events.flush()
    assert [e.kind for e in seen] == ["command.received"]
    assert await EventDocument.find(EventDocument.chat_id == 102).to_list() == []


async def test_a_refusal_drops_ones_own_waiting_request_and_books_nothing(
    make_core: CoreFactory, sink: CollectingSink, storage: Storage
) -> None:
    """«не надо ничего бронировать» while one's booking waits for a «Да»: the request is
    cancelled, never confirmed; a refusal with details («не надо, в главном») stays an
    answer."""
    scenario = TrackedScenario(confirm=True)
    async with make_core(scenario, DeclineScenario(), HelpScenario(), UnknownScenario()) as core:
        await core.handle(cmd("забронируй аудиторию завтра с 10 до 12"))
        question = await sink.wait_for(Question)
        mark = len(sink.outputs)
        await core.handle(cmd("не надо ничего бронировать"))
        ended = await sink.wait_for(Reply, after=mark)
        assert ended.text.startswith("Отменено")
        run = await storage.runs.get(question.run_id)
        assert run is not None and run.status is RunStatus.CANCELLED
        mark = len(sink.outputs)
        await core.handle(cmd("не бронируй ничего"))  # nothing waits now: said, not done
        said = await sink.wait_for(Reply, after=mark)
        assert said.text == "Хорошо, ничего не бронирую и ничего не меняю."
    assert "finish" not in scenario.executed
