"""Simulated Telegram users: they write to the bot, tap its buttons and read its replies."""

from __future__ import annotations

import asyncio
import hashlib
import itertools
from collections.abc import Callable
from typing import Any

from tests.fakes.telegram.state import (
    CallbackAnswer,
    Chat,
    PendingCallback,
    StoredMessage,
    TelegramState,
)
from tests.fakes.telegram.updates import UpdateQueue, command_entities

__all__ = ["MEDIA", "MessageTimeout", "NoSuchButton", "SimUser"]

MessagePredicate = Callable[[StoredMessage], bool]
# What Telegram puts in a message for each kind of media (the smallest valid objects).
_FILE = {"file_id": "BQACAgIAAxkBAAI", "file_unique_id": "AgADBAAD"}
MEDIA: dict[str, Any] = {
    "photo": [{**_FILE, "width": 90, "height": 90}],
    "document": {**_FILE, "file_name": "plan.pdf", "mime_type": "application/pdf"},
    "sticker": {**_FILE, "type": "regular", "width": 512, "height": 512, "is_animated": False,
                "is_video": False, "emoji": "👍"},
    "voice": {**_FILE, "duration": 3, "mime_type": "audio/ogg"},
    "video": {**_FILE, "width": 640, "height": 360, "duration": 5},
}  # fmt: skip
_query_ids = itertools.count(4_382_000_000_000_000_001)


class NoSuchButton(AssertionError):
    """``tap`` found no inline button with that label."""


class MessageTimeout(AssertionError):
    """No bot message (or callback answer) matched in time."""


def _describe(messages: list[StoredMessage]) -> str:
    lines = [f"  #{m.message_id}: {m.text or m.caption!r} buttons={m.labels}" for m in messages]
    return "\n".join(lines) or "  (no bot messages)"


