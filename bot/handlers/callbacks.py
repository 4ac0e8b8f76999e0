"""Buttons under a question: an option, «Другое…» or «Отмена».

The callback data carries the run id, question number and option id, so a tap works after
a restart; a tap on a closed question gets a short note and loses its stale keyboard.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING

from aiogram import Bot as AiogramBot
from aiogram import Router
from aiogram.exceptions import TelegramBadRequest
from aiogram.types import CallbackQuery, Message

from bot.callbacks import AnswerCb, CancelCb, OtherCb
from bot.chat_admin import is_chat_admin
from bot.keyboards.question import INDEX_MARK
from bot.render import chosen_text
from core.commands import Answer, Lang
from core.texts import Bot, Run, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["fallback_router", "router"]


async def _ack(query: CallbackQuery, note: str | None = None) -> None:
    with contextlib.suppress(TelegramBadRequest):  # "query is too old": nothing to stop
        await query.answer(note[:200] if note else None)


def _message(query: CallbackQuery) -> Message | None:
    return query.message if isinstance(query.message, Message) else None


async def _option_id(manager: ChatDispatcher, chat_id: int, data: AnswerCb) -> str:
    """The option id, looked up in the stored question when the button carried its index."""
    if not data.opt.startswith(INDEX_MARK):
        return data.opt
    question = await manager.pending_question(chat_id)
    digits = data.opt[len(INDEX_MARK) :]
    index = int(digits) if digits.isdigit() else -1
    if question is None or question.run_id != data.run or not 0 <= index < len(question.options):
        return data.opt  # unknown to the run: answered as stale
    option_id: str = question.options[index].id
    return option_id


async def on_option(
    query: CallbackQuery,
    callback_data: AnswerCb,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
    bot: AiogramBot,
) -> None:
    message = _message(query)
    chat_id = message.chat.id if message else query.from_user.id
    option_id = await _option_id(manager, chat_id, callback_data)
    answer = Answer(
        chat_id=chat_id,
        user_id=query.from_user.id,
        run_id=callback_data.run,
        seq=callback_data.seq,
        option_id=option_id,
    )
    outcome = await manager.answer(answer)
    if outcome.not_yours and message and await is_chat_admin(bot, message.chat, answer.user_id):
        outcome = await manager.answer(answer.model_copy(update={"admin": True}))
    await _ack(query, outcome.note)
    if message is None or outcome.not_yours:  # the question keeps its buttons for its owner
        return
    if outcome.accepted and outcome.label:
        sink.edit_text(
            chat_id, message.message_id, chosen_text(message.text or "", outcome.label, lang)
        )
    else:
        sink.remove_keyboard(chat_id, message.message_id)


async def on_other(
    query: CallbackQuery,
    callback_data: OtherCb,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
    bot: AiogramBot,
) -> None:
    message = _message(query)
    chat_id = message.chat.id if message else query.from_user.id
    user_id, run_id = query.from_user.id, callback_data.run
    if not await manager.control.may_act_on(
        chat_id=chat_id, user_id=user_id, run_id=run_id, admin=False
    ):
        # another member's question: «Другое…» changes nothing of it (they write, not us)
        await _ack(query, tr(Run.NOT_YOUR_QUESTION, lang))
        return
    runs = await manager.control.status(chat_id)
    open_ = any(run.run_id == callback_data.run and run.question for run in runs)
    await _ack(query, None if open_ else tr(Run.STALE_ANSWER, lang))
    if message is None:
        return
    if open_:
        sink.edit_text(
            chat_id,
            message.message_id,
            f"{message.text or ''}\n\n{tr(Bot.WRITE_ANSWER, lang)}".strip(),
        )
    else:
        sink.remove_keyboard(chat_id, message.message_id)


async def on_cancel(
    query: CallbackQuery,
    callback_data: CancelCb,
    manager: ChatDispatcher,
    sink: TelegramSink,
    lang: Lang,
    bot: AiogramBot,
) -> None:
    message = _message(query)
    chat_id = message.chat.id if message else query.from_user.id
    user_id, run_id = query.from_user.id, callback_data.run
    admin = message is not None and await is_chat_admin(bot, message.chat, user_id)
    if not await manager.control.may_act_on(
        chat_id=chat_id, user_id=user_id, run_id=run_id, admin=admin
    ):
        await _ack(query, tr(Run.NOT_YOURS, lang))  # the question stays for its owner
        return
    await _ack(query, tr(Bot.CANCELLING, lang))
    if message is not None:
        sink.remove_keyboard(chat_id, message.message_id)
    await manager.control.cancel(chat_id=chat_id, user_id=user_id, run_id=run_id, admin=admin)


async def on_unknown(query: CallbackQuery, lang: Lang) -> None:
    """A button no handler knows (an old keyboard, a payload from an older version): the
    client's spinner must stop, with a word why nothing happened."""
    await _ack(query, tr(Bot.UNKNOWN_BUTTON, lang))


def fallback_router() -> Router:
    """Tried last: every callback query is answered, whatever its data."""
    router = Router(name=f"{__name__}.fallback")
    router.callback_query.register(on_unknown)
    return router


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.callback_query.register(on_option, AnswerCb.filter())
    router.callback_query.register(on_other, OtherCb.filter())
    router.callback_query.register(on_cancel, CancelCb.filter())
    return router
