"""``/metrics`` scraped over HTTP as Prometheus would: on the webhook's server while the
real bot books through the reference portal (Chromium, storage, fake Telegram), and on
``--metrics-port`` in long-polling mode."""

from __future__ import annotations

import aiohttp
from prometheus_client.parser import text_string_to_metric_families
from pydantic import SecretStr

from app.run import serve_metrics, serve_webhook
from core.clock import ManualClock
from core.metrics import Metrics
from storage import Storage
from tests.bot.support import product_bot, running_bot
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.testing import free_port
from tests.support.refportal import refportal_system

WAIT = 90.0  # Chromium on a busy two-core machine

Scrape = dict[tuple[str, frozenset[tuple[str, str]]], float]


async def scrape(url: str) -> Scrape:
    async with aiohttp.ClientSession() as http, http.get(url) as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain")
        text = await response.text()
    return {
        (s.name, frozenset(s.labels.items())): float(s.value)
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def at(scraped: Scrape, name: str, **labels: str) -> float:
    return scraped.get((name, frozenset(labels.items())), 0.0)


async def test_webhook_metrics_move_after_a_booking(
    tg: FakeTelegram, storage: Storage, clock: ManualClock, portal_url: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    port = free_port()
    hook = f"http://127.0.0.1:{port}/telegram/hook"
    metrics_url = f"http://127.0.0.1:{port}/metrics"
    metrics = Metrics()
    async with (
        product_bot(tg, storage, refportal_system(portal_url), clock=clock, polling=False,
                    metrics=metrics) as app,
        serve_webhook(app, url=hook, host="127.0.0.1", port=port),
    ):  # fmt: skip
        before = await scrape(metrics_url)
        tg.inject_error(method="sendMessage", error_code=429, retry_after=1)
        await user.send("забронируй 205 в Чайковского в четверг с 18 до 20")
        await user.wait_for_message(lambda m: "Забронирована 205" in (m.text or ""), timeout=WAIT)
        after = await scrape(metrics_url)

    updates = "clubman_updates_handled_total"
    assert at(after, updates, type="message") == at(before, updates, type="message") + 1
    assert at(before, "clubman_runs_total", scenario="book_rooms", outcome="done") == 0
    assert at(after, "clubman_runs_total", scenario="book_rooms", outcome="done") == 1
    steps = "clubman_step_duration_seconds_count"
    for step in ("login", "find", "book", "verify"):
        assert at(after, steps, step=step, outcome="done") == 1, step
    assert at(after, "clubman_browser_context_wait_seconds_count") >= 1
    assert at(after, "clubman_telegram_throttled_total", method="SendMessage") == 1


async def test_polling_serves_metrics_on_their_own_port(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    port = free_port()
    metrics = Metrics()
    async with (
        running_bot(tg, storage, metrics=metrics),
        serve_metrics(metrics, host="127.0.0.1", port=port),
    ):
        await user.send("/help")
        await user.wait_for_message()
        scraped = await scrape(f"http://127.0.0.1:{port}/metrics")
    assert at(scraped, "clubman_updates_handled_total", type="message") == 1


async def test_metrics_on_a_public_interface_take_a_bearer_token_or_are_not_served() -> None:
    metrics = Metrics()
    port = free_port()
    url = f"http://127.0.0.1:{port}/metrics"
    async with (
        serve_metrics(metrics, host="0.0.0.0", port=port),
        aiohttp.ClientSession() as http,
        http.get(url) as response,
    ):
        assert response.status == 404  # no token set: not served on a public interface
    port = free_port()
    url = f"http://127.0.0.1:{port}/metrics"
    token = SecretStr("scrape-me")
    async with (
        serve_metrics(metrics, host="0.0.0.0", port=port, token=token),
        aiohttp.ClientSession() as http,
    ):
        for headers in ({}, {"Authorization": "Bearer guessed"}, {"Authorization": "scrape-me"}):
            async with http.get(url, headers=headers) as response:
                assert response.status == 401, headers
        async with http.get(url, headers={"Authorization": "Bearer scrape-me"}) as response:
            assert response.status == 200
            assert "clubman_" in await response.text()
