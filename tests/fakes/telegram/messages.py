"""Bot API methods that create, change or remove chat messages, and callback answers."""

from __future__ import annotations

import hashlib
from typing import Any

from tests.fakes.telegram.errors import ApiError, bad_request
from tests.fakes.telegram.params import UploadedFile
from tests.fakes.telegram.state import CallbackAnswer, Chat, Edit, StoredMessage, TelegramState
from tests.fakes.telegram.validation import (
    check_caption,
    check_reply_markup,
    check_text,
    parse_formatting,
)

__all__ = ["MessageMethods", "UploadedFile"]

JsonDict = dict[str, Any]
CHAT_ACTIONS = frozenset(
    {
        "typing", "upload_photo", "record_video", "upload_video", "record_voice",
        "upload_voice", "upload_document", "choose_sticker", "find_location",
        "record_video_note", "upload_video_note",
    }
)  # fmt: skip
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup are exactly "
    "the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "query is too old and response timeout expired or query ID is invalid"


def _keyboard(markup: Any) -> JsonDict | None:
    """Inline keyboard as stored on a message; other markups leave no trace on it."""
    if isinstance(markup, dict) and markup.get("inline_keyboard"):
        return markup
    return None


# What getChatMember says of an administrator besides their status (all fields required).
_ADMIN_RIGHTS = dict.fromkeys(
    (
        "is_anonymous", "can_manage_chat", "can_delete_messages", "can_manage_video_chats",
        "can_restrict_members", "can_promote_members", "can_change_info", "can_invite_users",
        "can_post_stories", "can_edit_stories", "can_delete_stories", "can_send_welcome_messages",
    ),
    False,
)  # fmt: skip


