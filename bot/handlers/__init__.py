"""One router per module; ``routers()`` lists them in the order they must be tried."""

from __future__ import annotations

from aiogram import Router

__all__ = ["routers"]


def routers() -> list[Router]:
    from bot.handlers import bookings, callbacks, cancel, help, settings, start, status, text

    # Commands and buttons first; free text last.
    modules = (start, help, status, cancel, bookings, settings, callbacks, text)
    return [module.router() for module in modules]
