"""Core output → Telegram text and keyboards. Pure functions, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from aiogram.types import InlineKeyboardMarkup

from bot.keyboards.question import question_keyboard
from core.commands import Lang
from core.output import Progress, Question, RunView, StepState, StepView
from core.texts import Bot, tr

__all__ = [
    "MAX_CAPTION",
    "MAX_TEXT",
    "Rendered",
    "chosen_text",
    "error_text",
    "progress_text",
    "render_question",
    "split_text",
    "status_text",
]

MAX_TEXT = 4096
MAX_CAPTION = 1024

_MARKS = {
    StepState.DONE: "✓",
    StepState.RUNNING: "⏳",
    StepState.FAILED: "✗",
    StepState.PENDING: "◦",
}


@dataclass(frozen=True, slots=True)
class Rendered:
    text: str
    keyboard: InlineKeyboardMarkup | None = None


def _cut(text: str, limit: int) -> int:
    """Where to end the first piece: the last paragraph, line or word break that fits."""
    for sep in ("\n\n", "\n", " "):
        at = text.rfind(sep, 0, limit + 1)
        if at > 0:
            return at
    return limit


def split_text(text: str, limit: int = MAX_TEXT) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters, on paragraph, then line,
    then word boundaries; a single overlong word is cut hard."""
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        at = _cut(rest, limit)
        head = rest[:at].rstrip()
        if head:
            pieces.append(head)
        rest = rest[at:].lstrip("\n ")
    if rest.strip() or not pieces:
        pieces.append(rest)
    return pieces


def render_question(question: Question) -> Rendered:
    return Rendered(text=question.text, keyboard=question_keyboard(question))


def chosen_text(question_text: str, label: str, lang: Lang) -> str:
    return tr(Bot.CHOSEN, lang, question=question_text, label=label)


def _steps(steps: Sequence[StepView]) -> list[str]:
    return [f"{_MARKS[step.state]} {step.label}" for step in steps]


def progress_text(progress: Progress) -> str:
    title = progress.title
    if progress.queued:
        title = f"{title} — {tr(Bot.QUEUED, progress.lang)}"
    return "\n".join([title, *_steps(progress.steps)])


def status_text(runs: Sequence[RunView], lang: Lang) -> str:
    if not runs:
        return tr(Bot.STATUS_EMPTY, lang)
    blocks = [tr(Bot.STATUS_HEADER, lang)]
    for run in runs:
        who = f"{run.requester}: " if run.requester else ""
        lines = [f"{who}{run.title} [{run.run_id}]", *_steps(run.steps)]
        if run.question:
            lines.append(tr(Bot.STATUS_WAITING, lang, question=run.question))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def error_text(message: str, hint: str | None, lang: Lang) -> str:
    message = message.rstrip(". ")
    if hint:
        return tr(
            Bot.ERROR,
            lang,
            message=message[:1].upper() + message[1:],
            hint=hint[:1].upper() + hint[1:],
        )
    return tr(Bot.ERROR_NO_HINT, lang, message=message[:1].upper() + message[1:])
