"""The brain's end-to-end wiring for tests: the app's core (as ``app.compose.open_core``)
around the given LLM settings, on the reference portal in real Chromium and real storage;
a test module imports the fixtures it wants from here."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.history import ProfileHistory
from app.engine import build_core
from core.assist import open_assist
from core.brain import BrainDecided
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Command
from core.dispatcher import ChatDispatcher
from core.events import BaseEvent, EventBus
from core.llm import LLMSettings
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.port import BookingSystem
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.refportal import refportal_system
from tests.support.sinks import CollectingSink

__all__ = ["FULL", "GO", "KEY", "TICK", "CoreFactory", "cmd", "decided", "events",
           "llm_settings", "make_core"]  # fmt: skip

KEY = "sk-e2e-brain"
TICK = {"role": "checkbox", "name": "Я ознакомлен(а) с правилами"}
GO = {"role": "button", "name": "Продолжить"}
FULL = "забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20"

CoreFactory = Callable[..., AbstractAsyncContextManager[ChatDispatcher]]


@pytest.fixture
def events() -> list[BaseEvent]:
    return []


@pytest.fixture
def make_core(
    storage: Storage,
    sink: CollectingSink,
    clock: ManualClock,
    portal_url: str,
    pool: BrowserPool,
    events: list[BaseEvent],
) -> CoreFactory:
    """The app's wiring (as ``app.compose.open_core``) around the given LLM settings."""

    @asynccontextmanager
    async def factory(
        llm: LLMSettings, profile: Path | None = None
    ) -> AsyncIterator[ChatDispatcher]:
        """``profile``: drive the portal through that site profile, healed by the LLM
        (versions beside it); else through the shipped ``profiles/refportal.yaml``."""
        bus = EventBus(storage.events)

        async def record(event: BaseEvent) -> None:
            events.append(event)

        bus.subscribe(record)
        account = PortalAccount(username="club", password="club-demo")
        async with open_assist(
            llm, cache=storage.cache, ledger=storage.ledger, memory=storage.brain_memory, bus=bus
        ) as assist:
            vault = CredentialVault(storage, None)
            system: BookingSystem = refportal_system(portal_url)
            if profile is not None:
                loaded, history = load_site_profile(profile), ProfileHistory(profile)
                system = ProfileSystem(portal_url, loaded, history=history, picker=assist.picker)
            work = PortalWork(
                pool=pool,
                system=system,
                account=account,
                vault=vault,
                brain=assist.brain,
            )
            scenarios = product_scenarios(
                storage,
                work,
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
                answerer=assist.answerer,
            )
            async with build_core(
                load_settings(), storage, sink, scenarios=scenarios,
                catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE), clock=clock, bus=bus,
                classifier=assist.classifier, extractor=assist.extractor,
            ) as core:  # fmt: skip
                yield core

    return factory


def llm_settings(provider: str, base_url: str, **extra: Any) -> LLMSettings:
    data: dict[str, Any] = {
        "providers": provider,
        provider: {"api_key": KEY, "base_url": base_url},
        "max_retries": 1,
        "backoff_base_seconds": 0.01,
        "timeout_seconds": 10,
    }
    return LLMSettings.model_validate(data | extra)


def cmd(text: str, chat: int = 100) -> Command:
    return Command(chat_id=chat, user_id=chat, text=text)


def decided(events: list[BaseEvent]) -> list[tuple[str, str, bool | None]]:
    return [(e.source, e.action, e.resolved) for e in events if isinstance(e, BrainDecided)]