class MessageMethods:
    def __init__(self, state: TelegramState, *, callback_query_ttl: float) -> None:
        self.state = state
        self.callback_query_ttl = callback_query_ttl

    # helpers -------------------------------------------------------------------------
    def chat(self, params: JsonDict) -> Chat:
        chat_id = params.get("chat_id")
        if chat_id in (None, ""):
            raise bad_request("chat_id is empty")
        chat = self.state.chat(chat_id)
        if chat is None:
            raise bad_request("chat not found")
        if chat.blocked:
            raise ApiError(403, "Forbidden: bot was blocked by the user")
        return chat

    def _target(self, params: JsonDict, missing: str) -> StoredMessage:
        if params.get("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")
        chat = self.chat(params)
        if params.get("message_id") in (None, ""):
            raise bad_request("message identifier is not specified")
        message = self.state.find(chat.id, int(params["message_id"]))
        if message is None:
            raise bad_request(missing)
        return message

    def _render(self, message: StoredMessage) -> JsonDict:
        return message.to_dict(self.state.bot_user)

    def _apply_edit(self, message: StoredMessage, **changes: Any) -> JsonDict:
        message.edits.append(Edit(self.state.clock.now(), message.text, message.reply_markup))
        for key, value in changes.items():
            setattr(message, key, value)
        message.edit_date = int(self.state.clock.now())
        self.state.touch(message)
        return self._render(message)

    # methods -----------------------------------------------------------------------
    async def send_message(self, params: JsonDict) -> JsonDict:
        chat = self.chat(params)
        raw = params.get("text")
        if not isinstance(raw, str) or not raw.strip():
            raise bad_request("message text is empty")
        text, entities = parse_formatting(raw, params.get("parse_mode"), params.get("entities"))
        check_text(text)
        check_reply_markup(params.get("reply_markup"))
        message = self.state.add_message(
            chat,
            from_bot=True,
            text=text,
            entities=entities,
            reply_markup=_keyboard(params.get("reply_markup")),
        )
        return self._render(message)

    async def send_photo(self, params: JsonDict) -> JsonDict:
        chat = self.chat(params)
        photo = params.get("photo")
        if isinstance(photo, UploadedFile):
            digest = hashlib.sha1(photo.content).hexdigest()[:16]
            file_id = f"AgACAgIAAxkBAAI{digest}"
            self.state.files[file_id] = photo.content
            size = len(photo.content)
        elif isinstance(photo, str) and photo in self.state.files:
            file_id, size = photo, len(self.state.files[photo])
        elif isinstance(photo, str) and photo.startswith(("http://", "https://")):
            file_id, size = f"AgACAgIAAxkBAAI{hashlib.sha1(photo.encode()).hexdigest()[:16]}", 0
        elif photo in (None, ""):
            raise bad_request("there is no photo in the request")
        else:
            raise bad_request("wrong file identifier/HTTP URL specified")
        sizes = [{"file_id": file_id, "file_unique_id": file_id[-12:], "width": 800,
                  "height": 600, "file_size": size}]  # fmt: skip
        return self._send_file(chat, params, photo=sizes)

    async def send_document(self, params: JsonDict) -> JsonDict:
        chat = self.chat(params)
        document = params.get("document")
        if not isinstance(document, UploadedFile):  # ids and URLs: not needed by the bot
            raise bad_request("there is no document in the request")
        file_id = f"BQACAgIAAxkBAAI{hashlib.sha1(document.content).hexdigest()[:16]}"
        self.state.files[file_id] = document.content
        size = len(document.content)
        described = {"file_id": file_id, "file_unique_id": file_id[-12:],
                     "file_name": document.filename, "file_size": size}  # fmt: skip
        return self._send_file(chat, params, document=described)

    def _send_file(self, chat: Chat, params: JsonDict, **media: Any) -> JsonDict:
        caption: str | None = None
        entities: list[JsonDict] = []
        if params.get("caption"):
            caption, entities = parse_formatting(
                params["caption"], params.get("parse_mode"), params.get("caption_entities")
            )
            check_caption(caption)
        check_reply_markup(params.get("reply_markup"))
        message = self.state.add_message(
            chat,
            from_bot=True,
            caption=caption,
            entities=entities,
            reply_markup=_keyboard(params.get("reply_markup")),
            **media,
        )
        return self._render(message)

    async def edit_message_text(self, params: JsonDict) -> JsonDict:
        message = self._target(params, "message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        if message.text is None:
            raise bad_request("there is no text in the message to edit")
        raw = params.get("text")
        if not isinstance(raw, str) or not raw.strip():
            raise bad_request("message text is empty")
        text, entities = parse_formatting(raw, params.get("parse_mode"), params.get("entities"))
        check_text(text)
        check_reply_markup(params.get("reply_markup"))
        markup = _keyboard(params.get("reply_markup"))  # omitted markup removes the keyboard
        if (text, entities, markup) == (message.text, message.entities, message.reply_markup):
            raise bad_request(NOT_MODIFIED)
        return self._apply_edit(message, text=text, entities=entities, reply_markup=markup)

    async def edit_message_reply_markup(self, params: JsonDict) -> JsonDict:
        message = self._target(params, "message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        check_reply_markup(params.get("reply_markup"))
        markup = _keyboard(params.get("reply_markup"))
        if markup == message.reply_markup:
            raise bad_request(NOT_MODIFIED)
        return self._apply_edit(message, reply_markup=markup)

    async def delete_message(self, params: JsonDict) -> bool:
        message = self._target(params, "message to delete not found")
        message.deleted = True
        self.state.touch(message)
        return True

    async def get_chat_member(self, params: JsonDict) -> JsonDict:
        chat = self.chat(params)
        user_id = int(params.get("user_id") or 0)
        person = self.state.chats.get(user_id)
        user = (
            person.user_dict() if person else {"id": user_id, "is_bot": False, "first_name": "User"}
        )
        if chat.type == "private":
            status = "member" if user_id == chat.id else "left"
        else:
            status = "administrator" if user_id in chat.admins else "member"
        if status == "administrator":
            return {"status": status, "user": user, "can_be_edited": False, **_ADMIN_RIGHTS}
        return {"status": status, "user": user}

    async def send_chat_action(self, params: JsonDict) -> bool:
        self.chat(params)
        if params.get("action") not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        return True

    async def answer_callback_query(self, params: JsonDict) -> bool:
        query_id = str(params.get("callback_query_id") or "")
        pending = self.state.callbacks.get(query_id)
        now = self.state.clock.now()
        if pending is None or pending.answered or now - pending.created > self.callback_query_ttl:
            raise bad_request(QUERY_TOO_OLD)
        text = params.get("text")
        if isinstance(text, str) and len(text) > 200:
            raise bad_request("MESSAGE_TOO_LONG")
        pending.answered = True
        self.state.callback_answers.append(
            CallbackAnswer(
                callback_query_id=query_id,
                text=text,
                show_alert=bool(params.get("show_alert")),
                url=params.get("url"),
                at=now,
            )
        )
        self.state.touch()
        return True
