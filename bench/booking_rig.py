"""The benchmarks' rig for runs through the real core: the reference portal in its own
process, an output sink and event subscriber that times each run's steps and counts LLM
calls, the core on a site, and the small helpers every part shares."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, timedelta
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from app.engine import build_core
from app.systems import choose_system
from core.browser import BrowserPool
from core.commands import Command
from core.events import BaseEvent, EventBus
from core.output import Done, Failed, Output, Question, Receipt, receipted
from core.settings import PortalSettings, load_settings
from core.site.catalogue import Catalogues
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork, read_catalogue
from scenarios.booking.port import BookingSystem
from storage import Storage, open_storage
from tests.support.jobs import product_scenarios

__all__ = [
    "ACCOUNT",
    "Recorder",
    "core_on",
    "memory_storage",
    "day_ahead",
    "portal_process",
    "run_command",
    "listed",
    "two_hour_slots",
]


ACCOUNT = ("club", "club-demo")


@asynccontextmanager
async def portal_process() -> AsyncIterator[str]:
    """The reference portal in its own process (as a real portal is); yields its URL."""
    code = "from portal.server import serve; serve(host='127.0.0.1', port=0, db=':memory:', "
    code += "seed=1, test_api=False)"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", code, stdout=subprocess.PIPE, cwd=Path(__file__).parents[1]
    )
    try:
        assert proc.stdout is not None
        line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode()
        yield line.split("Portal at ", 1)[1].split()[0]
    finally:
        proc.terminate()
        await proc.wait()


@asynccontextmanager
async def memory_storage() -> AsyncIterator[Storage]:
    """SecantusDB in memory and fakeredis; its log goes to a folder removed afterwards."""
    with tempfile.TemporaryDirectory() as data:
        async with open_storage(
            mongodb_uri=None, redis_url=None, data_dir=Path(data), in_memory=True
        ) as storage:
            yield storage


class Recorder:
    """Output sink and event subscriber: finished runs, step timings, LLM calls."""

    def __init__(self) -> None:
        self.finished: dict[int, asyncio.Event] = {}
        self.failed: list[str] = []
        self.llm_calls = 0
        self.steps: dict[int, dict[str, float]] = {}  # chat → step → seconds
        self._started: dict[tuple[int, str], float] = {}

    def expect(self, chat_id: int) -> asyncio.Event:
        self.finished[chat_id] = asyncio.Event()
        self.steps.setdefault(chat_id, {})  # summed over the chat's runs
        return self.finished[chat_id]

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        async with receipted(receipt):
            pass  # shown at once (nowhere)
        if isinstance(output, Done | Failed | Question) and output.chat_id in self.finished:
            if not isinstance(output, Done):  # a question would wait for ever: count it failed
                self.failed.append(f"chat {output.chat_id}: {output.text}")
            self.finished[output.chat_id].set()

    async def on_event(self, event: BaseEvent) -> None:
        if event.kind.startswith(("llm", "brain")):
            self.llm_calls += 1
        step, chat = getattr(event, "step", None), event.chat_id
        if step is None or chat is None:
            return
        if event.kind == "step.started":
            self._started[(chat, step)] = time.perf_counter()
        elif event.kind == "step.succeeded" and (chat, step) in self._started:
            spent = time.perf_counter() - self._started.pop((chat, step))
            self.steps[chat][step] = self.steps[chat].get(step, 0.0) + spent


@asynccontextmanager
async def core_on(
    storage: Storage,
    url: str,
    pool: BrowserPool,
    rec: Recorder,
    *,
    system: BookingSystem | None = None,
    account: tuple[str, str] = ACCOUNT,
) -> AsyncIterator[Any]:
    """The core on the reference portal at ``url`` (as ``PORTAL__KIND=refportal`` drives
    it: the profile adapter on ``profiles/refportal.yaml``), or on ``system`` with
    ``account``."""
    bus = EventBus(storage.events)
    bus.subscribe(rec.on_event)
    login = PortalAccount(username=account[0], password=SecretStr(account[1]))
    site = system or choose_system(PortalSettings(kind="refportal"), url)
    work = PortalWork(pool=pool, system=site, account=login, vault=CredentialVault(storage, None))
    # The catalogue as the product reads it (a site profile's words are in it), once per core.
    catalogues = Catalogues.fixed(await read_catalogue(pool, site, login))
    scenarios = product_scenarios(storage, work, catalogues=catalogues, bus=bus)
    async with build_core(
        load_settings(), storage, rec, catalogues=catalogues, scenarios=scenarios, bus=bus
    ) as core:
        yield core


async def run_command(core: Any, rec: Recorder, chat: int, user: int, text: str) -> float:
    finished = rec.expect(chat)
    began = time.perf_counter()
    await core.handle(Command(chat_id=chat, user_id=user, text=text))
    await finished.wait()
    return time.perf_counter() - began


def day_ahead(offset: int) -> date:
    return date.today() + timedelta(days=offset)


def two_hour_slots(repeat: int) -> list[tuple[str, str]]:
    """2-hour slots 08–10, 10–12, … : two per repetition (first login, saved session)."""
    return [(f"{h:02d}:00", f"{h + 2:02d}:00") for h in range(8, 8 + 4 * repeat, 2)]


def listed(values: list[float], digits: int = 2) -> str:
    return ", ".join(f"{v:.{digits}f}" for v in values)
