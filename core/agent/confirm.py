"""Two-step changes: a plan is offered with a short-lived confirm token; the token, given
back with the same request, confirms exactly that plan.

The token is bound to the user, the action and the request (its fingerprint) and names
in advance the id of the run that will carry the plan out (``run_id``): confirming twice,
or again after the server was killed, finds that run instead of starting a second one.
Only the token's SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta

from pydantic import BaseModel

from core.agent.access import token_hash
from core.clock import Clock
from core.errors import AgentError
from core.store import ConfirmAction, ConfirmationRecord, ConfirmationStore, new_short_id

__all__ = ["Confirmations", "fingerprint"]


def fingerprint(request: BaseModel) -> str:
    return hashlib.sha256(request.model_dump_json().encode()).hexdigest()


class Confirmations:
    def __init__(
        self, store: ConfirmationStore, *, clock: Clock, ttl: timedelta = timedelta(minutes=10)
    ) -> None:
        self._store = store
        self._clock = clock
        self._ttl = ttl

    async def offer(
        self, *, user_id: int, action: ConfirmAction, request: BaseModel, plan: BaseModel
    ) -> tuple[str, datetime]:
        """A new confirm token for ``plan`` and when it expires."""
        token = "confirm_" + secrets.token_urlsafe(18)
        expires = self._clock.now() + self._ttl
        await self._store.add(
            ConfirmationRecord(
                token_hash=token_hash(token),
                user_id=user_id,
                action=action,
                fingerprint=fingerprint(request),
                plan_json=plan.model_dump_json(),
                run_id=new_short_id(),
                created_at=self._clock.now(),
                expires_at=expires,
            )
        )
        return token, expires

    async def take(
        self, token: str, *, user_id: int, action: ConfirmAction, request: BaseModel
    ) -> ConfirmationRecord:
        """The confirmation ``token`` names, if it is this user's, for this action and
        request. Whether it expired is the caller's to judge: a confirmation whose run
        has started stays good for asking after that run."""
        record = await self._store.find(token_hash(token))
        # Another user's token reads as unknown: nothing says it exists.
        if record is None or record.user_id != user_id:
            raise AgentError("unknown confirm token", hint="ask for a new plan")
        if record.action != action or record.fingerprint != fingerprint(request):
            raise AgentError(
                "this confirm token was issued for another request",
                hint="give the same arguments as when it was issued, or ask for a new plan",
            )
        return record

    def expired(self, record: ConfirmationRecord) -> bool:
        return self._clock.now() >= record.expires_at
