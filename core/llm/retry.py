"""Backoff for retryable provider failures: exponential, capped, honouring ``retry-after``."""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["RetryPolicy", "parse_retry_after"]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    max_retries: int = 2
    base_delay: float = 0.5
    max_delay: float = 8.0
    retry_after_cap: float = 20.0

    def delay(self, retry: int, retry_after: float | None) -> float:
        """Seconds to wait before retry number ``retry`` (1-based)."""
        if retry_after is not None:
            return max(0.0, min(retry_after, self.retry_after_cap))
        return min(self.base_delay * 2 ** (retry - 1), self.max_delay)


def parse_retry_after(headers: Mapping[str, str] | None) -> float | None:
    """Seconds from ``retry-after-ms`` or ``retry-after`` (seconds or an HTTP date)."""
    if not headers:
        return None
    lowered = {key.lower(): value for key, value in headers.items()}
    if (millis := lowered.get("retry-after-ms")) is not None:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    raw = lowered.get("retry-after")
    if raw is None:
        return None
    try:
        return float(raw)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
