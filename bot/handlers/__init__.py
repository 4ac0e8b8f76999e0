"""One router per module; ``routers()`` lists them in the order they must be tried."""

from __future__ import annotations

from aiogram import Router

__all__ = ["routers"]


def routers() -> list[Router]:
    from bot.handlers import (
        bookings,
        calendar,
        callbacks,
        cancel,
        edits,
        help,
        login,
        media,
        new_command,
        settings,
        start,
        status,
        text,
    )

    # The /login dialogue first (its answers must never reach the core), then plain text
    # (the bulk of updates), then commands and buttons, then any other slash command, which
    # goes to the core like text, then captions and media; last, any button no router knew.
    modules = (
        login, text, start, help, status, cancel, bookings, settings, calendar, callbacks,
        new_command, edits,
    )  # fmt: skip
    return [
        *(module.router() for module in modules),
        text.fallback_router(),
        media.router(),
        callbacks.fallback_router(),
    ]
