"""The mark a booking run leaves on the portal: its id in the booking's purpose."""

from __future__ import annotations

__all__ = ["PURPOSE", "purpose_for", "run_of"]

PURPOSE = "Встреча студенческого клуба"


def purpose_for(run_id: str) -> str:
    """The purpose written on the portal; the run id in it marks the run's own bookings,
    so a retried step finds what it booked and never mistakes another run's booking
    (another user's on the shared club account) for its own."""
    return f"{PURPOSE} · #{run_id}"


def run_of(purpose: str) -> str:
    """The run whose mark ``purpose_for`` wrote into ``purpose``; "" for other bookings."""
    head, mark, run_id = purpose.strip().rpartition(" · #")
    return run_id if mark and head == PURPOSE else ""
