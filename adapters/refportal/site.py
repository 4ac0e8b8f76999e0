"""What the reference portal is beside its pages: the booking rules it keeps but does not
show, and what a brain-chosen action may send a change to."""

from __future__ import annotations

from datetime import time

from core.site.models import Rules

__all__ = ["MAY_CHANGE", "RULES"]

# The portal's rules (portal/rules.py); its pages do not state them.
RULES = Rules(
    opens=time(8, 0), closes=time(22, 0), step_minutes=30, longest_minutes=240, horizon_days=14
)

# What a brain-chosen action may send a change to, per step (paths; anything else that is
# not a read is blocked): logging in and acknowledging the rules notice; booking.
MAY_CHANGE: dict[str, tuple[str, ...]] = {"login": ("/login", "/notice"), "book": ("/book",)}
