"""Webhook mode end to end: the fake server POSTs updates with the secret token header;
requests without it (or with a wrong one) are refused."""

from __future__ import annotations

import aiohttp
import pytest

from app.run import serve_webhook
from storage import Storage
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.testing import free_port

UPDATE = {
    "update_id": 777,
    "message": {
        "message_id": 1,
        "date": 1,
        "chat": {"id": 1, "type": "private"},
        "from": {"id": 1, "is_bot": False, "first_name": "Mallory"},
        "text": "/help",
    },
}


async def test_webhook_mode_serves_the_whole_flow(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/hook"
    async with (
        running_bot(tg, storage, polling=False) as app,
        serve_webhook(app, url=url, host="127.0.0.1", port=port),
    ):
        await user.send("/start")
        greeting = await user.wait_for_message()
        await user.send("забронируй аудиторию")
        await user.wait_for_message(lambda m: "Шахматы" in m.labels)
        answer = await user.wait_for_answer(await user.tap("Шахматы"))
        done = await user.wait_for_message(lambda m: "Забронирована" in (m.text or ""))
        seen = len(user.messages)
        async with aiohttp.ClientSession() as http:
            async with http.post(url, json=UPDATE) as missing:
                assert missing.status == 401
            headers = {"X-Telegram-Bot-Api-Secret-Token": "guessed"}
            async with http.post(url, json=UPDATE, headers=headers) as wrong:
                assert wrong.status == 401
        assert len(user.messages) == seen  # nothing answered the forged updates
        assert len(tg.delivered_updates) == 3  # they came by webhook, not by polling
    assert "Анна" in (greeting.text or "")
    assert answer.text == "Принято: Шахматы"
    assert "«Шахматы»" in (done.text or "")
    hook = tg.calls_of("setWebhook")[0].params
    assert hook["url"] == url and len(hook["secret_token"]) >= 32


async def test_bodies_that_are_no_update_get_400_and_nothing_is_handled(
    tg: FakeTelegram, storage: Storage, caplog: pytest.LogCaptureFixture
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    port = free_port()
    url = f"http://127.0.0.1:{port}/telegram/hook"
    nested = "[" * 100_000 + "]" * 100_000  # the JSON parser's recursion runs out
    bodies = [b"", b"{not json", nested.encode(), b"[]", b'{"update_id": "seven"}', b"null"]
    async with (
        running_bot(tg, storage, polling=False) as app,
        serve_webhook(app, url=url, host="127.0.0.1", port=port),
    ):
        secret = tg.calls_of("setWebhook")[0].params["secret_token"]
        headers = {"X-Telegram-Bot-Api-Secret-Token": secret, "Content-Type": "application/json"}
        async with aiohttp.ClientSession() as http:
            for body in bodies:
                async with http.post(url, data=body, headers=headers) as response:
                    assert response.status == 400, body[:20]
            async with http.post(url, json=UPDATE, headers=headers) as fine:
                assert fine.status == 200  # a real update still goes through
        await user.send("/help")
        await user.wait_for_message()
    assert [c.method for c in tg.calls if c.method == "sendMessage"] == ["sendMessage"] * 2
    assert "Task exception was never retrieved" not in caplog.text
    assert "Traceback" not in caplog.text
