"""Slot collection: one question per missing slot, answers parsed by the same slot
parsers as commands, invalid answers asked again with the reason."""

from __future__ import annotations

from typing import Any
from zoneinfo import ZoneInfo

from core.clock import Clock
from core.commands import Answer, as_lang
from core.events import AnswerReceived, AnswerRejected, EventBus, SlotMissing
from core.nlu import SlotParseError
from core.output import AnswerOutcome
from core.runner import ScenarioRunner
from core.scenario import SlotContext, StepScenario
from core.site.catalogue import Catalogues
from core.store import OptionRecord, RunStatus, ScenarioRun, Store
from core.texts import Run, tr

__all__ = ["SlotCollector"]


def _typed_option(options: list[OptionRecord], text: str | None) -> OptionRecord | None:
    """The option a typed answer names: its label (any case) or its number in the list."""
    typed = (text or "").strip().casefold()
    by_label = [o for o in options if o.label.strip().casefold() == typed]
    if by_label:
        return by_label[0]
    if typed.isdigit() and 1 <= int(typed) <= len(options):
        return options[int(typed) - 1]
    return None


class SlotCollector:
    def __init__(
        self,
        *,
        storage: Store,
        runner: ScenarioRunner,
        bus: EventBus,
        clock: Clock,
        catalogues: Catalogues,
    ) -> None:
        self._storage = storage
        self._catalogues = catalogues
        self._runner = runner
        self._bus = bus
        self._clock = clock

    def _context(self, run: ScenarioRun) -> SlotContext:
        return SlotContext(
            chat_id=run.chat_id,
            user_id=run.user_id,
            lang=as_lang(run.lang),
            now=self._clock.now(),
            tz=ZoneInfo(run.timezone),
            slots=run.slots,
            places=self._catalogues.places,
        )

    async def advance(
        self, run: ScenarioRun, scenario: StepScenario[Any], *, reason: str | None = None
    ) -> None:
        """Ask for the next missing slot, or start the steps when none is missing."""
        lang = as_lang(run.lang)
        problem = scenario.check_slots(run.slots, self._context(run))
        if problem is not None:
            slot, reason = problem
            run.slots.pop(slot, None)
        pending = scenario.slots_to_ask(run.slots)
        if problem is not None and problem[0] not in pending:
            pending.insert(0, problem[0])  # an optional slot given wrong is asked, not dropped
        if pending:
            slot = pending[0]
            await self._bus.publish(
                SlotMissing(chat_id=run.chat_id, run_id=run.short_id, slot=slot)
            )
            question = await scenario.slot_question(slot, self._context(run))
            if reason:
                question.text = tr(Run.INVALID_ANSWER, lang, reason=reason, question=question.text)
            run.status = RunStatus.COLLECTING
            await self._runner.ask(run, question)
            return
        run.status = RunStatus.RUNNING
        run.question = None
        run.expires_at = None
        await self._storage.runs.save(run)
        self._runner.start(run)

    async def accept(
        self, run: ScenarioRun, scenario: StepScenario[Any], answer: Answer
    ) -> AnswerOutcome:
        """Apply an answer to the run's pending question."""
        assert run.question is not None
        lang = as_lang(run.lang)
        key = run.question.key
        if answer.option_id is None and not run.question.allow_free_text:
            # A buttons-only question: the steps after it read option ids, never free text.
            typed = _typed_option(run.question.options, answer.text)
            if typed is None:
                note = tr(Run.CHOOSE_OPTION, lang)
                await self._runner.ask_again(run, reason=note)
                return AnswerOutcome(accepted=False, note=note)
            answer = answer.model_copy(update={"option_id": typed.id, "text": None})
        label = answer.text
        if answer.option_id is not None:
            chosen = next((o for o in run.question.options if o.id == answer.option_id), None)
            if chosen is None:
                return AnswerOutcome(accepted=False, note=tr(Run.STALE_ANSWER, lang))
            label = chosen.label
        via = "button" if answer.option_id is not None else "text"
        if run.status is RunStatus.WAITING:
            run.answers[key] = answer.option_id or (answer.text or "")
            run.status = RunStatus.RUNNING
            run.question = None
            run.expires_at = None
            await self._storage.runs.save(run)
            await self._bus.publish(
                AnswerReceived(
                    chat_id=run.chat_id,
                    run_id=run.short_id,
                    key=key,
                    value=run.answers[key],
                    via=via,
                    label=label or "",
                )
            )
            self._runner.start(run)
            return AnswerOutcome(
                accepted=True, label=label, note=tr(Run.ANSWER_TAKEN, lang, label=label)
            )
        try:
            value = scenario.parse_answer(
                key, option_id=answer.option_id, text=answer.text, ctx=self._context(run)
            )
        except SlotParseError as exc:
            reason = str(exc)
            await self._bus.publish(
                AnswerRejected(chat_id=run.chat_id, run_id=run.short_id, key=key, reason=reason)
            )
            await self.advance(run, scenario, reason=reason)
            return AnswerOutcome(accepted=False, note=reason)
        run.slots[key] = value
        await self._bus.publish(
            AnswerReceived(
                chat_id=run.chat_id,
                run_id=run.short_id,
                key=key,
                value=str(value),
                via=via,
                label=label or "",
            )  # fmt: skip
        )
        await self.advance(run, scenario)
        return AnswerOutcome(
            accepted=True, label=label, note=tr(Run.ANSWER_TAKEN, lang, label=label)
        )
