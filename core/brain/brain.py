"""``Brain``: what a scenario step does when the portal shows something unexpected.

    remembered clicks for this page signature → replayed, checked by the step's probe
    else the LLM (validated against the allowed actions) → click / retry / ask / abort;
        its clicks that did not get past the page are kept too, told to it next time
        (a new cache key) and refused if chosen again: never replayed from the cache
    else (no LLM, LLM down, over budget, invalid answer) → ask the user (safe actions
    + «Отменить»), answered through the runner's pause and resume — once per page and
    run: the page back after its answer stops the run plainly instead of asking again.

LLMs decide, code acts: the brain only returns or executes validated decisions through a
``PageDriver`` (the portal session), and never presses booking or cancelling controls.
What stops harm is the driver: it presses the summarised element itself, and its network
guard blocks every change the step did not declare (``HarmPrevented``). Then the run stops
with a plain message, and nothing is remembered as a way past the page: memory keeps only
clicks that got past the guard (the LLM's blocked ones are kept as tried in vain). Nor is
a click whose read the site answered as a change (a link it redirected: ``release``
says): it got past the page once, but a remembered click is replayed with nobody looking,
and repeating a change unseen is what the guard exists to prevent. Model text meant for
the user passes ``spoken`` or is replaced by a template.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Literal, NoReturn, Protocol

import structlog

from core.brain.choices import (
    ask_about_page,
    asked_before,
    page_answer_keys,
    page_name,
    user_choices,
)
from core.brain.events import BrainConsulted, BrainDecided
from core.brain.memory import BrainMemory
from core.brain.models import BrainDecision, ClickTarget, PageSnapshot, Situation
from core.brain.prompt import SYSTEM, render_situation
from core.brain.speech import spoken
from core.brain.validate import check_decision, is_forbidden, page_signature, present
from core.browser.harm import HarmPrevented
from core.errors import ClubError, LLMError, ScenarioError
from core.events import BaseEvent
from core.llm import LLM, LLMRequest
from core.scenario import StepContext
from core.texts import Page

__all__ = ["Brain", "PageDriver", "PageProbe"]

log = structlog.get_logger("clubman.brain")

# Re-checks the step's expectation: None when the expected page is back, else the page.
PageProbe = Callable[[], Awaitable[PageSnapshot | None]]


class PageDriver(Protocol):
    """Presses exactly the summarised control under the network guard for ``step``;
    raises ``HarmPrevented`` when it refused the control or blocked a request."""

    async def click(self, role: str, name: str, *, step: str = "") -> None: ...
    async def check(self, label: str, *, step: str = "") -> None: ...

    async def release(self) -> Sequence[str]:
        """Take the guard off the actions so far (``NetworkGuard.lift``): windows they
        opened close, the page is blanked; ``HarmPrevented`` for anything blocked since.
        Returns the reads the site answered as changes («GET url»: redirected)."""


class Brain:
    def __init__(self, llm: LLM | None, memory: BrainMemory, *, max_rounds: int = 3) -> None:
        self._llm = llm
        self._memory = memory
        self._max_rounds = max_rounds
        self._used: dict[str, set[str]] = {}  # run id → page answers already applied

    @property
    def has_llm(self) -> bool:
        return self._llm is not None

    def forget_run(self, run_id: str) -> None:
        self._used.pop(run_id, None)

    # --- the LLM --------------------------------------------------------------------

    async def consult(
        self,
        ctx: StepContext[Any],
        situation: Situation,
        *,
        answers: Sequence[str] = (),
        tried: Sequence[ClickTarget] = (),
    ) -> BrainDecision | None:
        """One validated decision from the LLM, or None (no LLM, failure, rejected).
        A click must try something not in ``tried`` (clicks that did not get past the
        page before), whatever a cached answer says."""
        if self._llm is None:
            return None
        labels = list(answers)
        signature = page_signature(situation.page)
        request = LLMRequest.ask(
            SYSTEM,
            render_situation(situation, answers=labels),
            purpose="brain",
            user_id=ctx.user_id,
            chat_id=ctx.chat_id,
            run_id=ctx.run_id,
            max_tokens=600,
        )

        def validate(decision: BrainDecision) -> None:
            check_decision(decision, situation, answers=labels)
            if decision.action == "click" and all(t in tried for t in decision.targets):
                raise ValueError("these clicks were tried on this page before and did not "
                                 "get past it: choose something else")  # fmt: skip

        try:
            result = await self._llm.complete(request, BrainDecision, validate=validate)
        except LLMError as exc:
            await self._emit(ctx, BrainConsulted(step=situation.step, signature=signature,
                                                 ok=False, error=str(exc)[:300]))  # fmt: skip
            return None
        await self._emit(
            ctx,
            BrainConsulted(
                step=situation.step, signature=signature, ok=True, provider=result.provider,
                model=result.model, input_tokens=result.input_tokens,
                output_tokens=result.output_tokens, cost_usd=result.cost_usd,
                latency_ms=result.latency_ms, cached=result.cached,
            ),
        )  # fmt: skip
        try:  # again, whatever the layer below did (a cached answer, a lax validator)
            validate(result.value)
        except ValueError as exc:
            log.warning("brain.rejected", reason=str(exc))
            return None
        return result.value

    async def choose_alternative(self, ctx: StepContext[Any], situation: Situation) -> str | None:
        """An option id from ``situation.alternatives`` the LLM picked, or None: ask the user.

        Raises ``ScenarioError`` when the LLM decides to give up.
        """
        allowed = tuple(a for a in situation.allowed if a in ("alternative", "ask_user", "abort"))
        situation = situation.model_copy(update={"allowed": allowed})
        decision = await self.consult(ctx, situation, answers=list(situation.alternatives.values()))
        if decision is None:
            return None
        await self._decided(ctx, situation.step, decision, "llm")
        if decision.action == "abort":
            raise ScenarioError(spoken(decision.reason) or ctx.tr(Page.COULD_NOT))
        return decision.option_id if decision.action == "alternative" else None

    # --- unexpected pages -------------------------------------------------------------

    async def resolve_page(
        self,
        ctx: StepContext[Any],
        *,
        step: str,
        expected: str,
        page: PageSnapshot,
        driver: PageDriver,
        probe: PageProbe,
        problem: str = "",
    ) -> None:
        """Get past ``page`` or pause/stop the run: returns once ``probe`` says the step's
        page is back; raises ``NeedsAnswer`` (a question) or ``ScenarioError`` (abort, or
        an action the driver stopped as harmful: then that page's memory is dropped)."""
        signature = page_signature(page)
        try:
            await self._resolve(ctx, step, expected, page, driver, probe, problem, signature)
        except HarmPrevented as exc:
            await self._memory.forget(signature)
            log.warning("brain.harm_prevented", step=step, what=list(exc.what))
            await self._emit(ctx, BrainDecided(step=step, action="abort", source="policy",
                                               detail=str(exc)[:300]))  # fmt: skip
            raise ScenarioError(ctx.tr(Page.HARM_STOPPED, what=page_name(page))) from exc

    async def _resolve(
        self,
        ctx: StepContext[Any],
        step: str,
        expected: str,
        page: PageSnapshot,
        driver: PageDriver,
        probe: PageProbe,
        problem: str,
        signature: str,
    ) -> None:
        history = [f"step {name}: done" for name in ctx.results]
        answered = await self._apply_answer(ctx, step, page, driver, probe, signature)
        if answered is None:
            return
        page = answered
        remembered = await self._memory.recall(signature)
        if remembered:
            after = await self._replay(ctx, step, page, remembered, driver, probe)
            if after is None:  # a replay is judged by the same whole window
                if await self._changed(driver, step, remembered):
                    await self._memory.forget(signature)
                return
            await self._memory.forget(signature)
            history.append("remembered clicks did not help: " + _names(remembered))
            page = after
        clicks: list[ClickTarget] = []
        for _ in range(self._max_rounds if self._llm is not None else 0):
            tried = await self._memory.recall(_tried(page_signature(page))) or []
            told = f"clicked before on this page without getting past it: {_names(tried)}"
            if tried and told not in history:  # in the prompt: not the cached answer again
                history.append(told)
            situation = Situation(
                step=step, expected=expected, problem=problem, page=page, history=history,
                allowed=("click", "retry_step", "ask_user", "abort"), lang=ctx.lang,
            )  # fmt: skip
            labels = [c.label for c in user_choices(page, ctx.lang)]
            decision = await self.consult(ctx, situation, answers=labels, tried=tried)
            if decision is None:
                break
            if decision.action == "abort":
                await self._decided(ctx, step, decision, "llm")
                raise ScenarioError(spoken(decision.reason) or ctx.tr(Page.COULD_NOT))
            if decision.action == "ask_user":
                question = spoken(decision.question)  # None: the template asks
                await self._ask(ctx, step, page, decision, question=question)
            targets = decision.targets if decision.action == "click" else []
            try:
                after = await self._perform(driver, targets, probe, step=step)
                await self._decided(ctx, step, decision, "llm", resolved=after is None)
                clicks += targets
                if after is None:  # the whole guarded window, before anything is kept
                    if not await self._changed(driver, step, clicks) and clicks:
                        note = page.heading or page.url
                        await self._memory.remember(signature, clicks, note=note)
                    return
            except HarmPrevented:  # stopped by the guard: not to be chosen again either
                await self._tried_in_vain(page, tried, targets)
                raise
            history.append(f"{decision.action} {_names(targets)}: the page is still unexpected")
            await self._tried_in_vain(page, tried, targets)  # the step's own probe said so
            page = after
        await self._ask(ctx, step, page)

    async def _tried_in_vain(
        self, page: PageSnapshot, tried: Sequence[ClickTarget], targets: Sequence[ClickTarget]
    ) -> None:
        """Keep the LLM's ``targets`` as clicks that did not get past ``page``: never
        replayed, in this run or another (``consult``'s ``tried``)."""
        if targets:
            known = [*tried, *(t for t in targets if t not in tried)]
            await self._memory.remember(_tried(page_signature(page)), known, note="tried")

    async def _ask(
        self,
        ctx: StepContext[Any],
        step: str,
        page: PageSnapshot,
        decision: BrainDecision | None = None,
        *,
        question: str | None = None,
    ) -> NoReturn:
        """Ask the user about ``page`` (as the LLM's ``decision`` put it, if any), unless
        this run asked about it before: then the run stops with a plain message."""
        if asked_before(ctx, page):
            await self._emit(ctx, BrainDecided(step=step, action="abort", source="policy",
                                               detail="asked about this page before"))  # fmt: skip
            raise ScenarioError(ctx.tr(Page.STILL_THERE, what=page_name(page)))
        if decision is None:
            await self._emit(ctx, BrainDecided(step=step, action="ask_user", source="policy"))
        else:
            await self._decided(ctx, step, decision, "llm")
        only = decision.options if decision is not None else ()
        ask_about_page(ctx, page, question=question, only=only)

    async def _apply_answer(
        self,
        ctx: StepContext[Any],
        step: str,
        page: PageSnapshot,
        driver: PageDriver,
        probe: PageProbe,
        signature: str,
    ) -> PageSnapshot | None:
        """The user's latest unused answer about a page, applied; the page afterwards."""
        used = self._used.setdefault(ctx.run_id, set())
        fresh = [k for k in page_answer_keys(ctx) if k not in used]
        if not fresh:
            return page
        used.update(fresh)
        answer = ctx.answers[fresh[-1]]
        choice = next((c for c in user_choices(page, ctx.lang) if c.id == answer), None)
        if choice is None:  # asked about another page: ask afresh below
            return page
        if choice.abort:
            await self._emit(ctx, BrainDecided(step=step, action="abort", source="user"))
            raise ScenarioError(ctx.tr(Page.STOPPED_BY_USER))
        after = await self._perform(driver, choice.clicks, probe, step=step)
        await self._emit(ctx, BrainDecided(step=step, action="click", source="user",
                                           detail=_names(choice.clicks),
                                           resolved=after is None))  # fmt: skip
        # The whole guarded window, before anything is kept.
        if after is None and not await self._changed(driver, step, choice.clicks):
            await self._memory.remember(signature, choice.clicks, note=page.heading or page.url)
        return after

    async def _replay(
        self,
        ctx: StepContext[Any],
        step: str,
        page: PageSnapshot,
        clicks: Sequence[ClickTarget],
        driver: PageDriver,
        probe: PageProbe,
    ) -> PageSnapshot | None:
        if any(is_forbidden(c.name) or not present(page, c) for c in clicks):
            after: PageSnapshot | None = page  # the page changed (or memory is bad): no replay
        else:
            after = await self._perform(driver, clicks, probe, step=step)
        await self._emit(ctx, BrainDecided(step=step, action="click", source="memory",
                                           detail=_names(clicks),
                                           resolved=after is None))  # fmt: skip
        return after

    @staticmethod
    async def _changed(driver: PageDriver, step: str, clicks: Sequence[ClickTarget]) -> bool:
        """Take the guard off (``release``); whether ``clicks`` made a read the site answered
        as a change: then they are not to be kept (or kept any longer) as a way past."""
        acted = await driver.release()
        if acted:
            log.warning("brain.not_remembered", step=step, clicks=_names(clicks),
                        changed=list(acted))  # fmt: skip
        return bool(acted)

    @staticmethod
    async def _perform(
        driver: PageDriver, clicks: Sequence[ClickTarget], probe: PageProbe, *, step: str
    ) -> PageSnapshot | None:
        for target in clicks:
            try:
                if target.role == "checkbox":
                    await driver.check(target.name, step=step)
                else:
                    await driver.click(target.role, target.name, step=step)
            except HarmPrevented:
                raise  # not a hiccup: the run stops (resolve_page)
            except ClubError as exc:  # the element is gone, the portal hiccuped: look again
                log.info("brain.click_failed", target=target.name, error=str(exc))
                break
        return await probe()

    async def _decided(
        self,
        ctx: StepContext[Any],
        step: str,
        decision: BrainDecision,
        source: Literal["llm", "memory", "policy", "user"],
        *,
        resolved: bool | None = None,
    ) -> None:
        detail = _names(decision.targets) or decision.option_id or decision.step or ""
        detail = detail or decision.question or decision.reason
        await self._emit(ctx, BrainDecided(step=step, action=decision.action, source=source,
                                           detail=detail[:300], resolved=resolved))  # fmt: skip

    @staticmethod
    async def _emit(ctx: StepContext[Any], event: BaseEvent) -> None:
        event.chat_id = ctx.chat_id
        event.run_id = ctx.run_id
        await ctx.emit(event)


def _tried(signature: str) -> str:
    """Where the memory keeps the LLM's clicks that did not get past a page (beside the
    ones that did, under the page's own signature)."""
    return f"tried:{signature}"


def _names(clicks: Sequence[ClickTarget]) -> str:
    return ", ".join(f"{c.role} «{c.name}»" for c in clicks)
