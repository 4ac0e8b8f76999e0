"""``core.timeline``: records of one run in, the replay's text out, pinned by a golden
file (times fixed here, so nothing needs normalising)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from core.brain import BrainConsulted, BrainDecided, LLMCalled
from core.events import (
    AnswerReceived,
    BaseEvent,
    ContextAcquired,
    PortalRetried,
    QuestionAsked,
    RunFinished,
    ScenarioChosen,
    StepFailed,
    StepStarted,
    StepSucceeded,
)
from core.store import ConversationMessage, Direction, Event, RunStatus, ScenarioRun
from core.timeline import build_timeline, render_timeline

GOLDEN = Path(__file__).parent / "golden" / "replay.txt"
T0 = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
RUN = "Rn0000001"
COMMAND = "забронируй 301 в главном послезавтра с 12 до 13"


def at(ms: int) -> datetime:
    return T0 + timedelta(milliseconds=ms)


def row(ms: int, event: BaseEvent) -> Event:
    return Event(kind=event.kind, chat_id=100, run_id=RUN, at=at(ms), data=event.data())


def said(
    ms: int, direction: Direction, text: str, *, run_id: str | None = RUN
) -> ConversationMessage:
    return ConversationMessage(
        chat_id=100, direction=direction, text=text, run_id=run_id, at=at(ms)
    )


def a_failed_run() -> tuple[ScenarioRun, list[Event], list[ConversationMessage]]:
    run = ScenarioRun(
        short_id=RUN, chat_id=100, user_id=100, scenario="booking", command_text=COMMAND,
        status=RunStatus.FAILED, created_at=at(40), updated_at=at(9800),
        error="Портал бронирования не отвечает (вход): HTTP 500 at /login",
    )  # fmt: skip
    question = "Страница «Правила бронирования изменились». Что сделать?"
    options = ["Отметить и продолжить", "Отменить"]
    events = [
        row(30, ScenarioChosen(scenario="booking", intent="book", score=0.9)),
        row(60, StepStarted(step="login")),
        row(75, ContextAcquired(wait_ms=12.5, queued=False)),
        row(900, LLMCalled(provider="anthropic", model="claude-haiku-4-5", purpose="brain",
                           input_tokens=1200, output_tokens=80, cost_usd=0.0016,
                           latency_ms=812.4, ok=True)),
        row(905, BrainConsulted(step="login", signature="s1", ok=True, provider="anthropic",
                                model="claude-haiku-4-5", input_tokens=1200, output_tokens=80,
                                cost_usd=0.0016, latency_ms=812.4)),
        row(910, BrainDecided(step="login", action="ask_user", source="llm",
                              detail="Что сделать с уведомлением?")),
        row(950, QuestionAsked(key="page1", text=question, options=options)),
        row(5000, AnswerReceived(key="page1", value="pg1", via="button",
                                      label="Отметить и продолжить")),
        row(5010, StepStarted(step="login")),
        row(5020, ContextAcquired(wait_ms=1500.0, queued=True)),
        row(6600, PortalRetried(action="вход", attempt=1, reason="HTTP 500 at /login")),
        row(7200, PortalRetried(action="вход", attempt=2, reason="HTTP 500 at /login")),
        row(9700, StepFailed(step="login", error=run.error or "", error_kind="PortalUnavailable",
                             duration_ms=4690.0)),
        row(9800, RunFinished(status="failed", scenario="booking")),
        Event(kind="something.new", chat_id=100, run_id=RUN, at=at(9900), data={"x": 1}),
    ]  # fmt: skip
    messages = [
        said(0, Direction.IN, "привет", run_id=None),  # another command: not this run's
        said(10, Direction.IN, COMMAND, run_id=None),
        said(960, Direction.OUT, question),
        said(9850, Direction.OUT, "Не получилось: портал не отвечает."),
        said(9990, Direction.OUT, "Другой запуск", run_id="other"),
    ]
    return run, events, messages


def test_replay_of_a_run_with_a_brain_a_question_and_portal_500s_matches_the_golden_file() -> None:
    run, events, messages = a_failed_run()
    timeline = build_timeline(run, events, messages)
    timeline.screenshot = "/data/screenshots/run-Rn0000001.png"
    assert render_timeline(timeline) == GOLDEN.read_text(encoding="utf-8")


def test_totals_count_llm_calls_not_brain_consultations_twice() -> None:
    timeline = build_timeline(*a_failed_run())
    assert (timeline.llm_calls, timeline.input_tokens, timeline.output_tokens) == (1, 1200, 80)
    assert timeline.cost_usd == 0.0016
    kinds = [e.kind for e in timeline.entries]
    assert kinds[:3] == ["message.in", "scenario.chosen", "step.started"]
    assert "portal.retried" in kinds and kinds[-1] == "something.new"


def test_a_step_that_succeeded_shows_its_duration() -> None:
    run, _, _ = a_failed_run()
    done = row(100, StepSucceeded(step="read", result={}, duration_ms=321.0))
    (entry,) = build_timeline(run, [done], []).entries
    assert (entry.kind, entry.text, entry.duration_ms) == ("step.succeeded", "read", 321.0)


def test_an_event_of_an_older_shape_is_shown_raw() -> None:
    run, _, _ = a_failed_run()
    old = Event(kind="step.failed", run_id=RUN, at=T0, data={"step": "login"})  # no error
    (entry,) = build_timeline(run, [old], []).entries
    assert entry.text == "{'step': 'login'}"