class SimUser:
    """A user in a private chat with the bot (chat id == user id), or with ``person`` a
    member of the group ``chat`` (messages from ``person``, in the group)."""

    def __init__(
        self,
        chat: Chat,
        *,
        state: TelegramState,
        queue: UpdateQueue,
        person: Chat | None = None,
    ) -> None:
        self.chat = chat
        self.person = person or chat
        self._state = state
        self._queue = queue
        self._mark = state.seq  # bot messages changed after this count as new replies
        self._returned: set[tuple[int, int]] = set()  # (message_id, seq) already handed out

    @property
    def id(self) -> int:
        """The user's id (in a private chat also the chat's)."""
        return self.person.id

    @property
    def user(self) -> dict[str, Any]:
        """The ``User`` object Telegram puts in ``from``."""
        return self.person.user_dict()

    @property
    def messages(self) -> list[StoredMessage]:
        """The bot's messages in this chat, oldest first, deleted ones left out (live objects)."""
        return self._state.bot_messages(self.chat.id)

    @property
    def last_message(self) -> StoredMessage | None:
        return max(self.messages, key=lambda m: m.message_id, default=None)

    def block(self, blocked: bool = True) -> None:
        """Block the bot: its sends to this chat fail with 403 Forbidden."""
        self.chat.blocked = blocked

    async def send(self, text: str) -> dict[str, Any]:
        """Write a text message to the bot; returns the Message JSON the bot will receive."""
        message = self._state.add_message(
            self.chat, from_bot=False, text=text, entities=command_entities(text)
        )
        payload = message.to_dict(self.user)
        self._queue.put({"message": payload})
        self._mark = self._state.seq
        return payload

    async def send_media(self, kind: str, *, caption: str | None = None) -> dict[str, Any]:
        """Send a photo, document, sticker, voice or video (a ``MEDIA`` key), maybe captioned."""
        message = self._state.add_message(self.chat, from_bot=False)
        payload = message.to_dict(self.user)
        payload[kind] = MEDIA[kind]
        if caption is not None:
            payload["caption"] = caption
            if entities := command_entities(caption):
                payload["caption_entities"] = entities
        self._queue.put({"message": payload})
        self._mark = self._state.seq
        return payload

    async def forward(self, text: str, *, sender_name: str = "Someone") -> dict[str, Any]:
        """Forward a text message written by someone else (hidden sender) to the bot."""
        message = self._state.add_message(self.chat, from_bot=False, text=text)
        payload = message.to_dict(self.user)
        payload["forward_origin"] = {
            "type": "hidden_user", "sender_user_name": sender_name, "date": payload["date"],
        }  # fmt: skip
        self._queue.put({"message": payload})
        self._mark = self._state.seq
        return payload

    async def edit(self, message_id: int, text: str) -> dict[str, Any]:
        """Edit one of this user's text messages; the bot gets an ``edited_message``."""
        message = self._state.find(self.chat.id, message_id)
        if message is None or message.from_bot:
            raise AssertionError(f"no message #{message_id} of the user in chat {self.chat.id}")
        message.text = text
        message.entities = command_entities(text)
        message.edit_date = int(self._state.clock.now())
        self._state.touch(message)
        payload = message.to_dict(self.user)
        self._queue.put({"edited_message": payload})
        self._mark = self._state.seq
        return payload

    def press(self, data: str, *, message_id: int) -> str:
        """Press a button carrying ``data`` under bot message ``message_id``, whatever the
        message shows now (an old client's keyboard, a forged or outdated payload)."""
        message = self._state.find(self.chat.id, message_id)
        if message is None:
            raise NoSuchButton(f"no bot message #{message_id} in chat {self.chat.id}")
        return self._press(message, data)

    async def tap(self, label: str, *, message_id: int | None = None) -> str:
        """Press an inline callback button; returns the callback query id.

        Looks in ``message_id`` if given, else in the newest bot message that has the button.
        """
        candidates = sorted(self.messages, key=lambda m: m.message_id, reverse=True)
        if message_id is not None:
            candidates = [m for m in candidates if m.message_id == message_id]
            if not candidates:
                raise NoSuchButton(f"no bot message #{message_id} in chat {self.chat.id}")
        for message in candidates:
            for button in message.buttons:
                if button.text == label and button.callback_data is not None:
                    return self._press(message, button.callback_data)
        raise NoSuchButton(
            f"no callback button {label!r} in chat {self.chat.id}:\n{_describe(candidates)}"
        )

    def _press(self, message: StoredMessage, data: str) -> str:
        query_id = str(next(_query_ids))
        self._state.callbacks[query_id] = PendingCallback(
            id=query_id,
            chat_id=self.chat.id,
            message_id=message.message_id,
            data=data,
            created=self._state.clock.now(),
        )
        instance = hashlib.sha1(f"{self.chat.id}".encode()).hexdigest()[:15]
        self._queue.put(
            {
                "callback_query": {
                    "id": query_id,
                    "from": self.user,
                    "message": message.to_dict(self._state.bot_user),
                    "chat_instance": str(int(instance, 16)),
                    "data": data,
                }
            }
        )
        self._mark = self._state.seq
        return query_id

    async def wait_for_message(
        self,
        predicate: MessagePredicate | None = None,
        *,
        timeout: float = 10.0,
        since: int | None = None,
    ) -> StoredMessage:
        """Wait for a bot message, new or edited after this user's last action, matching.

        Each version of a message is returned once, so consecutive calls walk through the
        replies in order. ``since`` overrides the starting point (a ``TelegramState.seq``
        value; 0 = any message) and also allows versions returned before.
        """
        mark = self._mark if since is None else since
        skip = self._returned if since is None else set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for message in sorted(self.messages, key=lambda m: m.seq):
                version = (message.message_id, message.seq)
                if message.seq <= mark or version in skip:
                    continue
                if predicate is None or predicate(message):
                    self._returned.add(version)
                    return message
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                await self._state.wait_change(remaining, chat_id=self.chat.id)
            except TimeoutError:
                raise MessageTimeout(
                    f"no matching bot message in chat {self.chat.id} within {timeout}s:\n"
                    f"{_describe(self.messages)}"
                ) from None

    async def wait_for_answer(self, query_id: str, *, timeout: float = 10.0) -> CallbackAnswer:
        """Wait until the bot answers the callback query ``query_id``."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for answer in self._state.callback_answers:
                if answer.callback_query_id == query_id:
                    return answer
            remaining = deadline - loop.time()
            try:
                if remaining <= 0:
                    raise TimeoutError
                await self._state.wait_change(remaining)
            except TimeoutError:
                raise MessageTimeout(
                    f"callback query {query_id} not answered in {timeout}s"
                ) from None
