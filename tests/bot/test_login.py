"""/login and /logout end to end: the real bot (dispatcher, app factory's core with its
account service) on the fake Bot API, checking credentials on the reference portal with
real Chromium, storing them in real storage. The password must show up nowhere."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any

import pytest
import structlog
from cryptography.fernet import Fernet
from pydantic import SecretStr

from app.compose import open_core
from core.output import OutputSink
from core.settings import BrowserSettings, PortalSettings, SecuritySettings, Settings
from core.vault import CredentialVault
from core.views import CoreServices
from portal.server import running_portal
from storage import ConversationMessageDocument, Storage, free_port
from tests.bot.support import CoreFactory, running_bot
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage
from tests.fakes.telegram.state import Chat
from tests.fakes.telegram.updates import command_entities
from tests.support.portal import portal_bookings, set_quirks

KEY = Fernet.generate_key().decode()
CHESS = ("chess", "chess-demo")  # a seeded portal user other than the club's account
WRONG = "not-the-Password-7731"


@pytest.fixture
async def portal_url() -> AsyncIterator[str]:
    async with running_portal(test_api=True, seed=1) as portal:
        yield portal.url


@pytest.fixture
def app_core(portal_url: str, tmp_path: Path) -> Callable[..., CoreFactory]:
    """The app factory's own core (``open_core``) on the test portal."""

    def make(*, key: str | None = KEY) -> CoreFactory:
        def open_(
            settings: Settings, storage: Storage, sink: OutputSink
        ) -> AbstractAsyncContextManager[CoreServices]:
            configured = settings.model_copy(
                update={
                    "portal": PortalSettings(
                        url=portal_url, username="club", password=SecretStr("club-demo")
                    ),
                    "security": SecuritySettings(encryption_key=SecretStr(key) if key else None),
                    "browser": BrowserSettings(max_contexts=2),
                    "data_dir": tmp_path / "data",
                }
            )
            return open_core(configured, storage, sink)

        return open_

    return make


