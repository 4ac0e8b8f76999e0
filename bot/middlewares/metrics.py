"""Counts every update the dispatcher handled, by type, into the app's ``Metrics``."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from aiogram import BaseMiddleware
from aiogram.types import TelegramObject, Update

from core.metrics import Metrics

__all__ = ["UpdateMetricsMiddleware"]

Handler = Callable[[TelegramObject, dict[str, Any]], Awaitable[Any]]


class UpdateMetricsMiddleware(BaseMiddleware):
    def __init__(self, metrics: Metrics) -> None:
        self._metrics = metrics

    async def __call__(self, handler: Handler, event: TelegramObject, data: dict[str, Any]) -> Any:
        try:
            return await handler(event, data)
        finally:
            # Refused and failed updates count too: they were handled, with a refusal.
            kind = event.event_type if isinstance(event, Update) else type(event).__name__
            self._metrics.update_handled(kind)
