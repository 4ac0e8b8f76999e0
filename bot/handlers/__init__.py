"""One router per module; ``routers()`` lists them in the order they must be tried."""

from __future__ import annotations

from collections.abc import Sequence

from aiogram import Router

from core.scenario import Shortcut

__all__ = ["routers"]


def routers(shortcuts: Sequence[Shortcut] = ()) -> list[Router]:
    """``shortcuts``: the registered jobs' own commands."""
    from bot.handlers import (
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
    from bot.handlers import (
        shortcuts as job_commands,
    )

    # The /login dialogue first (its answers must never reach the core), then plain text
    # (the bulk of updates), then commands and buttons, then any other slash command, which
    # goes to the core like text, then captions and media; last, any button no router knew.
    first = (login, text, start, help, status, cancel)
    then = (settings, calendar, callbacks, new_command, edits)
    return [
        *(module.router() for module in first),
        job_commands.router(shortcuts),
        *(module.router() for module in then),
        text.fallback_router(),
        media.router(),
        callbacks.fallback_router(),
    ]
