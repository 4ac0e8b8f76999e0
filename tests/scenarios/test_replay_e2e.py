"""``clubman runs`` and ``clubman replay`` as an operator runs them, on a run that met the
rules notice (the LLM brain asked the user), then portal 500s until it failed.

The run is real (portal, Chromium, storage, a scripted Anthropic); the CLI is a real
process on the same storage. What varies between runs (ids, times, measured latencies)
is normalised before the events are held to the golden file; ``tests/core/test_timeline``
pins the exact format.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from core.commands import Answer
from core.output import Failed, Question
from storage import Storage, open_storage
from tests.fakes.llm import Answer as LLMAnswer
from tests.fakes.llm import FakeAnthropic
from tests.support.brain_core import KEY, CoreFactory, cmd, llm_settings
from tests.support.portal import set_quirks
from tests.support.sinks import CollectingSink

CLUBMAN = str(Path(sys.executable).parent / "clubman")
GOLDEN = Path(__file__).parent / "golden" / "replay_portal_500.txt"
ASKED = "Отметить правила и продолжить?"


@pytest.fixture
def db_uri(secantus_uri: str) -> str:
    """The test's own database, named in the URI so the CLI process finds it too."""
    return secantus_uri.replace("/?", f"/t_{uuid.uuid4().hex[:12]}?", 1)


@pytest.fixture
async def storage(db_uri: str, redis_url: str, tmp_path: Path) -> AsyncIterator[Storage]:
    async with open_storage(mongodb_uri=db_uri, redis_url=redis_url, data_dir=tmp_path) as opened:
        await opened.redis.flushdb()
        yield opened


def clubman(
    *args: str, db_uri: str, redis_url: str, data: Path
) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"MONGODB_URI": db_uri, "REDIS_URL": redis_url, "DATA_DIR": str(data)}
    return subprocess.run([CLUBMAN, *args], capture_output=True, text=True, env=env, timeout=120)


def normalised(text: str, *, run_id: str, shots: Path) -> list[str]:
    """The replay's lines with ids, times, offsets and measured milliseconds replaced;
    message lines are left out (stamped by another writer, they may share a millisecond
    with an event, so their place among events is not stable to the line)."""
    text = text.replace(run_id, "RUN").replace(str(shots), "SHOTS")
    text = re.sub(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", "TIME", text)
    text = re.sub(r"^ *\d+\.\d{3}s ", "+T ", text, flags=re.MULTILINE)
    lines = [line.rstrip() for line in text.splitlines() if " message." not in line]
    # Steps are timed on the test's frozen clock (0 ms); LLM calls and the wait for a
    # browser context are measured in real time.
    measured = re.compile(r"^(\+T  (?:llm\.called|brain\.consulted|browser\.context) .*\()\d+ ms")
    return [measured.sub(r"\1N ms", line) for line in lines]


async def test_replay_shows_the_brain_the_question_and_the_portal_500s_in_order(
    make_core: CoreFactory,
    sink: CollectingSink,
    storage: Storage,
    portal_url: str,
    db_uri: str,
    redis_url: str,
    tmp_path: Path,
) -> None:
    async with FakeAnthropic(api_key=KEY) as vendor:
        vendor.push(LLMAnswer({"action": "ask_user", "question": ASKED}))
        async with make_core(llm_settings("anthropic", vendor.base_url)) as core:
            await set_quirks(portal_url, notice=True)
            await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
            question = await sink.wait_for(Question, timeout=60)
            # Every page fails from now on; this seed makes the first eight of them 500s.
            await set_quirks(portal_url, error_rate=1.0, error_seed=183)
            await core.answer(
                Answer(chat_id=100, user_id=100, run_id=question.run_id, seq=question.seq,
                       option_id=question.options[0].id)
            )  # fmt: skip
            await sink.wait_for(Failed, timeout=60)
    await storage.events.flush()  # group-committed: the CLI process must see them
    await storage.conversations.flush()
    run_id, shots = question.run_id, tmp_path / "shots"

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return clubman(*args, db_uri=db_uri, redis_url=redis_url, data=tmp_path)

    listed = cli("runs", "--chat", "100", "--since", "1h")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith(f"{run_id}  ") and " failed " in listed.stdout

    replayed = cli("replay", "--screenshots", str(shots), "--", run_id)
    assert replayed.returncode == 0, replayed.stderr
    assert "» забронируй 301" in replayed.stdout and f"« {ASKED}" in replayed.stdout
    picture = shots / f"run-{run_id}.png"
    assert picture.read_bytes().startswith(b"\x89PNG")
    got = normalised(replayed.stdout, run_id=run_id, shots=shots)
    assert got == GOLDEN.read_text(encoding="utf-8").splitlines()

    as_json = cli("replay", "--json", "--screenshots", str(shots), "--", run_id)
    assert as_json.returncode == 0 and f'"run_id": "{run_id}"' in as_json.stdout


def test_an_unknown_run_is_one_clear_line(
    tmp_path: Path, secantus_uri: str, redis_url: str
) -> None:
    result = clubman("replay", "nosuchrun", db_uri=secantus_uri, redis_url=redis_url, data=tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().splitlines() == [
        "clubman: no run 'nosuchrun' — `clubman runs` lists the stored runs"
    ]


@pytest.mark.parametrize("since", ["yesterday", "5x", "2026-13-01"])
def test_a_since_of_another_form_is_refused_without_a_traceback(
    since: str, tmp_path: Path, secantus_uri: str, redis_url: str
) -> None:
    result = clubman(
        "runs", "--since", since, db_uri=secantus_uri, redis_url=redis_url, data=tmp_path
    )
    assert result.returncode == 2
    said = " ".join(re.sub("[│╭╮╰╯─]", " ", result.stderr).split())  # typer's box, unwrapped
    assert "Invalid value for --since" in said and "(30m, 2h, 7d, 1w)" in said
    assert "Traceback" not in result.stderr
