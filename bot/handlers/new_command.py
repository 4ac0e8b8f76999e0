"""A text for the core, and «Начать новое?» when it reads as a new complete command while
a question waits: «Да, новое» cancels the waiting run and starts the new command, «Нет»
asks the waiting question again.

The held-back text waits in the dispatcher's FSM storage (Redis, ``bot.dialogues``, as the
/login dialogue's does): «Да» after a restart still starts it. Once the storage has
forgotten it (as long after as a question may wait), «Да» is answered as a closed question.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from aiogram import Bot as TelegramBot
from aiogram import Router
from aiogram.fsm.context import FSMContext
from aiogram.types import CallbackQuery, Message
from pydantic import BaseModel

from bot.callbacks import NewCommandCb
from bot.handlers.common import to_command
from bot.keyboards.new_command import new_command_keyboard
from bot.render import chosen_text
from core.commands import Command, Lang
from core.texts import Bot, Run, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.dispatcher import ChatDispatcher

__all__ = ["PendingCommand", "router", "submit"]

_KEY = "new_command"  # the FSM data key; other dialogues keep their own keys


class PendingCommand(BaseModel):
    """The text held back while the user says whether it is a new command."""

    run: str
    text: str


async def submit(
    message: Message,
    manager: ChatDispatcher,
    state: FSMContext,
    sink: TelegramSink,
    lang: Lang,
    bot: TelegramBot,
) -> None:
    """Hand the message to the core; ask back when it says the text may be a new command."""
    pending = await manager.handle(await to_command(message, lang, bot), confirm_new=True)
    if pending is None:
        return
    held = PendingCommand(run=pending.run_id, text=message.text or message.caption or "")
    await state.update_data({_KEY: held.model_dump()})
    body = tr(Bot.NEW_COMMAND, pending.lang, question=pending.question)
    sink.send_text(
        message.chat.id, body, keyboard=new_command_keyboard(pending.run_id, pending.lang)
    )


async def _held(state: FSMContext, run_id: str) -> PendingCommand | None:
    """The held-back text for ``run_id`` (taken out of the storage), if any."""
    data = await state.get_data()
    raw = data.pop(_KEY, None)
    await state.set_data(data)
    held = PendingCommand.model_validate(raw) if raw is not None else None
    return held if held is not None and held.run == run_id else None


async def on_choice(
    query: CallbackQuery,
    callback_data: NewCommandCb,
    manager: ChatDispatcher,
    state: FSMContext,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    message = query.message if isinstance(query.message, Message) else None
    chat_id = message.chat.id if message else query.from_user.id
    held = await _held(state, callback_data.run)
    question = await manager.pending_question(chat_id)
    waiting = question is not None and question.run_id == callback_data.run
    if held is None or not waiting:
        await query.answer(tr(Run.STALE_ANSWER, lang))
        if message is not None:
            sink.remove_keyboard(chat_id, message.message_id)
        return
    await query.answer()
    label = tr(Bot.NEW_COMMAND_YES if callback_data.new else Bot.NEW_COMMAND_NO, lang)
    if message is not None:
        sink.edit_text(chat_id, message.message_id, chosen_text(message.text or "", label, lang))
    if not callback_data.new:
        assert question is not None
        await sink.deliver(question)
        return
    command = Command(
        chat_id=chat_id,
        user_id=query.from_user.id,
        text=held.text,
        lang=lang,
        user_name=query.from_user.first_name,
    )
    await manager.start_instead(command, run_id=callback_data.run)


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones)."""
    router = Router(name=__name__)
    router.callback_query.register(on_choice, NewCommandCb.filter())
    return router
