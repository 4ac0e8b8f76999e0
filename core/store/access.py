"""What the agent API (the MCP server) keeps: access tokens and confirmations.

Neither keeps a secret: a token or confirmation is stored as the SHA-256 of the random
string handed out once, so a copy of the database lets nobody in or confirm anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Protocol

from pydantic import BaseModel, Field

from core.store.records import utcnow

__all__ = [
    "AccessTokenRecord",
    "AccessTokenStore",
    "ConfirmAction",
    "ConfirmationRecord",
    "ConfirmationStore",
]

# What a confirmed plan does, as the job that offered it names it («book», «cancel»): a
# token confirms that action only.
ConfirmAction = str


class AccessTokenRecord(BaseModel):
    """A bearer token the bot's owner issued to one Telegram user (``clubman mcp-token``)."""

    token_hash: str  # hex SHA-256 of the token
    user_id: int
    created_at: datetime = Field(default_factory=utcnow)
    revoked_at: datetime | None = None


class ConfirmationRecord(BaseModel):
    """A plan offered to a user, waiting for their confirmation; bound to the user, the
    action and the exact request (``fingerprint``). ``run_id`` is the id the confirmed
    run gets: a second confirmation finds that run instead of starting another."""

    token_hash: str
    user_id: int
    action: ConfirmAction
    fingerprint: str  # hex SHA-256 of the request the plan answers
    plan_json: str  # the plan as shown (the agent API's own model, as JSON)
    run_id: str
    created_at: datetime = Field(default_factory=utcnow)
    expires_at: datetime


class AccessTokenStore(Protocol):
    async def add(self, record: AccessTokenRecord) -> None: ...

    async def find(self, token_hash: str) -> AccessTokenRecord | None: ...

    async def revoke_user(self, user_id: int, *, at: datetime) -> int:
        """Revoke every live token of the user; how many were live."""

    async def for_user(self, user_id: int) -> Sequence[AccessTokenRecord]: ...


class ConfirmationStore(Protocol):
    async def add(self, record: ConfirmationRecord) -> None: ...

    async def find(self, token_hash: str) -> ConfirmationRecord | None: ...