def has(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


async def answer_password(user: SimUser, password: str) -> dict[str, Any]:
    """Type the password once the bot asked for it; returns the sent message."""
    await user.wait_for_message(
        lambda m: "Password?" in (m.text or "") or "Пароль?" in (m.text or "")
    )
    return await user.send(password)


async def password_asked(user: SimUser) -> dict[str, Any]:
    """/login, the username (chess's), then the bot asks for the password (in English);
    returns the username message."""
    await user.send("/login")
    await user.wait_for_message(has("Portal username?"))
    named = await user.send(CHESS[0])
    await user.wait_for_message(has("Password?"))
    return named


async def everything_stored(storage: Storage) -> str:
    """Every document of every collection of the test database, as one string."""
    await storage.conversations.flush()  # appends are batched: write what is queued
    await storage.events.flush()
    database = ConversationMessageDocument.get_pymongo_collection().database
    dumped = []
    for name in await database.list_collection_names():
        dumped.extend([repr(doc) async for doc in database[name].find({})])
    return "\n".join(dumped)


async def test_login_checks_stores_encrypted_and_deletes_the_password(
    tg: FakeTelegram,
    storage: Storage,
    app_core: Callable[..., CoreFactory],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    user = tg.user(5, "John", language_code="en")
    with structlog.testing.capture_logs() as logs:
        async with running_bot(tg, storage, core=app_core()):
            await user.send("/login")
            asked = await user.wait_for_message(has("Portal username?"))
            assert asked.labels == ["Cancel"]
            await user.send(CHESS[0])
            sent = await answer_password(user, CHESS[1])
            await tg.wait_for_call("deleteMessage")
            saved = await user.wait_for_message(has("Saved"), timeout=60)
            await user.send("hello there")  # a normal message still reaches the core
            await user.wait_for_message(lambda m: m.message_id > saved.message_id)
    assert saved.text == "Saved, bookings will be made as chess."

    assert tg.state.messages[user.id][sent["message_id"]].deleted
    assert tg.state.find(user.id, sent["message_id"]) is None
    delete = tg.calls_of("deleteMessage")[0].params
    assert int(delete["message_id"]) == sent["message_id"]

    credentials = await CredentialVault(storage, SecretStr(KEY)).credentials(user.id)
    assert credentials is not None
    assert (credentials.username, credentials.password.get_secret_value()) == CHESS
    stored = await storage.users.get(user.id)
    assert stored is not None and stored.portal_password_encrypted
    assert CHESS[1].encode() not in stored.portal_password_encrypted

    said = [m.text for m in await storage.conversations.history(user.id)]
    assert "hello there" in said
    assert not any(CHESS[1] in (text or "") or text == CHESS[0] for text in said)
    assert CHESS[1] not in await everything_stored(storage)
    assert any(e["event"] == "accounts.login_saved" for e in logs)
    assert CHESS[1] not in repr(logs) and CHESS[1] not in caplog.text


async def test_wrong_password_stores_nothing_and_a_new_login_works(
    tg: FakeTelegram,
    storage: Storage,
    app_core: Callable[..., CoreFactory],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    user = tg.user(6, "Анна", language_code="ru")
    with structlog.testing.capture_logs() as logs:
        async with running_bot(tg, storage, core=app_core()):
            await user.send("/login")
            await user.wait_for_message(has("Имя пользователя на портале?"))
            await user.send(CHESS[0])
            sent = await answer_password(user, WRONG)
            refused = await user.wait_for_message(has("не принял"), timeout=60)
            assert tg.state.messages[user.id][sent["message_id"]].deleted
            assert await CredentialVault(storage, SecretStr(KEY)).credentials(user.id) is None

            await user.send("/login")  # and again, right this time
            await user.wait_for_message(has("Имя пользователя на портале?"))
            await user.send(CHESS[0])
            await answer_password(user, CHESS[1])
            saved = await user.wait_for_message(has("Сохранено"), timeout=60)
    assert "/login" in (refused.text or "")
    assert saved.text == "Сохранено, брони будут делаться от имени chess."
    assert any(e["event"] == "accounts.login_refused" for e in logs)
    for secret in (WRONG, CHESS[1]):
        assert secret not in repr(logs) and secret not in caplog.text
        assert secret not in await everything_stored(storage)


async def test_portal_unreachable_is_a_polite_message(
    tg: FakeTelegram, storage: Storage, tmp_path: Path
) -> None:
    def unreachable(
        settings: Settings, opened: Storage, sink: OutputSink
    ) -> AbstractAsyncContextManager[CoreServices]:
        configured = settings.model_copy(
            update={
                "portal": PortalSettings(url=f"http://127.0.0.1:{free_port()}"),  # refused
                "security": SecuritySettings(encryption_key=SecretStr(KEY)),
                "data_dir": tmp_path / "data",
            }
        )
        return open_core(configured, opened, sink)

    user = tg.user(7, "John", language_code="en")
    async with running_bot(tg, storage, core=unreachable):
        await user.send("/login")
        await user.wait_for_message(has("Portal username?"))
        await user.send(CHESS[0])
        await answer_password(user, CHESS[1])
        reply = await user.wait_for_message(has("not reachable"), timeout=60)
    assert "try again later: /login" in (reply.text or "")
    assert await storage.users.get(user.id) is None or not (
        await CredentialVault(storage, SecretStr(KEY)).credentials(user.id)
    )


async def test_login_in_a_group_is_refused_politely(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    user = tg.user(8, "John", language_code="en")
    group = Chat(id=-100_500, type="group")
    tg.state.chats[group.id] = group

    def say_in_group(text: str) -> None:
        message = tg.state.add_message(
            group, from_bot=False, text=text, entities=command_entities(text)
        )
        tg.put_update({"message": message.to_dict(user.user)})

    async with running_bot(tg, storage, core=app_core()):
        say_in_group("/login")
        await tg.wait_until(lambda: bool(tg.messages(group.id)))
        say_in_group("chess")  # not taken as a username: the core gets it
        await tg.wait_until(lambda: len(tg.messages(group.id)) >= 2)
    replies = [m.text for m in tg.messages(group.id)]
    assert replies[0] == "Portal login works only in a private chat with me: send me /login there."
    assert not any("username?" in (text or "") for text in replies)
    assert not user.messages and not tg.calls_of("deleteMessage")


async def test_without_an_encryption_key_login_says_so_at_once(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    anna, john = tg.user(9, "Анна", language_code="ru"), tg.user(10, "John", language_code="en")
    async with running_bot(tg, storage, core=app_core(key=None)):
        await anna.send("/login")
        ru = await anna.wait_for_message()
        await john.send("/login")
        en = await john.wait_for_message()
        await john.send("chess")  # no dialogue was started: ordinary text for the core
        await john.wait_for_message()
    assert "SECURITY__ENCRYPTION_KEY" in (ru.text or "") and "clubman keygen" in (ru.text or "")
    assert "needs an encryption key" in (en.text or "") and "admin" in (en.text or "")
    assert not any("username?" in (m.text or "") for m in john.messages)
    assert not any("Password" in (m.text or "") for m in john.messages)


async def test_cancel_mid_flow_by_command_and_by_button(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    user = tg.user(11, "John", language_code="en")
    async with running_bot(tg, storage, core=app_core()):
        await user.send("/login")
        await user.wait_for_message(has("Portal username?"))
        await user.send("chess")
        await user.wait_for_message(has("Password?"))
        await user.send("/cancel")
        await user.wait_for_message(has("Login cancelled"))
        await user.send("chess-demo")  # after the cancel: plain text for the core, not a password
        after_cancel = await user.wait_for_message()

        await user.send("/login")
        asked = await user.wait_for_message(has("Portal username?"))
        answer = await user.wait_for_answer(await user.tap("Cancel", message_id=asked.message_id))
        edited = await user.wait_for_message(lambda m: m.message_id == asked.message_id)
        stale = await user.wait_for_answer(await user.tap("Cancel"))  # the Password? prompt's
    assert "Login cancelled" not in (after_cancel.text or "")
    assert answer.text is None and edited.text == "Login cancelled, nothing saved."
    assert stale.text == "This question is already closed."
    assert not tg.calls_of("deleteMessage")
    assert await storage.users.get(user.id) is None or (
        await CredentialVault(storage, SecretStr(KEY)).credentials(user.id) is None
    )


async def test_logout_goes_back_to_the_club_account(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    user = tg.user(12, "John", language_code="en")
    vault = CredentialVault(storage, SecretStr(KEY))
    await vault.save_credentials(user.id, CHESS[0], SecretStr(CHESS[1]))
    await vault.save_session(user.id, {"cookies": [], "origins": []})
    async with running_bot(tg, storage, core=app_core()):
        await user.send("/logout")
        done = await user.wait_for_message()
        await user.send("/logout")
        again = await user.wait_for_message()
    assert (
        done.text
        == "Your portal login is forgotten; bookings are made with the club's account again."
    )
    assert again.text == "You had no personal login: bookings are made with the club's account."
    assert await vault.credentials(user.id) is None and await vault.session(user.id) is None


async def test_login_and_logout_are_in_the_menu_and_in_help(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(13, "John", language_code="en")
    async with running_bot(tg, storage):
        await user.send("/help")
        reply = await user.wait_for_message()
    for call in tg.calls_of("setMyCommands"):
        names = [c["command"] for c in call.params["commands"]]
        assert names[-2:] == ["login", "logout"]
    assert "/login" in (reply.text or "") and "/logout" in (reply.text or "")


async def test_a_booking_after_login_is_made_as_the_user(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory], portal_url: str
) -> None:
    user = tg.user(14, "Анна", language_code="ru")
    async with running_bot(tg, storage, core=app_core()):
        await user.send("/login")
        await user.wait_for_message(has("Имя пользователя на портале?"))
        await user.send(CHESS[0])
        await answer_password(user, CHESS[1])
        await user.wait_for_message(has("Сохранено"), timeout=60)
        await user.send("забронируй аудиторию в главном корпусе завтра с 18 до 20")
        done = await user.wait_for_message(has("Забронирован"), timeout=120)
    booked = await portal_bookings(portal_url, user="chess")
    assert len(booked) == 1 and booked[0]["room"].split("-")[-1] in (done.text or ""), booked
    assert not await portal_bookings(portal_url, user="club")


async def test_rules_notice_after_the_login_form_still_means_the_login_is_right(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory], portal_url: str
) -> None:
    await set_quirks(portal_url, notice=True)  # «Правила бронирования изменились» after login
    user = tg.user(15, "John", language_code="en")
    async with running_bot(tg, storage, core=app_core()):
        await user.send("/login")
        await user.wait_for_message(has("Portal username?"))
        await user.send(CHESS[0])
        await answer_password(user, CHESS[1])
        saved = await user.wait_for_message(has("Saved"), timeout=60)
    assert saved.text == "Saved, bookings will be made as chess."


async def test_an_edited_username_in_the_dialogue_never_reaches_the_core(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    # Issue 16: edits are handled now; one made inside /login must not become a command.
    user = tg.user(5, "John", language_code="en")
    async with running_bot(tg, storage, core=app_core()):
        sent = await password_asked(user)
        await user.edit(sent["message_id"], "book two adjacent rooms next Friday 10-12")
        notice = await user.wait_for_message()
    # while the password is awaited an edit may carry it: deleted like one, never applied
    assert notice.text is not None and notice.text.startswith("I deleted that message")
    assert tg.state.messages[user.id][sent["message_id"]].deleted
    said = [m.text for m in await storage.conversations.history(user.id)]
    assert not any("book two" in (text or "") for text in said)
    assert await storage.runs.active_for_chat(user.id) == []


async def test_a_password_in_a_caption_a_forward_or_an_edit_is_deleted_and_asked_again(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    user = tg.user(5, "John", language_code="en")
    async with running_bot(tg, storage, core=app_core()):
        named = await password_asked(user)
        leaked = [
            await user.send_media("photo", caption="caption-secret-1"),
            await user.forward("forwarded-secret-2"),
            await user.edit(named["message_id"], "edited-secret-3"),
        ]
        for _ in leaked:
            await user.wait_for_message(has("I deleted that message"))
        await user.send(CHESS[1])  # now as plain text: taken
        saved = await user.wait_for_message(has("Saved"), timeout=60)
    assert saved.text == "Saved, bookings will be made as chess."
    for message in leaked:
        assert tg.state.messages[user.id][message["message_id"]].deleted
    stored = await everything_stored(storage)
    assert not any(secret in stored for secret in ("caption-secret", "forwarded-", "edited-"))
    credentials = await CredentialVault(storage, SecretStr(KEY)).credentials(user.id)
    assert credentials is not None and credentials.password.get_secret_value() == CHESS[1]


async def test_a_password_that_cannot_be_deleted_is_said_so(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    user = tg.user(5, "John", language_code="en")
    async with running_bot(tg, storage, core=app_core()):
        await password_asked(user)
        tg.inject_error(
            method="deleteMessage", error_code=400,
            description="Bad Request: message can't be deleted for everyone",
        )  # fmt: skip
        await user.send(CHESS[1])
        told = await user.wait_for_message(has("could not delete"))
        await user.wait_for_message(has("Saved"), timeout=60)
    assert told.text is not None and "please delete it yourself" in told.text


async def test_a_login_half_done_outlives_a_restart_and_never_keeps_the_password(
    tg: FakeTelegram, storage: Storage, app_core: Callable[..., CoreFactory]
) -> None:
    """Issue 67: the /login dialogue waits in Redis, not in the process. A new bot after
    each question takes the answer as the dialogue's next step; what waits between them is
    the username (with a TTL), never the password."""
    user = tg.user(5, "John", language_code="en")
    bot_id = tg.token.split(":", 1)[0]  # aiogram's Bot.id
    keys = f"clubman:fsm:{bot_id}:{user.id}:{user.id}"
    async with running_bot(tg, storage, core=app_core()):
        await user.send("/login")
        await user.wait_for_message(has("Portal username?"))
    assert await storage.redis.get(f"{keys}:state") == b"LoginForm:username"

    async with running_bot(tg, storage, core=app_core()):
        await user.send(CHESS[0])
        await user.wait_for_message(has("Password?"))
    assert await storage.redis.get(f"{keys}:state") == b"LoginForm:password"
    assert await storage.redis.get(f"{keys}:data") == b'{"username": "chess"}'
    assert 0 < await storage.redis.ttl(f"{keys}:state") <= 24 * 3600

    async with running_bot(tg, storage, core=app_core()):
        sent = await user.send(CHESS[1])
        await tg.wait_for_call("deleteMessage")
        saved = await user.wait_for_message(has("Saved"), timeout=60)
    assert saved.text == "Saved, bookings will be made as chess."
    assert tg.state.messages[user.id][sent["message_id"]].deleted
    credentials = await CredentialVault(storage, SecretStr(KEY)).credentials(user.id)
    assert credentials is not None
    assert (credentials.username, credentials.password.get_secret_value()) == CHESS
    assert not await storage.redis.keys("clubman:fsm:*")  # the dialogue is over
    said = [m.text for m in await storage.conversations.history(user.id)]
    assert not any(CHESS[1] in (text or "") or text == CHESS[0] for text in said)
