"""Prometheus metrics: one ``Metrics`` object owns its own ``CollectorRegistry`` (never
prometheus_client's global one), built by the composition root and passed down.

Most figures come from the event bus (``Metrics.observe`` is a subscriber): runs, steps,
portal errors, LLM calls and the wait for a browser context. The bot, which sees
updates and Telegram's 429s before any event exists, calls ``update_handled`` and
``throttled`` itself. ``exposition`` is the text a scrape of ``/metrics`` returns.
"""

from __future__ import annotations

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Histogram
from prometheus_client.exposition import generate_latest

from core.brain.events import LLMCalled
from core.events import (
    BaseEvent,
    ContextAcquired,
    PortalRetried,
    RunFinished,
    StepFailed,
    StepSucceeded,
)

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = CONTENT_TYPE_LATEST

# Steps are page loads and form posts (a fraction of a second to tens of seconds with
# retries); a context is free at once or after another run's whole booking.
_STEP_BUCKETS = (0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 40, 80, 160)
_WAIT_BUCKETS = (0.01, 0.05, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300)


class Metrics:
    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self._updates = Counter(
            "clubman_updates_handled", "Telegram updates handled, by type", ["type"], registry=r
        )
        self._runs = Counter(
            "clubman_runs", "Scenario runs ended, by scenario and outcome",
            ["scenario", "outcome"], registry=r,
        )  # fmt: skip
        self._steps = Histogram(
            "clubman_step_duration_seconds", "Scenario step durations, by step and outcome",
            ["step", "outcome"], buckets=_STEP_BUCKETS, registry=r,
        )  # fmt: skip
        self._portal_errors = Counter(
            "clubman_portal_errors", "Booking-site failures, by kind (retried ones too)",
            ["kind"], registry=r,
        )  # fmt: skip
        self._llm_calls = Counter(
            "clubman_llm_calls", "LLM calls, by provider and outcome",
            ["provider", "outcome"], registry=r,
        )  # fmt: skip
        self._llm_tokens = Counter(
            "clubman_llm_tokens", "LLM tokens, by provider and direction",
            ["provider", "direction"], registry=r,
        )  # fmt: skip
        self._llm_cost = Counter(
            "clubman_llm_cost_usd", "LLM spend in US dollars, by provider", ["provider"], registry=r
        )
        self._context_wait = Histogram(
            "clubman_browser_context_wait_seconds", "Time a run waited for a browser context",
            buckets=_WAIT_BUCKETS, registry=r,
        )  # fmt: skip
        self._throttled = Counter(
            "clubman_telegram_throttled", "Telegram 429 answers (flood control), by method",
            ["method"], registry=r,
        )  # fmt: skip

    def update_handled(self, kind: str) -> None:
        self._updates.labels(type=kind).inc()

    def throttled(self, method: str) -> None:
        self._throttled.labels(method=method).inc()

    async def observe(self, event: BaseEvent) -> None:
        """An ``EventBus`` subscriber."""
        match event:
            case RunFinished():
                self._runs.labels(scenario=event.scenario, outcome=event.status).inc()
            case StepSucceeded():
                self._steps.labels(step=event.step, outcome="done").observe(
                    event.duration_ms / 1000
                )
            case StepFailed():
                self._steps.labels(step=event.step, outcome="failed").observe(
                    event.duration_ms / 1000
                )
                if event.portal:
                    self._portal_errors.labels(kind=event.error_kind).inc()
            case PortalRetried():
                self._portal_errors.labels(kind=_retry_kind(event.reason)).inc()
            case ContextAcquired():
                self._context_wait.observe(event.wait_ms / 1000)
            case LLMCalled():
                self._llm(event)
            case _:
                pass

    def _llm(self, event: LLMCalled) -> None:
        outcome = "cached" if event.cached else "ok" if event.ok else (event.error_kind or "error")
        self._llm_calls.labels(provider=event.provider, outcome=outcome).inc()
        self._llm_tokens.labels(provider=event.provider, direction="input").inc(event.input_tokens)
        self._llm_tokens.labels(provider=event.provider, direction="output").inc(
            event.output_tokens
        )
        self._llm_cost.labels(provider=event.provider).inc(event.cost_usd)

    def exposition(self) -> bytes:
        return generate_latest(self.registry)


def _retry_kind(reason: str) -> str:
    """A bounded label from the adapter's reason ("HTTP 500 at /login", "timeout: ...")."""
    head = reason.split(" at ", 1)[0].split(":", 1)[0].strip()
    if head.startswith("HTTP "):
        return "http_" + head[5:].strip()
    return head if head in ("timeout", "network") else "transient"
