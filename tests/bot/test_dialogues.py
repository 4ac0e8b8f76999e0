"""The bot's dialogue storage (``bot.dialogues``) on a real redis-server of this test's own,
through the real bot on the fake Bot API: Redis stopped while a «Начать новое?» waits is
an outage the user is told of like any other, and the dialogue goes on once it is back.
And on the zero-config demo's fakeredis, which aiogram's backend also takes."""

from __future__ import annotations

import asyncio
from pathlib import Path

from aiogram.fsm.storage.base import StorageKey

from bot.dialogues import dialogue_storage
from core.texts import Run, tr
from storage import Storage, free_port
from storage.errors import translate_errors
from storage.redis_client import open_redis
from tests.bot.support import running_bot
from tests.bot.test_new_command_and_edits import FULL, PARTIAL, says
from tests.fakes.telegram import FakeTelegram
from tests.support.fresh_storage import fresh_storage
from tests.support.servers import redis_argv, restartable


async def chat_let_go(storage: Storage, chat_id: int) -> None:
    """Wait until the update that asked has let go of its chat: a lock left in Redis by
    the outage would hold the next update up until the lock expires (a minute)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    while await storage.redis.exists(f"clubman:lock:chat:{chat_id}"):
        assert loop.time() < deadline, "the chat's lock was never released"
        await asyncio.sleep(0.01)


async def test_redis_down_while_a_dialogue_waits_is_said_politely_and_it_goes_on(
    tg: FakeTelegram, secantus_uri: str, tmp_path: Path
) -> None:
    port = free_port()
    argv = redis_argv(tmp_path, port, keep_data=True)  # the held text outlives the stop
    with restartable(argv, port, tmp_path / "redis.log") as redis:
        url = f"redis://127.0.0.1:{port}/0"
        async with fresh_storage(secantus_uri, url, tmp_path) as storage:
            user = tg.user(1, "Анна", language_code="ru")
            async with running_bot(tg, storage):
                await user.send(PARTIAL)
                await user.wait_for_message(says("Для какого клуба?"))
                await user.send(FULL)
                ask = await user.wait_for_message(says("Начать новое?"))
                await chat_let_go(storage, user.id)
                redis.stop()
                await user.send("/help")  # its dialogue state cannot be read
                down = await user.wait_for_message(lambda m: m.message_id > ask.message_id)
                redis.start()
                await user.wait_for_answer(await user.tap("Да, новое", message_id=ask.message_id))
                cancelled = await user.wait_for_message(says("Отменено"))
    assert down.text == tr(Run.TEMPORARILY_DOWN, "ru")  # not the apology for a bug
    assert cancelled.text == "Отменено: Бронирование."


async def test_the_zero_config_fakeredis_keeps_a_dialogue_under_its_prefix_with_a_ttl() -> None:
    async with open_redis(None) as redis:  # no REDIS_URL: storage's fakeredis
        dialogues = dialogue_storage(redis, ttl_seconds=60, translate=translate_errors)
        key = StorageKey(bot_id=7, chat_id=5, user_id=5)
        await dialogues.set_state(key, "LoginForm:password")
        await dialogues.set_data(key, {"username": "chess"})
        await dialogues.close()  # the dispatcher stopping: the client stays the app's
        assert await dialogues.get_state(key) == "LoginForm:password"
        assert await dialogues.get_data(key) == {"username": "chess"}
        assert sorted(await redis.keys("*")) == [
            b"clubman:fsm:7:5:5:data",
            b"clubman:fsm:7:5:5:state",
        ]
        assert 0 < await redis.ttl("clubman:fsm:7:5:5:state") <= 60
