"""A run as a timeline: its stored events and chat messages in order, each one line.

Pure: records in (``ScenarioRun``, its ``Event`` rows, the chat's messages around it),
a typed ``Timeline`` out, and a text renderer for ``clubman replay``. Events are read
back into their typed classes by ``kind``; a kind this version does not know still
shows, with its raw data, so an old journal never breaks a replay.

Order is the journal's: events and messages are both stamped by storage when written.
Durations come from the events (steps on the core's clock, LLM calls measured by the
LLM layer), so a replay shows what the run measured, not what the journal's stamps say.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from pydantic import BaseModel, ValidationError

from core.brain.events import BrainConsulted, BrainDecided, LLMCalled
from core.events import (
    AnswerReceived,
    AnswerRejected,
    BaseEvent,
    CommandReceived,
    ContextAcquired,
    NoScenario,
    PortalRetried,
    QuestionAsked,
    RunFinished,
    RunResumed,
    ScenarioChosen,
    SlotMissing,
    StepFailed,
    StepStarted,
    StepSucceeded,
)
from core.store.records import ConversationMessage, Direction, Event, ScenarioRun

__all__ = ["RunOverview", "Timeline", "TimelineEntry", "build_timeline", "render_timeline"]

# A run's command is stored a moment before the run (the planner decides in between).
_COMMAND_LOOKBACK = timedelta(minutes=5)

_KNOWN: tuple[type[BaseEvent], ...] = (
    CommandReceived, ScenarioChosen, NoScenario, SlotMissing, QuestionAsked, AnswerReceived,
    AnswerRejected, StepStarted, StepSucceeded, StepFailed, PortalRetried, ContextAcquired,
    RunResumed, RunFinished, LLMCalled, BrainConsulted, BrainDecided,
)  # fmt: skip


class RunOverview(BaseModel):
    """One line of ``clubman runs``; the head of a replay."""

    run_id: str
    chat_id: int
    user_id: int
    scenario: str
    status: str
    command: str
    created_at: datetime
    updated_at: datetime
    error: str | None = None
    summary: str | None = None

    @classmethod
    def of(cls, run: ScenarioRun) -> RunOverview:
        return cls(
            run_id=run.short_id, chat_id=run.chat_id, user_id=run.user_id,
            scenario=run.scenario, status=run.status.value, command=run.command_text,
            created_at=run.created_at, updated_at=run.updated_at, error=run.error,
            summary=run.summary,
        )  # fmt: skip


class TimelineEntry(BaseModel):
    at: datetime
    offset_ms: float  # since the timeline's first entry
    kind: str  # the event's kind, or "message.in" / "message.out"
    text: str
    duration_ms: float | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    cost_usd: float | None = None


class Timeline(BaseModel):
    run: RunOverview
    entries: list[TimelineEntry]
    llm_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    screenshot: str | None = None  # where the failed step's picture was written


def build_timeline(
    run: ScenarioRun, events: Sequence[Event], messages: Sequence[ConversationMessage]
) -> Timeline:
    """``events`` are the run's (``EventLog.for_run``); ``messages`` the chat's around it
    (``ConversationLog.between``), of which the run's own and its command are kept."""
    rows: list[tuple[datetime, int, TimelineEntry]] = []
    for n, message in enumerate(_own_messages(run, messages)):
        rows.append((message.at, n, _message_entry(message)))
    totals = Timeline(run=RunOverview.of(run), entries=[])
    for n, row in enumerate(events):
        event = _typed(row)
        entry = _event_entry(row, event)
        if isinstance(event, LLMCalled):
            totals.llm_calls += 1
            totals.input_tokens += event.input_tokens
            totals.output_tokens += event.output_tokens
            totals.cost_usd += event.cost_usd
        rows.append((row.at, len(messages) + n, entry))
    rows.sort(key=lambda r: (r[0], r[1]))
    entries = [entry for _, _, entry in rows]
    if entries:
        start = entries[0].at
        for entry in entries:
            entry.offset_ms = round((entry.at - start).total_seconds() * 1000, 1)
    totals.entries = entries
    totals.cost_usd = round(totals.cost_usd, 6)
    return totals


def _own_messages(
    run: ScenarioRun, messages: Sequence[ConversationMessage]
) -> list[ConversationMessage]:
    own = [m for m in messages if m.run_id == run.short_id]
    # The command that started the run is stored before the run exists, without its id:
    # the last such message with the run's text, not after the run was created.
    command = [
        m for m in messages
        if m.run_id is None and m.direction is Direction.IN and m.text == run.command_text
        and run.created_at - _COMMAND_LOOKBACK <= m.at <= run.created_at
    ]  # fmt: skip
    return command[-1:] + own


def _message_entry(message: ConversationMessage) -> TimelineEntry:
    arrow = "»" if message.direction is Direction.IN else "«"
    return TimelineEntry(
        at=message.at, offset_ms=0.0, kind=f"message.{message.direction.value}",
        text=f"{arrow} {_one_line(message.text)}",
    )  # fmt: skip


def _typed(row: Event) -> BaseEvent | None:
    for cls in _KNOWN:
        if cls.kind == row.kind:
            try:
                return cls.model_validate(row.data | {"chat_id": row.chat_id, "run_id": row.run_id})
            except ValidationError:
                return None  # an older shape: shown raw
    return None


