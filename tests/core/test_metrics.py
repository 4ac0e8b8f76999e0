"""``core.metrics``: what each event adds, read back from the exposition text a scrape
returns; every ``Metrics`` has a registry of its own."""

from __future__ import annotations

from prometheus_client.parser import text_string_to_metric_families

from core.brain import LLMCalled
from core.events import (
    ContextAcquired,
    PortalRetried,
    RunFinished,
    StepFailed,
    StepSucceeded,
)
from core.metrics import Metrics


def value(metrics: Metrics, sample: str, **labels: str) -> float:
    """A sample's value in the scraped text; 0 when it is not there (yet)."""
    for family in text_string_to_metric_families(metrics.exposition().decode()):
        for found in family.samples:
            if found.name == sample and found.labels == labels:
                return float(found.value)
    return 0.0


async def test_runs_steps_and_portal_errors_are_counted_from_events() -> None:
    metrics = Metrics()
    await metrics.observe(StepSucceeded(step="login", result={}, duration_ms=1500.0))
    await metrics.observe(PortalRetried(action="вход", attempt=1, reason="HTTP 500 at /login"))
    await metrics.observe(PortalRetried(action="вход", attempt=2, reason="timeout: 15000ms"))
    await metrics.observe(
        StepFailed(step="book", error="…", error_kind="PortalUnavailable", portal=True)
    )
    await metrics.observe(StepFailed(step="book", error="crashed", error_kind="crashed"))
    await metrics.observe(RunFinished(status="failed", scenario="book_rooms"))

    steps = "clubman_step_duration_seconds"
    assert value(metrics, f"{steps}_count", step="login", outcome="done") == 1
    assert value(metrics, f"{steps}_sum", step="login", outcome="done") == 1.5
    assert value(metrics, f"{steps}_count", step="book", outcome="failed") == 2
    errors = "clubman_portal_errors_total"
    assert value(metrics, errors, kind="http_500") == 1
    assert value(metrics, errors, kind="timeout") == 1
    assert value(metrics, errors, kind="PortalUnavailable") == 1
    assert value(metrics, errors, kind="crashed") == 0  # our crash, not the site's
    assert value(metrics, "clubman_runs_total", scenario="book_rooms", outcome="failed") == 1


async def test_llm_calls_tokens_and_cost_by_provider() -> None:
    metrics = Metrics()
    paid = LLMCalled(provider="anthropic", model="m", purpose="brain",
                     input_tokens=1200, output_tokens=80, cost_usd=0.0016, ok=True)  # fmt: skip
    await metrics.observe(paid)
    await metrics.observe(
        LLMCalled(provider="openai", model="m", purpose="brain", ok=False, error_kind="server")
    )
    assert value(metrics, "clubman_llm_calls_total", provider="anthropic", outcome="ok") == 1
    assert value(metrics, "clubman_llm_calls_total", provider="openai", outcome="server") == 1
    tokens = "clubman_llm_tokens_total"
    assert value(metrics, tokens, provider="anthropic", direction="input") == 1200
    assert value(metrics, tokens, provider="anthropic", direction="output") == 80
    assert value(metrics, "clubman_llm_cost_usd_total", provider="anthropic") == 0.0016


async def test_the_bots_figures_and_the_wait_for_a_context() -> None:
    metrics = Metrics()
    metrics.update_handled("message")
    metrics.update_handled("message")
    metrics.throttled("SendMessage")
    await metrics.observe(ContextAcquired(wait_ms=2500.0, queued=True))
    assert value(metrics, "clubman_updates_handled_total", type="message") == 2
    assert value(metrics, "clubman_telegram_throttled_total", method="SendMessage") == 1
    assert value(metrics, "clubman_browser_context_wait_seconds_count") == 1
    assert value(metrics, "clubman_browser_context_wait_seconds_bucket", le="5.0") == 1
    assert value(metrics, "clubman_browser_context_wait_seconds_bucket", le="1.0") == 0


def test_two_metrics_share_nothing() -> None:
    first, second = Metrics(), Metrics()
    first.update_handled("message")
    assert value(first, "clubman_updates_handled_total", type="message") == 1
    assert value(second, "clubman_updates_handled_total", type="message") == 0
