"""The app factory: everything the product needs, opened at start-up and closed at
shutdown, for any view (Telegram or terminal)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from core.app import build_core
from core.manager import NLUManager
from core.output import OutputSink
from core.settings import Settings
from storage import Storage, open_storage

__all__ = ["open_app", "open_settings_storage"]


@asynccontextmanager
async def open_settings_storage(settings: Settings) -> AsyncIterator[Storage]:
    mongo = settings.mongodb_uri.get_secret_value() if settings.mongodb_uri else None
    redis = settings.redis_url.get_secret_value() if settings.redis_url else None
    async with open_storage(
        mongodb_uri=mongo, redis_url=redis, data_dir=settings.data_dir
    ) as storage:
        yield storage


@asynccontextmanager
async def open_app(settings: Settings, sink: OutputSink) -> AsyncIterator[NLUManager]:
    async with (
        open_settings_storage(settings) as storage,
        build_core(settings, storage, sink) as manager,
    ):
        yield manager
