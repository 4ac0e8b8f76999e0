"""A question's keyboard: one button per option, then «Другое…» (if free text is allowed)
and «Отмена»."""

from __future__ import annotations

from aiogram.filters.callback_data import MAX_CALLBACK_LENGTH
from aiogram.types import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callbacks import AnswerCb, CancelCb, OtherCb
from bot.texts import t
from core.output import Question

__all__ = ["answer_data", "question_keyboard"]


def answer_data(run_id: str, seq: int, option_id: str) -> str:
    """Callback data for an option; drops the question number if it would exceed 64 bytes
    (long non-ASCII option ids), which only loses the stale-question check."""
    full = f"{AnswerCb.__prefix__}:{run_id}:{seq}:{option_id}"
    if len(full.encode()) <= MAX_CALLBACK_LENGTH:
        return AnswerCb(run=run_id, seq=seq, opt=option_id).pack()
    return AnswerCb(run=run_id, seq=None, opt=option_id).pack()


def question_keyboard(question: Question) -> InlineKeyboardMarkup:
    lang = question.lang
    rows = [
        [
            InlineKeyboardButton(
                text=option.label,
                callback_data=answer_data(question.run_id, question.seq, option.id),
            )
        ]
        for option in question.options
    ]
    last = []
    if question.allow_free_text:
        other = OtherCb(run=question.run_id, seq=question.seq).pack()
        last.append(InlineKeyboardButton(text=t("other", lang), callback_data=other))
    last.append(
        InlineKeyboardButton(
            text=t("cancel", lang), callback_data=CancelCb(run=question.run_id).pack()
        )
    )
    rows.append(last)
    return InlineKeyboardMarkup(inline_keyboard=rows)
