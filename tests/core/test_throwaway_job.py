"""Adding a job is adding a package: a throwaway job written into a temporary package of
``scenarios`` — nothing else changed — is found by its manifest through the app's own
factory (``open_core``), recognised, asks for what it lacks, runs with its own section of
the settings, and is listed in /help; ``clubman parse`` reads its command."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from pydantic import SecretStr

import scenarios
from app.compose import open_core
from core.commands import Command
from core.jobs import discover, settings_model
from core.output import Done, Question, Reply
from core.settings import BrowserSettings, PortalSettings, Settings, load_settings
from portal.server import running_portal
from storage import Storage, free_port
from tests.support.sinks import CollectingSink

_INIT = '''
"""A poll of the club: «устрой опрос в четверг», asked what to ask."""
'''

_MANIFEST = """
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from core.commands import Lang
from core.jobs import Job, JobManifest, JobParts
from core.nlu import Decision
from core.pause import QuestionSpec
from core.scenario import SlotContext, Step, StepContext, StepScenario, Utterance
from core.texts import Text


class PollSettings(BaseModel):  # its own section of the settings: POLL__ANNOUNCE
    announce: str = "Опрос объявлен"


class PollSlots(BaseModel):
    question: str | None = None


class Asked(BaseModel):
    question: str


class Poll(StepScenario[PollSlots]):
    name = "start_poll"
    intents: ClassVar[frozenset[str]] = frozenset({"start_poll"})
    descriptions: ClassVar[Mapping[str, str]] = {"start_poll": "ask the club a question"}
    acting: ClassVar[frozenset[str]] = frozenset({"start_poll"})
    slot_model = PollSlots
    title_text = Text("Опрос", "Poll")

    def about(self, lang: Lang) -> str:
        return "Я устраиваю опросы клуба."

    def examples(self, lang: Lang) -> Sequence[str]:
        return ["устрой опрос в четверг"]

    def recognise(self, said: Utterance, decision: Decision) -> Decision | None:
        if "опрос" not in said.text:
            return None
        return decision.model_copy(update={"intent": "start_poll", "confidence": 0.97})

    def slots_to_ask(self, slots: dict[str, Any]) -> list[str]:
        return [] if slots.get("question") else ["question"]

    async def slot_question(self, slot: str, ctx: SlotContext) -> QuestionSpec:
        return QuestionSpec(key=slot, text="О чём спросить клуб?")

    def parse_answer(
        self, slot: str, *, option_id: str | None, text: str | None, ctx: SlotContext
    ) -> Any:
        return text

    def __init__(self, settings: PollSettings | None = None) -> None:
        self._settings = settings or PollSettings()

    def steps(self) -> Sequence[Step]:
        return [Step("ask", Text("Спрашиваю", "Asking"), self._ask)]

    async def _ask(self, ctx: StepContext[Any]) -> Asked:
        return Asked(question=ctx.slots.question)

    def summary(self, ctx: StepContext[Any]) -> str:
        return f"{self._settings.announce}: {ctx.result('ask', Asked).question}"


def _setup(parts: JobParts) -> Job:
    return Job(scenarios=[Poll(parts.section("poll", PollSettings))])


MANIFEST = JobManifest(
    name="poll", order=50, setup=_setup, reader=Poll, settings=("poll", PollSettings)
)
"""


@pytest.fixture
def poll_job(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The job's package, ``scenarios.poll``, in a folder of its own beside the product's."""
    package = tmp_path / "jobs" / "poll"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(textwrap.dedent(_INIT))
    (package / "manifest.py").write_text(textwrap.dedent(_MANIFEST))
    monkeypatch.setattr(scenarios, "__path__", [*scenarios.__path__, str(package.parent)])
    yield
    for name in [name for name in sys.modules if name.startswith("scenarios.poll")]:
        del sys.modules[name]


@pytest.fixture
async def settings(
    poll_job: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Settings]:
    """As the entry points load them, with the job's own section from the environment."""
    monkeypatch.setenv("POLL__ANNOUNCE", "Голосование открыто")
    async with running_portal(test_api=True, seed=1) as portal:
        yield load_settings(settings_model(discover(scenarios))).model_copy(
            update={
                "portal": PortalSettings(
                    url=portal.url, username="club", password=SecretStr("club-demo")
                ),
                "browser": BrowserSettings(max_contexts=1),
                "data_dir": tmp_path / "data",
            }
        )


def test_the_job_is_found_by_its_manifest_in_order(poll_job: None) -> None:
    assert [job.name for job in discover(scenarios)] == ["booking", "events", "poll", "help"]


async def test_a_job_added_as_a_package_is_recognised_asked_run_and_listed_in_help(
    poll_job: None, settings: Settings, storage: Storage
) -> None:
    sink = CollectingSink()
    async with open_core(settings, storage, sink, reminders=False) as core:
        manager = core.manager
        await manager.handle(Command(chat_id=5, user_id=5, text="/help", intent="help"))
        helped = await sink.wait_for(Reply)
        await manager.handle(Command(chat_id=5, user_id=5, text="устрой опрос в четверг"))
        asked = await sink.wait_for(Question)
        await manager.handle(Command(chat_id=5, user_id=5, text="Пицца или суши?"))
        done = await sink.wait_for(Done, timeout=60)
    assert "Я устраиваю опросы клуба." in helped.text
    assert "• устрой опрос в четверг" in helped.text
    assert "Я бронирую аудитории" in helped.text  # the product's jobs are there as before
    assert asked.text == "О чём спросить клуб?"
    assert done.text == "Голосование открыто: Пицца или суши?"  # its settings' section


def test_clubman_parse_reads_the_added_jobs_command(poll_job: None, tmp_path: Path) -> None:
    """In a process of its own with the job's folder on ``scenarios`` (as the fixture puts
    it on this one), no site (parsing needs none) and no browser."""
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "REDIS_URL")}
    env |= {
        "DATA_DIR": str(tmp_path / "data"),
        "BROWSER__EXECUTABLE": str(tmp_path / "no-such-chromium"),
        "PORTAL__URL": f"http://127.0.0.1:{free_port()}",
    }
    folder = scenarios.__path__[-1]
    program = (
        f"import sys, scenarios; scenarios.__path__.append({folder!r}); "
        "from app.cli import main; sys.argv = ['clubman', *sys.argv[1:]]; main()"
    )
    result = subprocess.run(
        [sys.executable, "-c", program, "parse", "устрой опрос в четверг", "--json",
         "--now", "2026-12-07T10:00:00+03:00"],
        capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["intent"] == "start_poll"
