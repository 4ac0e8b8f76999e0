"""Daily spending limits, per user and in total, kept in an injected ``SpendLedger``."""

from __future__ import annotations

from datetime import UTC, date

import structlog

from core.errors import ClubError
from core.llm.errors import ErrorKind, LLMBudgetExceeded, LLMUnavailable, ProviderFailure
from core.llm.ports import Clock, SpendLedger

__all__ = ["Budget"]

log = structlog.get_logger(__name__)


class Budget:
    """``check`` before calling anyone; ``charge`` after every paid attempt."""

    def __init__(
        self,
        ledger: SpendLedger,
        *,
        total_usd: float | None,
        per_user_usd: float | None,
        clock: Clock,
    ) -> None:
        self._ledger = ledger
        self._total = total_usd
        self._per_user = per_user_usd
        self._clock = clock

    def _today(self) -> date:
        return self._clock().astimezone(UTC).date()

    async def check(self, user_id: int | None) -> None:
        day = self._today()
        try:
            if self._total is not None:
                spent = await self._ledger.spent(user_id=None, day=day)
                if spent >= self._total:
                    raise LLMBudgetExceeded(scope="total", spent_usd=spent, limit_usd=self._total)
            if self._per_user is not None and user_id is not None:
                spent = await self._ledger.spent(user_id=user_id, day=day)
                if spent >= self._per_user:
                    raise LLMBudgetExceeded(scope="user", spent_usd=spent, limit_usd=self._per_user)
        except ClubError:
            raise
        except Exception as exc:  # the ledger's backend is down: do not spend blind
            log.warning("llm.budget_unreadable", error=type(exc).__name__)
            failure = ProviderFailure("budget", ErrorKind.BUDGET, "spend ledger unreadable")
            raise LLMUnavailable([failure]) from exc

    async def charge(self, user_id: int | None, usd: float) -> None:
        if usd <= 0:
            return
        day = self._today()
        try:
            await self._ledger.add(user_id=None, day=day, usd=usd)
            if user_id is not None:
                await self._ledger.add(user_id=user_id, day=day, usd=usd)
        except Exception as exc:  # accounting must not break the answer already paid for
            log.warning("llm.budget_charge_failed", error=type(exc).__name__, usd=usd)
