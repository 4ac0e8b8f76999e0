"""Where the bot's dialogues wait between messages: aiogram's ``RedisStorage`` on the app's
Redis, so a restart loses neither a half-done /login nor a text held back behind
«Начать новое?» (the runs they belong to are in MongoDB and outlive it too).

The client is the one ``storage`` opened (fakeredis in the zero-config demo, where a
restart forgets everything anyway): this storage never closes it, and it turns the
driver's errors into ``StorageError`` with the translation storage gives, so an update
during a Redis outage is answered «temporarily down», as the rest of the bot answers it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, Any

from aiogram.fsm.storage.base import BaseStorage, DefaultKeyBuilder, StateType, StorageKey
from aiogram.fsm.storage.redis import RedisStorage

if TYPE_CHECKING:
    # The driver's client as aiogram's backend names it: the bot imports no driver itself
    # (pyproject's import contracts); storage opens the client and closes it.
    from aiogram.fsm.storage.redis import Redis

__all__ = ["DIALOGUE_PREFIX", "Translate", "dialogue_storage"]

# Beside storage's ``clubman:claim:``, ``clubman:cache:``…; the bot's id comes next, so two
# bots on one Redis keep their own dialogues: clubman:fsm:<bot>:<chat>:<user>:state|data.
DIALOGUE_PREFIX = "clubman:fsm"

# Re-raises a driver error from what it names (e.g. "reading a dialogue") as a
# ``StorageError`` (``storage.errors.translate_errors``).
Translate = Callable[[str], AbstractContextManager[None]]


class _AppRedisStorage(RedisStorage):
    def __init__(
        self,
        redis: Redis,
        *,
        key_builder: DefaultKeyBuilder,
        ttl_seconds: int,
        translate: Translate,
    ) -> None:
        super().__init__(
            redis, key_builder=key_builder, state_ttl=ttl_seconds, data_ttl=ttl_seconds
        )
        self._translate = translate

    async def set_state(self, key: StorageKey, state: StateType = None) -> None:
        with self._translate("saving a dialogue's state"):
            await super().set_state(key, state)

    async def get_state(self, key: StorageKey) -> str | None:
        with self._translate("reading a dialogue's state"):
            return await super().get_state(key)

    async def set_data(self, key: StorageKey, data: Mapping[str, Any]) -> None:
        with self._translate("saving a dialogue's data"):
            await super().set_data(key, data)

    async def get_data(self, key: StorageKey) -> dict[str, Any]:
        with self._translate("reading a dialogue's data"):
            return await super().get_data(key)

    async def close(self) -> None:
        # aiogram's closes the client's pool when the dispatcher stops, cutting the
        # connections the app's locks and claims are using: storage closes it, last.
        return None


def dialogue_storage(redis: Redis, *, ttl_seconds: int, translate: Translate) -> BaseStorage:
    """The dispatcher's FSM storage on ``redis``. A dialogue untouched for ``ttl_seconds``
    is forgotten (state and data alike, each counted from its last write): given as long
    as a question may wait (``RUNNER__WAITING_TTL_SECONDS``, a day), after which the
    question a held-back text stood behind has expired, and a /login left half-done is
    abandoned rather than taking next week's message for a password."""
    return _AppRedisStorage(
        redis,
        key_builder=DefaultKeyBuilder(prefix=DIALOGUE_PREFIX, with_bot_id=True),
        ttl_seconds=ttl_seconds,
        translate=translate,
    )
