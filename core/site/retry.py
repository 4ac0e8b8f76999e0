"""What a site session tells of the transient failures it absorbs (any job's adapter)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from pydantic import BaseModel

__all__ = ["OnRetry", "PortalRetry"]


class PortalRetry(BaseModel):
    """A transient failure the session is about to try again (``attempt`` failed)."""

    action: str
    attempt: int
    reason: str  # e.g. "HTTP 500 at /login"; never a credential


# Told of every retry, so a run's timeline and the metrics see what the adapter absorbed.
OnRetry = Callable[[PortalRetry], Awaitable[None]]
