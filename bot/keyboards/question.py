"""A question's keyboard: one button per option, then «Другое…» (if free text is allowed)
and «Отмена»."""

from __future__ import annotations

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import AnswerCb, CancelCb, OtherCb
from core.output import Question
from core.texts import Bot, Common, tr

__all__ = ["INDEX_MARK", "answer_data", "question_keyboard"]


INDEX_MARK = "#"


def _fits(run_id: str, seq: int | None, opt: str) -> bool:
    size = len(f"{AnswerCb.__prefix__}:{run_id}:{'' if seq is None else seq}:{opt}".encode())
    return size <= MAX_CALLBACK_LENGTH


def answer_data(run_id: str, seq: int, option_id: str, index: int) -> str:
    """Callback data for an option: the option id itself when it fits in 64 bytes (with the
    question number, else without it); an id that cannot travel (a ``:`` in it, or too
    many bytes) is sent as ``#<index>`` and looked up in the stored question on a tap."""
    safe = ":" not in option_id and not option_id.startswith(INDEX_MARK)
    if safe and _fits(run_id, seq, option_id):
        return AnswerCb(run=run_id, seq=seq, opt=option_id).pack()
    if safe and _fits(run_id, None, option_id):
        return AnswerCb(run=run_id, seq=None, opt=option_id).pack()
    return AnswerCb(run=run_id, seq=seq, opt=f"{INDEX_MARK}{index}").pack()


def question_keyboard(question: Question) -> InlineKeyboardMarkup:
    lang = question.lang
    rows = [
        [
            InlineKeyboardButton(
                text=option.label,
                callback_data=answer_data(question.run_id, question.seq, option.id, index),
            )
        ]
        for index, option in enumerate(question.options)
    ]
    last = []
    if question.allow_free_text:
        other = OtherCb(run=question.run_id, seq=question.seq).pack()
        last.append(InlineKeyboardButton(text=tr(Bot.OTHER, lang), callback_data=other))
    last.append(
        InlineKeyboardButton(
            text=tr(Common.CANCEL, lang), callback_data=CancelCb(run=question.run_id).pack()
        )
    )
    rows.append(last)
    return InlineKeyboardMarkup(inline_keyboard=rows)