def _event_entry(row: Event, event: BaseEvent | None) -> TimelineEntry:
    entry = TimelineEntry(at=row.at, offset_ms=0.0, kind=row.kind, text="")
    match event:
        case ScenarioChosen():
            entry.text = (
                f"{event.scenario} (intent {event.intent}, score {event.score:.2f}, {event.via})"
            )
        case NoScenario():
            entry.text = f"no scenario for intent {event.intent}"
        case SlotMissing():
            entry.text = f"slot {event.slot} missing"
        case QuestionAsked():
            options = " | ".join(event.options)
            entry.text = f"[{event.key}] {_one_line(event.text)}" + (
                f" [{options}]" if options else ""
            )
        case AnswerReceived():
            shown = (
                f"«{_one_line(event.label)}» " if event.label and event.label != event.value else ""
            )
            entry.text = f"[{event.key}] = {shown}{_one_line(event.value)} (by {event.via})"
        case AnswerRejected():
            entry.text = f"[{event.key}] rejected: {event.reason}"
        case StepStarted():
            entry.text = event.step
        case StepSucceeded():
            entry.text, entry.duration_ms = event.step, event.duration_ms
        case StepFailed():
            kind = f" [{event.error_kind}]" if event.error_kind else ""
            entry.text = f"{event.step}: {_one_line(event.error)}{kind}"
            if event.for_admins:
                entry.text += f" — {_one_line(event.for_admins)}"
            entry.duration_ms = event.duration_ms
        case PortalRetried():
            entry.text = f"{event.action}, attempt {event.attempt} failed: {event.reason}"
        case ContextAcquired():
            entry.text = "after waiting in the queue" if event.queued else "at once"
            entry.duration_ms = event.wait_ms
        case RunResumed():
            entry.text = f"at {event.next_step or 'the end'}"
        case RunFinished():
            entry.text = event.status + (f": {_one_line(event.summary)}" if event.summary else "")
        case LLMCalled():
            outcome = (
                "cached" if event.cached else "ok" if event.ok else f"failed ({event.error_kind})"
            )
            where = f"{event.provider}/{event.model} for {event.purpose}"
            entry.text = f"{where}, attempt {event.attempt}: {outcome}"
            _cost(entry, event.latency_ms, event.input_tokens, event.output_tokens, event.cost_usd)
        case BrainConsulted():
            outcome = "ok" if event.ok else f"failed: {_one_line(event.error or '')}"
            via = f" via {event.provider}/{event.model}" if event.provider else ""
            entry.text = f"at step {event.step}{via}: {outcome}"
            _cost(entry, event.latency_ms, event.input_tokens, event.output_tokens, event.cost_usd)
        case BrainDecided():
            detail = f": {_one_line(event.detail)}" if event.detail else ""
            resolved = "" if event.resolved is None else f" (page resolved: {event.resolved})"
            entry.text = f"{event.action} by {event.source} at step {event.step}{detail}{resolved}"
        case _:
            entry.text = _one_line(str(row.data))
    return entry


def _cost(
    entry: TimelineEntry, latency: float, tokens_in: int, tokens_out: int, cost: float
) -> None:
    entry.duration_ms = latency
    entry.input_tokens, entry.output_tokens, entry.cost_usd = tokens_in, tokens_out, cost


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def render_timeline(timeline: Timeline) -> str:
    """The text ``clubman replay`` prints: a head, one line per entry, the totals."""
    run = timeline.run
    lines = [
        f"run {run.run_id}: {run.scenario}, {run.status}",
        f"chat {run.chat_id}, user {run.user_id}, created {_stamp(run.created_at)}, "
        f"updated {_stamp(run.updated_at)}",
        f"command: {_one_line(run.command)}",
        "",
    ]
    width = max((len(e.kind) for e in timeline.entries), default=0)
    for entry in timeline.entries:
        line = f"{entry.offset_ms / 1000:>9.3f}s  {entry.kind:<{width}}  {entry.text}"
        lines.append(line + _figures(entry))
    lines.append("")
    lines.append(
        f"LLM calls: {timeline.llm_calls}, tokens: {timeline.input_tokens} in, "
        f"{timeline.output_tokens} out, cost: ${timeline.cost_usd:.6f}"
    )
    if run.error:
        lines.append(f"error: {_one_line(run.error)}")
    if timeline.screenshot:
        lines.append(f"screenshot: {timeline.screenshot}")
    return "\n".join(lines) + "\n"


def _figures(entry: TimelineEntry) -> str:
    parts = []
    if entry.duration_ms is not None:
        parts.append(f"{entry.duration_ms:.0f} ms")
    if entry.input_tokens is not None and (entry.input_tokens or entry.output_tokens):
        parts.append(f"{entry.input_tokens}+{entry.output_tokens} tokens")
    if entry.cost_usd:
        parts.append(f"${entry.cost_usd:.6f}")
    return f"  ({', '.join(parts)})" if parts else ""


def _stamp(moment: datetime) -> str:
    utc = moment.astimezone(UTC) if moment.tzinfo else moment
    return utc.strftime("%Y-%m-%d %H:%M:%S UTC")
