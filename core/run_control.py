"""Runs outside the flow of messages: starting one that no message asked for (a
schedule firing, an agent's confirmed plan); ending them, by a cancel (whoever may,
``core.authz``) or because their question waited too long; the chat's runs as /status
shows them, and the calendar file a finished run offers. The manager routes messages
and answers to runs; what starts, stops or lists a run from outside is here."""

from __future__ import annotations

import asyncio
from typing import Any

import structlog

from core.authz import Roles, may_act
from core.calendar import CalendarFile, calendar_file
from core.clock import Clock
from core.collector import SlotCollector
from core.commands import Lang, as_lang
from core.errors import ScenarioError
from core.events import EventBus, RunFinished
from core.output import OutputSink, Reply, RunView
from core.runner import ScenarioRunner
from core.store import ReplyKind, RunStatus, ScenarioRun, Store, new_short_id
from core.texts import Run, Text, tr
from core.turns import ChatTurns

__all__ = ["RunControl"]

log = structlog.get_logger("clubman.manager")


class RunControl:
    def __init__(
        self,
        *,
        storage: Store,
        runner: ScenarioRunner,
        sessions: ChatTurns,
        roles: Roles,
        collector: SlotCollector,
        sink: OutputSink,
        bus: EventBus,
        clock: Clock,
        default_timezone: str,
    ) -> None:
        self._storage = storage
        self._runner = runner
        self._collector = collector
        self._default_tz = default_timezone
        self._sessions = sessions
        self._roles = roles
        self._sink = sink
        self._bus = bus
        self._clock = clock

    async def start_scenario(
        self,
        *,
        chat_id: int,
        user_id: int,
        scenario: str,
        slots: dict[str, Any],
        lang: Lang,
        schedule_id: str | None = None,
        note: str | None = None,
        run_id: str | None = None,
        answers: dict[str, str] | None = None,
    ) -> str:
        """Start a run without a typed command (a schedule firing, an agent's confirmed
        plan); returns its id.

        Missing slots are still asked in the chat; ``note`` is said first; ``answers``
        answer the steps' questions in advance. A run given ``run_id`` that exists already
        is left as it is: starting it again (in this process or another, the chat's turn
        orders them) starts nothing.
        """
        chosen = self._runner.scenario_of_name(scenario)
        if chosen is None:
            raise ScenarioError(f"no scenario {scenario!r} is registered")
        async with self._sessions.turn(chat_id):
            if run_id is not None and await self._storage.runs.get(run_id) is not None:
                return run_id
            user = await self._storage.users.get_or_create(user_id)
            run = ScenarioRun(
                short_id=run_id or new_short_id(),
                answers=dict(answers or {}),
                chat_id=chat_id,
                user_id=user_id,
                admin=self._roles.actor(user_id).admin,
                scenario=scenario,
                lang=lang,
                timezone=user.timezone or self._default_tz,
                command_text=note or "",
                slots=dict(slots),
                schedule_id=schedule_id,
                acted=[],
            )
            run = await self._storage.runs.create(run)
            if note:
                await self._sink.deliver(Reply(chat_id=chat_id, text=note, lang=lang))
            await self._collector.advance(run, chosen)
        return run.short_id

    async def cancel(
        self, *, chat_id: int, user_id: int, run_id: str | None = None, admin: bool = False
    ) -> None:
        """Cancel the chat's active runs (or ``run_id``) that this user may: their own, or
        any with ``admin`` (a group's administrator, as the view knows)."""
        async with self._sessions.turn(chat_id):
            runs = await self._storage.runs.active_for_chat(chat_id)
            targets = [r for r in runs if run_id is None or r.short_id == run_id]
            actor = self._roles.actor(user_id, chat_admin=admin)
            allowed = [r for r in targets if may_act(actor, r.user_id)]
            if not allowed:
                lang = await self.language_of(user_id)
                refusal = Run.NOT_YOURS if targets else Run.NOTHING_TO_CANCEL
                await self._sink.deliver(Reply(chat_id=chat_id, text=tr(refusal, lang), lang=lang))
                return
            for run in allowed:
                await self.end(run, RunStatus.CANCELLED, Run.CANCELLED)

    async def may_act_on(self, *, chat_id: int, user_id: int, run_id: str, admin: bool) -> bool:
        """False when run ``run_id`` of this chat is someone else's and ``admin`` is not set:
        cancelling it and answering its question («Другое…» included) alike."""
        run = await self._storage.runs.get(run_id)
        if run is None or run.chat_id != chat_id:
            return True  # nothing of anyone's: the view says it is stale
        return may_act(self._roles.actor(user_id, chat_admin=admin), run.user_id)

    async def language_of(self, user_id: int) -> Lang:
        user = await self._storage.users.get(user_id)
        return as_lang(user.language if user else None)

    async def end(self, run: ScenarioRun, status: RunStatus, message: Text) -> None:
        """Stop ``run`` (if still active) as ``status``, telling the chat ``message``."""
        await self._runner.stop(run.short_id)
        fresh = await self._storage.runs.get(run.short_id) or run
        if not fresh.status.active:
            return
        question = fresh.question.text if fresh.question else ""
        lang = as_lang(fresh.lang)
        scenario = self._runner.scenario_of(fresh)
        title = scenario.title(lang) if scenario else fresh.scenario
        text = tr(message, lang, title=title, question=question)
        fresh.status = status
        fresh.question = None
        fresh.expires_at = None
        self._runner.replies.owe(fresh, ReplyKind.ENDED, text, now=self._clock.now())
        await self._storage.runs.save(fresh)
        await self._bus.publish(
            RunFinished(
                chat_id=fresh.chat_id,
                run_id=fresh.short_id,
                status=status.value,
                scenario=fresh.scenario,
            )  # fmt: skip
        )
        await self._runner.replies.send(fresh)

    async def expire_due(self) -> int:
        """Expire runs whose question waited too long; returns how many."""
        expired = await self._storage.runs.expired(self._clock.now())
        for run in expired:
            async with self._sessions.turn(run.chat_id):
                await self.end(run, RunStatus.EXPIRED, Run.EXPIRED)
        return len(expired)

    async def expire_forever(self, every: float) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await self.expire_due()
            except Exception:  # the loop must outlive a passing storage failure
                log.exception("expiry.failed")

    async def status(self, chat_id: int) -> list[RunView]:
        """The chat's active runs; in a group (a negative chat id, as Telegram's are) each
        names who asked, as the members see one another's requests."""
        views = []
        for run in await self._storage.runs.active_for_chat(chat_id):
            progress = self._runner.progress(run)
            requester = None
            if chat_id < 0:
                user = await self._storage.users.get(run.user_id)
                requester = (user.name if user else "") or str(run.user_id)
            views.append(
                RunView(
                    run_id=run.short_id,
                    scenario=run.scenario,
                    status=run.status.value,
                    title=progress.title,
                    steps=progress.steps,
                    question=run.question.text if run.question else None,
                    requester=requester,
                )
            )
        return views

    async def calendar_file(self, run_id: str, *, chat_id: int) -> CalendarFile | None:
        """The ``.ics`` a finished run of this chat offers (its bookings, in its user's time
        zone); None for another chat's run or one that offers none."""
        run = await self._storage.runs.get(run_id)
        if run is None or run.chat_id != chat_id:
            return None
        scenario, context = self._runner.scenario_of(run), self._runner.finished(run)
        events = scenario.calendar(context) if scenario and context else []
        if not events:
            return None
        return calendar_file(
            events, timezone=run.timezone, filename=f"bookings-{run.short_id}.ics",
            now=self._clock.now(),
        )  # fmt: skip
