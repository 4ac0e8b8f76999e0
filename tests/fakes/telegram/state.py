"""What the fake remembers: chats, per-chat messages with edit history, calls, callbacks."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from tests.fakes.telegram.clock import Clock

__all__ = [
    "Button",
    "CallbackAnswer",
    "Chat",
    "Edit",
    "PendingCallback",
    "RecordedCall",
    "StoredMessage",
    "TelegramState",
]

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class Button:
    text: str
    callback_data: str | None = None
    url: str | None = None


@dataclass(frozen=True)
class Edit:
    """A previous version of a message, kept when it is edited."""

    at: float
    text: str | None
    reply_markup: JsonDict | None


@dataclass
class Chat:
    id: int
    type: str = "private"
    first_name: str | None = None
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    blocked: bool = False  # the user blocked the bot: sends fail with 403
    title: str | None = None  # a group's
    admins: set[int] = field(default_factory=set)  # a group's administrators' user ids

    def chat_dict(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "type": self.type}
        for key in ("title", "first_name", "last_name", "username"):
            if (value := getattr(self, key)) is not None:
                data[key] = value
        return data

    def user_dict(self) -> JsonDict:
        data: JsonDict = {"id": self.id, "is_bot": False, "first_name": self.first_name or "User"}
        for key in ("last_name", "username", "language_code"):
            if (value := getattr(self, key)) is not None:
                data[key] = value
        return data


@dataclass
class StoredMessage:
    """One message in a chat, current state plus its edit history."""

    chat: Chat
    message_id: int
    from_bot: bool
    date: int
    text: str | None = None
    entities: list[JsonDict] = field(default_factory=list)
    caption: str | None = None
    photo: list[JsonDict] | None = None
    document: JsonDict | None = None  # file_id, file_name, file_size; content in ``files``
    reply_markup: JsonDict | None = None
    deleted: bool = False
    edit_date: int | None = None
    edits: list[Edit] = field(default_factory=list)
    seq: int = 0  # TelegramState.seq at the last change

    @property
    def buttons(self) -> list[Button]:
        rows = (self.reply_markup or {}).get("inline_keyboard") or []
        return [
            Button(text=b.get("text", ""), callback_data=b.get("callback_data"), url=b.get("url"))
            for row in rows
            for b in row
        ]

    @property
    def labels(self) -> list[str]:
        return [b.text for b in self.buttons]

    @property
    def callback_data(self) -> list[str]:
        return [b.callback_data for b in self.buttons if b.callback_data is not None]

    def to_dict(self, sender: JsonDict) -> JsonDict:
        data: JsonDict = {
            "message_id": self.message_id,
            "from": sender,
            "chat": self.chat.chat_dict(),
            "date": self.date,
        }
        if self.edit_date is not None:
            data["edit_date"] = self.edit_date
        if self.text is not None:
            data["text"] = self.text
            if self.entities:
                data["entities"] = self.entities
        if self.photo is not None or self.document is not None:
            if self.photo is not None:
                data["photo"] = self.photo
            if self.document is not None:
                data["document"] = self.document
            if self.caption is not None:
                data["caption"] = self.caption
                if self.entities:
                    data["caption_entities"] = self.entities
        if self.reply_markup and self.reply_markup.get("inline_keyboard"):
            data["reply_markup"] = self.reply_markup
        return data


@dataclass(frozen=True)
class RecordedCall:
    method: str  # as the client spelled it
    params: JsonDict
    time: float
    status: int
    response: JsonDict
    content_type: str = ""  # of the request body; "" for calls made inside the fake

    @property
    def ok(self) -> bool:
        return bool(self.response.get("ok"))


@dataclass(frozen=True)
class CallbackAnswer:
    callback_query_id: str
    text: str | None
    show_alert: bool
    url: str | None
    at: float


@dataclass
class PendingCallback:
    id: str
    chat_id: int
    message_id: int
    data: str
    created: float
    answered: bool = False


@dataclass
class TelegramState:
    clock: Clock
    bot_user: JsonDict
    chats: dict[int, Chat] = field(default_factory=dict)
    messages: dict[int, dict[int, StoredMessage]] = field(default_factory=dict)
    calls: list[RecordedCall] = field(default_factory=list)
    callbacks: dict[str, PendingCallback] = field(default_factory=dict)
    callback_answers: list[CallbackAnswer] = field(default_factory=list)
    commands: dict[str, list[JsonDict]] = field(default_factory=dict)
    files: dict[str, bytes] = field(default_factory=dict)
    seq: int = 0
    _last_ids: dict[int, int] = field(default_factory=dict)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)
    _chat_changed: dict[int, asyncio.Event] = field(default_factory=dict)

    def touch(self, message: StoredMessage | None = None) -> None:
        """Record a change and wake everyone waiting in :meth:`wait_change` (for a
        message's change, also those waiting on its chat)."""
        self.seq += 1
        if message is not None:
            message.seq = self.seq
            chat_changed = self._chat_changed.pop(message.chat.id, None)
            if chat_changed is not None:
                chat_changed.set()
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_change(self, timeout: float, *, chat_id: int | None = None) -> None:
        """Return after the next change (to a message of ``chat_id``, if given), or raise
        ``TimeoutError`` after ``timeout`` seconds.

        Waiting on one chat matters with many simulated users: every API call is a
        change, and waking every user's scan for each one costs the fake more than the
        bot under test spends."""
        if chat_id is None:
            event = self._changed
        else:
            event = self._chat_changed.setdefault(chat_id, asyncio.Event())
        await asyncio.wait_for(event.wait(), timeout)

    def chat(self, chat_id: int | str) -> Chat | None:
        if isinstance(chat_id, str):
            for chat in self.chats.values():
                if chat.username and f"@{chat.username}".lower() == chat_id.lower():
                    return chat
            return None
        return self.chats.get(chat_id)

    def add_message(self, chat: Chat, *, from_bot: bool, **fields: Any) -> StoredMessage:
        """Store a new message under the chat's next ``message_id``."""
        by_id = self.messages.setdefault(chat.id, {})
        message_id = self._last_ids[chat.id] = self._last_ids.get(chat.id, 0) + 1
        message = StoredMessage(
            chat=chat,
            message_id=message_id,
            from_bot=from_bot,
            date=int(self.clock.now()),
            **fields,
        )
        by_id[message_id] = message
        self.touch(message)
        return message

    def find(self, chat_id: int, message_id: int) -> StoredMessage | None:
        message = self.messages.get(chat_id, {}).get(message_id)
        return None if message is None or message.deleted else message

    def bot_messages(self, chat_id: int, *, include_deleted: bool = False) -> list[StoredMessage]:
        return [
            m
            for m in self.messages.get(chat_id, {}).values()
            if m.from_bot and (include_deleted or not m.deleted)
        ]
