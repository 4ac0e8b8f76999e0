"""Response cache: keys from provider, model and the exact request + schema."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import structlog
from pydantic import BaseModel, ValidationError

from core.llm.models import LLMRequest
from core.llm.ports import ResponseCache

__all__ = ["CachedAnswer", "SafeCache", "cache_key"]

log = structlog.get_logger(__name__)


def cache_key(provider: str, model: str, request: LLMRequest, json_schema: dict[str, Any]) -> str:
    """``llm:<provider>:<model>:<sha256>``; who asks (user, chat, run) is not part of the
    answer, so not hashed."""
    payload = {
        "request": request.model_dump(mode="json", exclude={"user_id", "chat_id", "run_id"}),
        "schema": json_schema,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    digest = hashlib.sha256(blob.encode()).hexdigest()
    return f"llm:{provider}:{model}:{digest}"


class CachedAnswer(BaseModel):
    text: str
    input_tokens: int = 0
    output_tokens: int = 0


class SafeCache:
    """Wraps a ``ResponseCache`` so that a broken backend is a miss, never a crash."""

    def __init__(self, cache: ResponseCache | None, *, ttl_seconds: int) -> None:
        self._cache = cache if ttl_seconds > 0 else None
        self._ttl = ttl_seconds

    async def get(self, key: str) -> CachedAnswer | None:
        if self._cache is None:
            return None
        try:
            raw = await self._cache.get(key)
        except Exception as exc:  # a cache is an optimisation: log and carry on
            log.warning("llm.cache_get_failed", error=type(exc).__name__)
            return None
        if raw is None:
            return None
        try:
            return CachedAnswer.model_validate_json(raw)
        except ValidationError:
            log.warning("llm.cache_entry_corrupt", key=key)
            return None

    async def set(self, key: str, answer: CachedAnswer) -> None:
        if self._cache is None:
            return
        try:
            await self._cache.set(key, answer.model_dump_json().encode(), self._ttl)
        except Exception as exc:  # a cache is an optimisation: log and carry on
            log.warning("llm.cache_set_failed", error=type(exc).__name__)
