"""Who may act on what, decided in one place for every view.

A request (a run) belongs to the member who asked it; a booking to the request that made
it (its run mark says which) and so to that member; a booking made outside the bot has no
such owner and is the administrators'. A member answers, changes and cancels only what is
theirs; an administrator (a group's administrator, as the view knows, or a user marked so
in settings) may act on anything. Views say who is acting (``Actor``); the core asks
``may_act`` before it lets an answer, a cancel or a listing through.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Actor", "may_act"]


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: int
    admin: bool = False


def may_act(actor: Actor, owner_id: int | None) -> bool:
    """Whether ``actor`` may act on what ``owner_id`` owns (``None``: made outside the bot)."""
    return actor.admin or (owner_id is not None and owner_id == actor.user_id)
