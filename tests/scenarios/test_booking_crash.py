"""Crash safety: the bot process is SIGKILLed at every step boundary of a booking; a new
process resumes the run and the portal ends with exactly the three bookings asked for.
And ``clubman run`` itself, on the fake Telegram, killed while its final answer is on the
wire: after a restart the chat shows the answer, with one notification at most."""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from core.store import ReplyState, RunStatus, ScenarioRun
from storage import Storage
from storage.process import die_with_parent, free_port
from tests.fakes.telegram import FakeTelegram
from tests.support.booking_child import kill_when, spawn, wait_until
from tests.support.portal import portal_bookings, reset_portal, set_quirks

pytestmark = pytest.mark.slow  # handed out first: tests/conftest.py
COMMAND = "забронируй 3 аудитории рядом в главном послезавтра с 18 до 20"


def _wait_port(port: int, proc: subprocess.Popen[bytes]) -> None:
    for _ in range(400):
        assert proc.poll() is None, "the portal exited"
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    raise AssertionError("the portal did not start")


@pytest.fixture(scope="module")
def portal_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The portal in its own process, so it outlives the bot processes we kill."""
    port = free_port()
    clubman = shutil.which("clubman", path=str(Path(sys.executable).parent)) or "clubman"
    log = (tmp_path_factory.mktemp("portal") / "portal.log").open("wb")
    proc = subprocess.Popen(
        [clubman, "portal", "--port", str(port), "--test-api", "--seed", "1"],
        stdout=log,
        stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_port(port, proc)
        yield url
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def _child(
    mongo: str, redis: str, db: str, portal: str, mode: str, **extra: str
) -> subprocess.Popen[bytes]:
    env = {"PORTAL__URL": portal, "PORTAL__USERNAME": "club", "PORTAL__PASSWORD": "club-demo"}
    return spawn(mongo, redis, db, mode, COMMAND, env=env | extra)


@pytest.mark.parametrize("kill_at", ["login", "find", "booked:1", "booked:2", "book"])
async def test_killed_at_every_step_boundary_books_exactly_three(
    kill_at: str,
    portal_url: str,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
) -> None:
    storage, db = shared
    await reset_portal(portal_url)
    await set_quirks(portal_url, latency_ms=150)

    async def steps_done() -> set[str]:
        runs = await storage.runs.recent_for_chat(100, limit=1)
        return runs[0].done_steps() if runs else set()

    async def reached() -> bool:
        if kill_at.startswith("booked:"):
            return len(await portal_bookings(portal_url, user="club")) >= int(kill_at[7:])
        return kill_at in await steps_done()

    first = _child(secantus_uri, redis_url, db, portal_url, "start")
    await kill_when(reached, first, timeout=90)
    assert first.stdout is not None
    first_output = first.stdout.read()
    runs = await storage.runs.recent_for_chat(100, limit=1)
    assert runs and runs[0].status is RunStatus.RUNNING  # killed mid-run

    second = _child(secantus_uri, redis_url, db, portal_url, "resume")
    try:
        output, _ = await asyncio.to_thread(second.communicate, timeout=120)
    finally:
        second.kill()
    assert second.returncode == 0, output.decode()
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 3, booked
    numbers = sorted(int(b["room_number"]) for b in booked)
    assert numbers == list(range(numbers[0], numbers[0] + 3))
    run = (await storage.runs.recent_for_chat(100, limit=1))[0]
    assert run.status is RunStatus.DONE
    assert [s.name for s in run.steps] == ["login", "find", "book", "verify"]
    assert len(_answers(first_output) + _answers(output)) == 1  # exactly one final answer


def _answers(output: bytes) -> list[str]:
    return [line for line in output.decode().splitlines() if line.startswith("done ")]


@pytest.mark.parametrize("dies", ["before", "after"])
async def test_killed_at_the_final_answer_the_user_gets_it_exactly_once(
    dies: str,
    portal_url: str,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
) -> None:
    """``before``: the run is saved done, its answer not yet sent; ``after``: the answer
    went out, the process died before recording it. Either way, after a restart the user
    has read exactly one answer, and three rooms are booked."""
    storage, db = shared
    await reset_portal(portal_url)
    first = _child(secantus_uri, redis_url, db, portal_url, "start", DIE_AT_ANSWER=dies)
    try:
        first_output, _ = await asyncio.to_thread(first.communicate, timeout=120)
    finally:
        first.kill()
    assert first.returncode == -signal.SIGKILL, first_output.decode()
    run = (await storage.runs.recent_for_chat(100, limit=1))[0]
    assert run.status is RunStatus.DONE  # the kill came after the run was saved done

    second = _child(secantus_uri, redis_url, db, portal_url, "resume")
    try:
        second_output, _ = await asyncio.to_thread(second.communicate, timeout=120)
    finally:
        second.kill()
    assert second.returncode == 0, second_output.decode()
    answers = _answers(first_output) + _answers(second_output)
    assert len(answers) == 1, answers
    assert "101" in answers[0] or "Забронирован" in answers[0], answers
    assert len(await portal_bookings(portal_url, user="club")) == 3


# --- the final answer's boundary, through Telegram ---------------------------------------


@pytest.fixture
async def tg() -> AsyncIterator[FakeTelegram]:
    async with FakeTelegram(token="123456:CRASH-TEST") as fake:
        yield fake


def _telegram_bot(
    tg: FakeTelegram, mongo: str, redis: str, db: str, portal: str, workdir: Path
) -> subprocess.Popen[bytes]:
    """``clubman run`` (no supervisor: the kill must stick) on the fake Telegram."""
    clubman = shutil.which("clubman", path=str(Path(sys.executable).parent)) or "clubman"
    env = {
        **os.environ,
        "TELEGRAM__TOKEN": tg.token,
        "TELEGRAM__API_BASE": tg.api_base,
        "TELEGRAM__ALLOW_ALL": "true",
        "MONGODB_URI": mongo.replace("/?", f"/{db}?"),
        "REDIS_URL": redis,
        "PORTAL__URL": portal,
        "PORTAL__USERNAME": "club",
        "PORTAL__PASSWORD": "club-demo",
        "DATA_DIR": str(workdir),
        "LOG_LEVEL": "WARNING",
        "BROWSER__MAX_CONTEXTS": "2",
    }
    with (workdir / "bot.log").open("ab") as log:
        return subprocess.Popen(
            [clubman, "run", "--no-supervise"],
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
            env=env,
        )


async def _the_run(storage: Storage) -> ScenarioRun:
    runs = await storage.runs.recent_for_chat(100, limit=1)
    assert runs
    return runs[0]


@pytest.mark.parametrize("arrived", [False, True], ids=["lost", "arrived"])
async def test_killed_at_the_reply_boundary_the_answer_is_shown_with_one_notification_at_most(
    arrived: bool,
    tg: FakeTelegram,
    portal_url: str,
    shared: tuple[Storage, str],
    secantus_uri: str,
    redis_url: str,
    tmp_path: Path,
) -> None:
    """The bot is killed while Telegram holds its final answer: ``lost``, the message never
    reached the chat; ``arrived``, it did and the answer never came back. After a restart
    the answer is shown by editing the run's progress message, and nothing is sent: the
    lost answer is in the chat exactly once; the arrived one also in the progress message
    above it, still with a single notification."""
    storage, db = shared
    await reset_portal(portal_url)
    answer = tg.hold(
        "sendMessage", lambda p: str(p.get("text", "")).startswith("Забронир"), made_first=arrived
    )
    first = _telegram_bot(tg, secantus_uri, redis_url, db, portal_url, tmp_path)
    try:
        await tg.user(100, "Club").send(COMMAND)
        await asyncio.wait_for(answer.arrived.wait(), 120)
        first.send_signal(signal.SIGKILL)
        first.wait()
    finally:
        first.kill()
    run = await _the_run(storage)
    assert run.status is RunStatus.DONE and run.reply is not None
    assert run.reply.state is ReplyState.ATTEMPTED and run.progress_message is not None
    text, progress = run.reply.text, run.progress_message
    sent_before = len(tg.calls)

    second = _telegram_bot(tg, secantus_uri, redis_url, db, portal_url, tmp_path)
    try:

        async def shown() -> bool:
            reply = (await _the_run(storage)).reply
            return reply is not None and reply.state is ReplyState.SHOWN

        await wait_until(shown, second, timeout=60)
    finally:
        second.terminate()
        try:
            await asyncio.to_thread(second.wait, 30)
        finally:
            second.kill()
    showing = [m for m in tg.messages(100) if m.text == text]
    in_place = [m for m in showing if m.message_id == progress]
    assert len(in_place) == 1 and in_place[0].edit_date is not None  # an edit: no notification
    assert len(showing) == (2 if arrived else 1), [m.text for m in tg.messages(100)]
    notifying = {"sendmessage", "sendphoto", "senddocument"}
    assert not [c for c in tg.calls[sent_before:] if c.method.lower() in notifying]
    assert (await _the_run(storage)).reply.message_id == progress  # type: ignore[union-attr]
    assert len(await portal_bookings(portal_url, user="club")) == 3
