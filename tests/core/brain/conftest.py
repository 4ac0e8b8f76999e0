"""Brain and assist tests: a scripted LLM vendor (the fake Anthropic API), a fake page."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from core.brain import InMemoryBrainMemory, PageSnapshot
from core.browser.harm import RequestBlocked
from core.events import BaseEvent
from core.llm import FallbackLLM, LLMCallRecord, LLMSettings, MemorySpendLedger, build_llm
from core.scenario import StepContext
from tests.fakes.llm import FakeAnthropic

KEY = "sk-ant-brain-test"
NOW = datetime(2026, 11, 23, 7, 0, tzinfo=UTC)

NOTICE = PageSnapshot(
    url="http://portal.test/notice?next=%2Fmy",
    title="Правила бронирования изменились",
    heading="Правила бронирования изменились",
    text="С 1 декабря действуют обновлённые правила бронирования аудиторий.",
    fields=["Я ознакомлен(а) с правилами"],
    checkboxes=["Я ознакомлен(а) с правилами"],
    buttons=["Продолжить"],
    links=["Аудитории", "Мои брони", "Выйти"],
)
TICK = {"role": "checkbox", "name": "Я ознакомлен(а) с правилами"}
GO = {"role": "button", "name": "Продолжить"}


@dataclass
class FakePage:
    """A ``PageDriver`` plus a probe: the notice goes away once ticked and continued."""

    page: PageSnapshot = NOTICE
    needs: tuple[tuple[str, str], ...] = (("checkbox", TICK["name"]), ("button", GO["name"]))
    done: list[tuple[str, str]] = field(default_factory=list)
    probes: int = 0
    late: tuple[str, ...] = ()  # what the guard catches after the page was judged resolved
    releases: int = 0

    async def click(self, role: str, name: str, *, step: str = "") -> None:
        self.done.append((role, name))

    async def check(self, label: str, *, step: str = "") -> None:
        self.done.append(("checkbox", label))

    async def release(self) -> tuple[str, ...]:
        self.releases += 1
        if self.late:
            raise RequestBlocked("the page tried something after the click", what=self.late)
        return ()

    async def probe(self) -> PageSnapshot | None:
        self.probes += 1
        return None if all(n in self.done for n in self.needs) else self.page


@dataclass
class Emitted:
    events: list[BaseEvent] = field(default_factory=list)

    async def __call__(self, event: BaseEvent) -> None:
        self.events.append(event)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


def make_ctx(emitted: Emitted, *, answers: dict[str, str] | None = None) -> StepContext[Any]:
    return StepContext(
        run_id="run1", chat_id=7, user_id=7, lang="ru", now=NOW, tz=ZoneInfo("Europe/Moscow"),
        slots=None, results={}, answers=answers or {}, emit=emitted,
    )  # fmt: skip


@pytest.fixture
async def vendor() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY) as fake:
        yield fake


@pytest.fixture
async def llm(vendor: FakeAnthropic) -> AsyncIterator[FallbackLLM]:
    calls: list[LLMCallRecord] = []

    async def on_call(record: LLMCallRecord) -> None:
        calls.append(record)

    settings = LLMSettings.model_validate(
        {
            "providers": "anthropic",
            "anthropic": {"api_key": KEY, "base_url": vendor.base_url},
            "max_retries": 0,
            "cache_ttl_seconds": 0,
        }
    )
    built = build_llm(settings, cache=None, ledger=MemorySpendLedger(), on_call=on_call)
    assert built is not None
    async with built:
        yield built


@pytest.fixture
def memory() -> InMemoryBrainMemory:
    return InMemoryBrainMemory()


@pytest.fixture
def emitted() -> Emitted:
    return Emitted()
