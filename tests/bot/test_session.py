"""The Bot API session keeps aiogram's response models alive across garbage collections."""

from __future__ import annotations

import gc
import weakref

from aiogram.methods.base import Response
from aiogram.types import Message

from bot.session import BotSession


async def test_response_models_survive_garbage_collection_regression() -> None:
    # The bug: pydantic caches Response[Message] weakly, so aiogram rebuilt it (~10 ms)
    # after every collection; the session now holds one per method it uses.
    session = BotSession()
    try:
        model = weakref.ref(Response[Message])
        gc.collect()
        assert model() is not None
        assert model() is Response[Message]
    finally:
        await session.close()
