"""Who may act on what, decided in one place for every view.

A request (a run) belongs to the member who asked it; a booking to the request that made
it (its run mark says which) and so to that member; a booking made outside the bot has no
such owner and is the administrators'. A member answers, changes and cancels only what is
theirs; an administrator (a group's administrator, as the view knows, or a user marked so
in settings, ``TELEGRAM__ADMINS``) may act on anything. Views say who is acting and
whether they administer the chat; ``Roles`` adds the club's administrators and makes the
``Actor``; the core asks ``may_act`` before it lets an answer, a cancel or a listing through.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["Actor", "Roles", "may_act"]


@dataclass(frozen=True, slots=True)
class Actor:
    user_id: int
    admin: bool = False


def may_act(actor: Actor, owner_id: int | None) -> bool:
    """Whether ``actor`` may act on what ``owner_id`` owns (``None``: made outside the bot)."""
    return actor.admin or (owner_id is not None and owner_id == actor.user_id)


class Roles:
    """The club's administrators, as settings name them."""

    def __init__(self, admins: Iterable[int] = ()) -> None:
        self._admins = frozenset(admins)

    def actor(self, user_id: int, *, chat_admin: bool = False) -> Actor:
        """``user_id`` acting; ``chat_admin``: the view knows they administer the chat."""
        return Actor(user_id, admin=chat_admin or user_id in self._admins)
