"""What views hand to the core: a typed command (text) or an answer (button or text)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

__all__ = ["Answer", "Command", "Lang", "as_lang"]

Lang = Literal["ru", "en"]


def as_lang(value: str | None) -> Lang:
    """A stored language (a user's, a run's) as one we speak: English or else Russian."""
    return "en" if value == "en" else "ru"


class Command(BaseModel):
    """A message a user wrote in a chat."""

    chat_id: int
    user_id: int
    text: str
    lang: Lang | None = None  # the client's language (Telegram language_code), if known
    user_name: str = ""
    # Set by views for explicit commands (/bookings): skips text classification.
    intent: str | None = None
    admin: bool = False  # the view knows the user administers the chat


class Answer(BaseModel):
    """An answer to a pending question: a tapped option (``option_id``) or typed ``text``."""

    chat_id: int
    user_id: int
    run_id: str
    seq: int | None = None  # which question of the run; a tap on an older one is stale
    option_id: str | None = None
    text: str | None = None
    admin: bool = False  # the view knows the user administers the chat
