"""/login and /logout: the user's own portal account instead of the club's.

/login (private chats only) asks the username, then the password; the password message is
deleted at once and never reaches the core, the conversation log or the logs. The account
service checks the pair on the portal and stores it encrypted. The dialogue's state lives
in the dispatcher's FSM storage (Redis, ``bot.dialogues``): a half-done login outlives a
restart. What it keeps is the username, never the password.

While the password is awaited, anything that may carry it is deleted like it: a caption, a
forwarded message, an edit. A password is taken only from a plain text message; a deletion
that fails is said, so the user deletes it themselves (it stays in the chat's history).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import structlog
from aiogram import F, Router
from aiogram.enums import ChatType
from aiogram.exceptions import TelegramAPIError
from aiogram.filters import Command, StateFilter
from aiogram.fsm.context import FSMContext
from aiogram.fsm.state import State, StatesGroup
from aiogram.types import CallbackQuery, Message
from pydantic import BaseModel, SecretStr

from bot.callbacks import LoginCb
from bot.filters import has_text, is_plain_text, no_text
from bot.keyboards.login import LOGIN_CANCEL, login_keyboard
from core.accounts import LoginOutcome
from core.commands import Lang
from core.texts import Bot, Login, Run, Text, tr

if TYPE_CHECKING:
    from bot.sink import TelegramSink
    from core.accounts import AccountService

__all__ = ["LoginForm", "router"]

log = structlog.get_logger("clubman.bot.login")

_RESULT_TEXTS: dict[LoginOutcome, Text] = {
    LoginOutcome.SAVED: Login.SAVED,
    LoginOutcome.REJECTED: Login.REJECTED,
    LoginOutcome.LOCKED: Login.LOCKED,
    LoginOutcome.UNAVAILABLE: Login.UNAVAILABLE,
}


class LoginForm(StatesGroup):
    username = State()
    password = State()


class LoginDraft(BaseModel):
    """What the dialogue keeps between its questions (never the password)."""

    username: str = ""


def _user_id(message: Message) -> int:
    return message.from_user.id if message.from_user else message.chat.id


async def start(
    message: Message,
    state: FSMContext,
    accounts: AccountService | None,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    chat_id = message.chat.id
    if message.chat.type != ChatType.PRIVATE:
        sink.send_text(chat_id, tr(Login.PRIVATE_ONLY, lang))
        return
    await state.clear()
    if accounts is None:
        sink.send_text(chat_id, tr(Login.OFF, lang))
    elif not accounts.can_save:
        sink.send_text(chat_id, tr(Login.NO_KEY, lang))
    else:
        await state.set_state(LoginForm.username)
        sink.send_text(chat_id, tr(Login.USERNAME, lang), keyboard=login_keyboard(lang))


async def on_username(message: Message, state: FSMContext, sink: TelegramSink, lang: Lang) -> None:
    username = (message.text or "").strip()
    await state.set_data(LoginDraft(username=username).model_dump())
    await state.set_state(LoginForm.password)
    sink.send_text(message.chat.id, tr(Login.PASSWORD, lang), keyboard=login_keyboard(lang))


async def on_password(
    message: Message,
    state: FSMContext,
    accounts: AccountService | None,
    sink: TelegramSink,
    lang: Lang,
) -> None:
    if message.forward_origin is not None:  # not theirs to give: deleted, asked again
        await not_the_password(message, sink, lang)
        return
    password = SecretStr(message.text or "")
    draft = LoginDraft.model_validate(await state.get_data())
    await state.clear()
    if not await _delete(message):
        sink.send_text(message.chat.id, tr(Login.DELETE_IT, lang))
    if accounts is None:  # the service went away between the questions: nothing to do
        sink.send_text(message.chat.id, tr(Login.OFF, lang))
        return
    sink.send_text(message.chat.id, tr(Login.CHECKING, lang))
    sink.typing(message.chat.id)
    outcome = await accounts.login(_user_id(message), draft.username, password)
    sink.send_text(message.chat.id, tr(_RESULT_TEXTS[outcome], lang, username=draft.username))


async def not_text(message: Message, sink: TelegramSink, lang: Lang) -> None:
    sink.send_text(message.chat.id, tr(Login.TEXT_ONLY, lang))


async def not_the_password(message: Message, sink: TelegramSink, lang: Lang) -> None:
    """A caption, a forward or an edit while the password is awaited: it may hold the
    password, so it goes like one; the password is asked again, as plain text."""
    deleted = await _delete(message)
    sink.send_text(
        message.chat.id, tr(Login.DELETED_ASK_AGAIN if deleted else Login.DELETE_IT, lang)
    )


async def edited_in_dialogue(message: Message, sink: TelegramSink, lang: Lang) -> None:
    # An edited username or password must not reach the core (the edits router would
    # pass it on): the dialogue took the first version.
    sink.send_text(message.chat.id, tr(Bot.EDIT_TOO_LATE, lang))


async def cancel(message: Message, state: FSMContext, sink: TelegramSink, lang: Lang) -> None:
    await state.clear()
    sink.send_text(message.chat.id, tr(Login.CANCELLED, lang))


async def on_cancel_button(
    query: CallbackQuery, state: FSMContext, sink: TelegramSink, lang: Lang
) -> None:
    open_ = await state.get_state() in LoginForm.__all_states_names__
    await query.answer(None if open_ else tr(Run.STALE_ANSWER, lang))
    message = query.message
    if message is None:
        return
    chat_id = message.chat.id
    if open_:
        await state.clear()
        sink.edit_text(chat_id, message.message_id, tr(Login.CANCELLED, lang))
    else:
        sink.remove_keyboard(chat_id, message.message_id)


async def logout(
    message: Message, accounts: AccountService | None, sink: TelegramSink, lang: Lang
) -> None:
    forgotten = accounts is not None and await accounts.logout(_user_id(message))
    sink.send_text(
        message.chat.id, tr(Login.LOGGED_OUT if forgotten else Login.NOT_LOGGED_IN, lang)
    )


async def _delete(message: Message) -> bool:
    """Delete the user's message now (not through the outbox: it must not linger)."""
    try:
        await message.delete()
    except TelegramAPIError as exc:  # its text is Telegram's, never the message's
        log.warning("login.delete_failed", chat_id=message.chat.id, error=type(exc).__name__)
        return False
    return True


def router() -> Router:
    """A fresh router (a router joins one dispatcher only; restarts build new ones).

    Tried before the text router, so neither answer reaches the core. While the password is
    awaited, every text but /login and /cancel is the password (it may start with "/")."""
    router = Router(name=__name__)
    in_dialogue = StateFilter(LoginForm)
    router.message.register(start, Command("login"))
    router.message.register(logout, Command("logout"))
    router.message.register(cancel, in_dialogue, Command("cancel"))
    awaiting_password = StateFilter(LoginForm.password)
    router.message.register(on_password, awaiting_password, has_text)
    router.message.register(not_the_password, awaiting_password)  # a caption, a photo…
    router.message.register(on_username, StateFilter(LoginForm.username), is_plain_text)
    router.message.register(not_text, in_dialogue, no_text)
    router.edited_message.register(not_the_password, awaiting_password)
    router.edited_message.register(edited_in_dialogue, in_dialogue)
    router.callback_query.register(on_cancel_button, LoginCb.filter(F.action == LOGIN_CANCEL))
    return router
