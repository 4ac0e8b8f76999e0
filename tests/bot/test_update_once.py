"""Every update is handled once: a webhook update Telegram delivers again, and an update
polled again after a restart (the offset was never confirmed), start nothing a second time
and get no second answer. The request is complete, so a second handling would book again."""

from __future__ import annotations

from typing import Any

from app.run import serve_webhook
from storage import Storage
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram, SimUser
from tests.fakes.telegram.testing import free_port
from tests.support.scenarios import TrackedScenario, with_help

REQUEST = "забронируй аудиторию завтра с 10 до 12"
DONE = "Готово:"


def count(user: SimUser, part: str) -> int:
    return sum(part in (m.text or "") for m in user.messages)


async def settled(user: SimUser) -> None:
    """Everything sent before is handled: a chat's updates are handled in order, so once a
    later /help is answered, so are they."""
    seen = count(user, "/bookings")
    await user.send("/help")
    await user.wait_for_message(lambda _: count(user, "/bookings") > seen)


async def test_a_webhook_update_delivered_twice_is_handled_once(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(5, "Анна", language_code="ru")
    booker = TrackedScenario()
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/hook"
    scenarios = with_help(booker)  # /help, which lists /bookings, is the barrier
    async with (
        running_bot(tg, storage, polling=False, scenarios=scenarios) as app,
        serve_webhook(app, url=url, host="127.0.0.1", port=port),
    ):
        await user.send(REQUEST)
        await user.wait_for_message(lambda m: DONE in (m.text or ""))
        update = next(u for u in reversed(tg.delivered_updates) if "message" in u)
        tg.redeliver(update)  # Telegram got no 2xx in time and sends it again
        await settled(user)
        delivered = [u["update_id"] for u in tg.delivered_updates]
    assert delivered.count(update["update_id"]) == 2  # it did arrive twice, and got a 2xx
    assert count(user, DONE) == 1
    assert booker.executed == ["prepare", "confirm?", "finish"]
    assert [r.scenario for r in await storage.runs.recent(chat_id=5)] == [booker.name]


async def test_an_update_polled_again_after_a_restart_is_handled_once(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(6, "Анна", language_code="ru")
    booker = TrackedScenario()
    scenarios = with_help(booker)  # /help, which lists /bookings, is the barrier
    async with running_bot(tg, storage, scenarios=scenarios):
        sent = await user.send(REQUEST)
        await user.wait_for_message(lambda m: DONE in (m.text or ""))
    polled = [u for c in tg.calls_of("getUpdates") for u in c.response.get("result") or []]
    update: dict[str, Any] = next(
        u for u in polled if u.get("message", {}).get("message_id") == sent["message_id"]
    )
    tg.redeliver(update)  # the process died before its offset was confirmed
    async with running_bot(tg, storage, scenarios=scenarios):
        await settled(user)
    assert count(user, DONE) == 1
    assert booker.executed == ["prepare", "confirm?", "finish"]
    assert [r.scenario for r in await storage.runs.recent(chat_id=6)] == [booker.name]
