"""Bearer tokens for the agent API: issued per Telegram user by the bot's owner
(``clubman mcp-token``), printed once, stored only as their SHA-256."""

from __future__ import annotations

import hashlib
import secrets

import structlog

from core.clock import Clock
from core.store import AccessTokenRecord, AccessTokenStore

__all__ = ["AccessTokens", "token_hash"]

log = structlog.get_logger("clubman.agent")

# 32 random bytes: guessing is hopeless, so a fast hash (no salt, no stretching) is
# enough to keep a stolen database from being a list of valid tokens.
_TOKEN_BYTES = 32
_PREFIX = "clubman_"  # tells a leaked token apart in a log scanner or a config file


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class AccessTokens:
    def __init__(self, store: AccessTokenStore, *, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    async def issue(self, user_id: int) -> str:
        """A new token for ``user_id``; the caller shows it once, it is never stored."""
        token = _PREFIX + secrets.token_urlsafe(_TOKEN_BYTES)
        await self._store.add(AccessTokenRecord(token_hash=token_hash(token), user_id=user_id))
        log.info("access_token.issued", user_id=user_id)
        return token

    async def user_of(self, token: str) -> int | None:
        """The user a live token belongs to; None for an unknown or revoked one."""
        if not token.startswith(_PREFIX):
            return None
        record = await self._store.find(token_hash(token))
        if record is None or record.revoked_at is not None:
            return None
        return record.user_id

    async def revoke(self, user_id: int) -> int:
        """Revoke every live token of ``user_id``; how many there were."""
        revoked = await self._store.revoke_user(user_id, at=self._clock.now())
        log.info("access_token.revoked", user_id=user_id, count=revoked)
        return revoked
