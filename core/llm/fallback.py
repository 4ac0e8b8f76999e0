"""``FallbackLLM``: providers in order, retries, timeouts, cache, budget and accounting."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import structlog

from core.llm.budget import Budget
from core.llm.cache import CachedAnswer, SafeCache, cache_key
from core.llm.errors import (
    ErrorKind,
    InvalidOutput,
    LLMBudgetExceeded,
    LLMUnavailable,
    ProviderCallError,
    ProviderFailure,
)
from core.llm.models import LLMCallRecord, LLMRequest, LLMResult, RawCompletion, T, Validator
from core.llm.parse import parse_answer
from core.llm.ports import OnCall, Sleep
from core.llm.protocol import ChatProvider
from core.llm.retry import RetryPolicy

__all__ = ["FallbackLLM"]

log = structlog.get_logger(__name__)


class FallbackLLM:
    """The app's ``LLM``. Raises only ``LLMUnavailable`` or ``LLMBudgetExceeded``.

    One ``complete``: cache (any provider's entry) → budget check → for each provider in
    order: call with a per-call timeout; on 429/5xx/529/timeout/connection errors retry up
    to ``max_retries`` times with backoff (``retry-after`` honoured, capped); on an answer
    that is not JSON, fails the schema or is rejected by ``validate``, ask once more with
    the problem fed back, then move on. Every attempt becomes an ``LLMCallRecord``.
    """

    def __init__(
        self,
        providers: Sequence[ChatProvider],
        *,
        budget: Budget,
        on_call: OnCall,
        cache: SafeCache | None = None,
        policy: RetryPolicy | None = None,
        timeout_seconds: float = 30.0,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        if not providers:
            raise ValueError("FallbackLLM needs at least one provider")
        self._providers = tuple(providers)
        self._budget = budget
        self._on_call = on_call
        self._cache = cache or SafeCache(None, ttl_seconds=0)
        self._policy = policy or RetryPolicy()
        self._timeout = timeout_seconds
        self._sleep = sleep

    @property
    def providers(self) -> tuple[ChatProvider, ...]:
        return self._providers

    def __repr__(self) -> str:
        return f"FallbackLLM(providers={[p.name for p in self._providers]!r})"

    async def complete(
        self, request: LLMRequest, schema: type[T], *, validate: Validator[T] | None = None
    ) -> LLMResult[T]:
        json_schema = schema.model_json_schema()
        keys = {p.name: cache_key(p.name, p.model, request, json_schema) for p in self._providers}
        if (hit := await self._from_cache(request, schema, validate, keys)) is not None:
            return hit  # free, so served even over budget
        try:
            await self._budget.check(request.user_id)
        except LLMBudgetExceeded:
            await self._emit(request, provider="", model="", ok=False, kind=ErrorKind.BUDGET)
            raise
        failures: list[ProviderFailure] = []
        for provider in self._providers:
            try:
                result, raw = await self._ask(provider, request, schema, json_schema, validate)
            except ProviderCallError as err:
                failures.append(ProviderFailure(provider.name, err.kind, err.message))
                log.warning("llm.provider_failed", provider=provider.name, kind=err.kind.value)
                continue
            answer = CachedAnswer(
                text=raw.text, input_tokens=raw.input_tokens, output_tokens=raw.output_tokens
            )
            await self._cache.set(keys[provider.name], answer)
            return result
        raise LLMUnavailable(failures)

    async def _from_cache(
        self,
        request: LLMRequest,
        schema: type[T],
        validate: Validator[T] | None,
        keys: dict[str, str],
    ) -> LLMResult[T] | None:
        for provider in self._providers:
            answer = await self._cache.get(keys[provider.name])
            if answer is None:
                continue
            try:
                value = parse_answer(answer.text, schema, provider=provider.name, validate=validate)
            except InvalidOutput:
                continue  # e.g. the validator is stricter now: ask again
            await self._emit(
                request,
                provider=provider.name,
                model=provider.model,
                ok=True,
                cached=True,
                tokens=(answer.input_tokens, answer.output_tokens),
            )
            return LLMResult[T](
                value=value,
                provider=provider.name,
                model=provider.model,
                input_tokens=answer.input_tokens,
                output_tokens=answer.output_tokens,
                cached=True,
            )
        return None

    async def _ask(
        self,
        provider: ChatProvider,
        request: LLMRequest,
        schema: type[T],
        json_schema: dict[str, Any],
        validate: Validator[T] | None,
    ) -> tuple[LLMResult[T], RawCompletion]:
        """One provider: transport retries with backoff, one corrective retry on bad output."""
        attempt = retries = 0
        current = request
        corrected = False
        while True:
            attempt += 1
            started = time.perf_counter()
            try:
                raw = await self._generate(provider, current, schema.__name__, json_schema)
            except ProviderCallError as err:
                latency = (time.perf_counter() - started) * 1000
                await self._emit(
                    request, provider=provider.name, model=provider.model, ok=False,
                    kind=err.kind, latency_ms=latency, attempt=attempt,
                )  # fmt: skip
                if not err.retryable or retries >= self._policy.max_retries:
                    raise
                retries += 1
                delay = self._policy.delay(retries, err.retry_after)
                log.info("llm.retry", provider=provider.name, kind=err.kind.value, delay=delay)
                await self._sleep(delay)
                continue
            latency = (time.perf_counter() - started) * 1000
            cost = provider.price.cost(raw.input_tokens, raw.output_tokens)
            await self._budget.charge(request.user_id, cost)
            tokens = (raw.input_tokens, raw.output_tokens)
            try:
                value = parse_answer(raw.text, schema, provider=provider.name, validate=validate)
            except InvalidOutput as err:
                await self._emit(
                    request, provider=provider.name, model=provider.model, ok=False,
                    kind=err.kind, tokens=tokens, cost_usd=cost, latency_ms=latency,
                    attempt=attempt,
                )  # fmt: skip
                if corrected:
                    raise
                corrected = True
                log.info("llm.invalid_output", provider=provider.name, reason=err.reason)
                current = request.with_feedback(raw.text, err.reason)
                continue
            await self._emit(
                request, provider=provider.name, model=provider.model, ok=True,
                tokens=tokens, cost_usd=cost, latency_ms=latency, attempt=attempt,
            )  # fmt: skip
            result = LLMResult[T](
                value=value,
                provider=provider.name,
                model=provider.model,
                input_tokens=raw.input_tokens,
                output_tokens=raw.output_tokens,
                cost_usd=cost,
                latency_ms=latency,
            )
            return result, raw

    async def _generate(
        self, provider: ChatProvider, request: LLMRequest, name: str, json_schema: dict[str, Any]
    ) -> RawCompletion:
        try:
            async with asyncio.timeout(self._timeout):
                return await provider.generate(
                    request, schema_name=name, json_schema=json_schema, timeout=self._timeout
                )
        except TimeoutError as exc:
            raise ProviderCallError(
                f"no answer within {self._timeout:g}s", provider=provider.name,
                kind=ErrorKind.TIMEOUT,
            ) from exc  # fmt: skip
        except ProviderCallError:
            raise
        except Exception as exc:  # an SDK surprise must not crash the caller: a failure
            log.warning("llm.provider_crashed", provider=provider.name, error=type(exc).__name__)
            raise ProviderCallError(
                f"unexpected {type(exc).__name__}", provider=provider.name, kind=ErrorKind.UNKNOWN
            ) from exc

    async def _emit(
        self,
        request: LLMRequest,
        *,
        provider: str,
        model: str,
        ok: bool,
        kind: ErrorKind | None = None,
        cached: bool = False,
        tokens: tuple[int, int] = (0, 0),
        cost_usd: float = 0.0,
        latency_ms: float = 0.0,
        attempt: int = 1,
    ) -> None:
        record = LLMCallRecord(
            provider=provider,
            model=model,
            purpose=request.purpose,
            user_id=request.user_id,
            chat_id=request.chat_id,
            run_id=request.run_id,
            input_tokens=tokens[0],
            output_tokens=tokens[1],
            cost_usd=cost_usd,
            latency_ms=round(latency_ms, 1),
            cached=cached,
            ok=ok,
            error_kind=kind,
            attempt=attempt,
        )
        try:
            await self._on_call(record)
        except Exception as exc:  # accounting must never break the caller
            log.warning("llm.on_call_failed", error=type(exc).__name__)

    async def aclose(self) -> None:
        for provider in self._providers:
            await provider.close()

    async def __aenter__(self) -> FallbackLLM:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
