"""What views hand to the core: a typed command (text) or an answer (button or text)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, Field

__all__ = ["MAX_TEXT", "Answer", "Command", "Lang", "as_lang", "too_long"]

Lang = Literal["ru", "en"]

MAX_TEXT = 4096  # what Telegram lets one message carry; no command needs more
Text = Annotated[str, Field(max_length=MAX_TEXT)]


def too_long(text: str) -> bool:
    """A text no command or answer takes: views refuse it politely before the core."""
    return len(text) > MAX_TEXT


def as_lang(value: str | None) -> Lang:
    """A stored language (a user's, a run's) as one we speak: English or else Russian."""
    return "en" if value == "en" else "ru"


class Command(BaseModel):
    """A message a user wrote in a chat."""

    chat_id: int
    user_id: int
    text: Text
    lang: Lang | None = None  # the client's language (Telegram language_code), if known
    user_name: Annotated[str, Field(max_length=256)] = ""
    # Set by views for explicit commands (/bookings): skips text classification.
    intent: str | None = None
    admin: bool = False  # the view knows the user administers the chat


class Answer(BaseModel):
    """An answer to a pending question: a tapped option (``option_id``) or typed ``text``."""

    chat_id: int
    user_id: int
    run_id: Annotated[str, Field(max_length=32)]
    seq: int | None = None  # which question of the run; a tap on an older one is stale
    option_id: Annotated[str, Field(max_length=64)] | None = None  # Telegram's callback limit
    text: Text | None = None
    admin: bool = False  # the view knows the user administers the chat
