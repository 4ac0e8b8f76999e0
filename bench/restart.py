"""How fast the bot comes back after a crash, with storage warm: the bot is SIGKILLed in the
middle of a booking, right after it answered in that chat (so it dies holding the chat's
lock). By default the killed process is ``clubman run``'s worker, and its supervisor forks
a new one (``app/supervisor.py``); with ``--whole`` the whole ``clubman run`` is killed and
started again at once, as systemd or docker would (a cold start: every import again).
SecantusDB, redis-server, the reference portal and the fake Bot API server keep
running across the kill, and the catalogue is cached from the first start.

Printed per restart: kill → first reply (a message sent to the chat right after the kill
is answered) and kill → the resumed booking's next step done and finished, and when the
new process reached each phase of its start-up (from its log lines, stamped as they
arrive).

    python -m bench.restart [--restarts 3] [--whole]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Awaitable, Callable, Mapping
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from app.runtime import run as run_loop
from core.store import RunStatus, ScenarioRun
from portal.server import running_portal
from storage import Storage, open_storage
from storage.process import die_with_parent
from tests.fakes.telegram import FakeTelegram
from tests.fakes.telegram.state import StoredMessage
from tests.support.portal import reset_portal, set_quirks
from tests.support.servers import running_redis, running_secantus

CHAT = 100
BOOK = "забронируй 3 аудитории рядом в главном послезавтра с 18 до 20"
RESUMED = "run resumed"
# Start-up phases: the log event that ends each, as the product logs it.
PHASES = (
    ("supervisor.worker_started", "worker forked (imports done)"),
    ("storage.opened", "storage open"),
    ("manager.started", "core open (runs resumed)"),
    ("step.started", RESUMED),
    ("bot.polling", "polling"),
)


def _is_help(message: StoredMessage) -> bool:
    return "/logout" in (message.text or "")


@dataclass
class BotProcess:
    """``clubman run`` in a child process; its log lines are stamped as they arrive."""

    proc: subprocess.Popen[bytes]
    lines: list[tuple[float, str]] = field(default_factory=list)

    @classmethod
    def start(cls, env: Mapping[str, str]) -> BotProcess:
        clubman = shutil.which("clubman", path=str(Path(sys.executable).parent)) or "clubman"
        proc = subprocess.Popen(
            [clubman, "run"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            preexec_fn=die_with_parent,
            env={**os.environ, **env},
        )
        started = cls(proc)
        threading.Thread(target=started._read, daemon=True).start()
        return started

    def _read(self) -> None:
        assert self.proc.stderr is not None
        for raw in self.proc.stderr:
            self.lines.append((time.perf_counter(), raw.decode(errors="replace")))

    def first(self, event: str, *, after: int = 0) -> int:
        """The index of ``event``'s first log line from ``after`` on."""
        pattern = re.compile(rf"\] {re.escape(event)}\b")
        lines = enumerate(self.lines[after:], after)
        return next((n for n, (_, line) in lines if pattern.search(line)), len(self.lines))

    def reached(self, event: str, *, after: int = 0) -> float | None:
        n = self.first(event, after=after)
        return self.lines[n][0] if n < len(self.lines) else None

    def worker(self) -> int:
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text()
        (pid,) = (int(pid) for pid in children.split())
        return pid

    def kill(self, *, whole: bool) -> float:
        """SIGKILL the supervisor's worker (the bot), or with ``whole`` all of ``clubman
        run`` (a worker left alone would shut down politely); returns when it was sent."""
        worker = self.worker()
        killed = time.perf_counter()
        os.kill(worker, signal.SIGKILL)
        if whole:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
        return killed

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def tail(self) -> str:
        return "".join(line for _, line in self.lines[-30:])


@dataclass
class Restart:
    reply: float
    resumed: float  # the run's step started again in the new process
    next_step: float
    finished: float
    lock_held: bool
    phases: dict[str, float]
    log: list[str]  # the new process's log lines, each with its time since the kill


async def _until(condition: Callable[[], Awaitable[bool]], bot: BotProcess, timeout: float) -> None:
    deadline = time.perf_counter() + timeout
    while not await condition():
        if bot.proc.poll() is not None:
            raise RuntimeError(f"the bot exited:\n{bot.tail()}")
        if time.perf_counter() > deadline:
            raise RuntimeError(f"timed out after {timeout} s:\n{bot.tail()}")
        await asyncio.sleep(0.01)


async def _latest_run(storage: Storage) -> ScenarioRun | None:
    runs = await storage.runs.recent_for_chat(CHAT, limit=1)
    return runs[0] if runs else None


async def _lock_taken(storage: Storage, *, timeout: float = 5.0) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if await storage.redis.exists(f"clubman:lock:chat:{CHAT}"):
            return True
        await asyncio.sleep(0.001)
    return False


async def restart_once(
    bot: BotProcess,
    tg: FakeTelegram,
    storage: Storage,
    portal: str,
    env: Mapping[str, str],
    *,
    whole: bool,
) -> tuple[BotProcess, Restart]:
    """A booking is started, the process killed after its login step, then restarted."""
    user = tg.user(CHAT, "Manager")
    await reset_portal(portal)
    await set_quirks(portal, latency_ms=250)  # the booking lasts long enough to kill it
    before = await _latest_run(storage)
    await user.send(BOOK)

    async def logged_in() -> bool:
        run = await _latest_run(storage)
        fresh = run is not None and (before is None or run.short_id != before.short_id)
        return fresh and run is not None and "login" in run.done_steps()

    await _until(logged_in, bot, timeout=120)
    await user.send("/help")  # handled in a turn of the chat: it takes the chat's lock
    lock_held = await _lock_taken(storage)
    since = tg.state.seq  # a reply after this is the new process's
    logged = len(bot.lines)  # the new worker's start-up is logged after this
    killed = bot.kill(whole=whole)
    run = await _latest_run(storage)
    assert run is not None
    done_at_kill = len(run.done_steps())

    if whole:
        bot = BotProcess.start(env)
        logged = 0
    await user.send("/help")
    replied = asyncio.create_task(
        _stamped(user.wait_for_message(_is_help, timeout=180, since=since))
    )
    next_step = finished = 0.0

    async def resumed() -> bool:
        nonlocal next_step, finished
        current = await storage.runs.get(run.short_id)
        assert current is not None
        if not next_step and len(current.done_steps()) > done_at_kill:
            next_step = time.perf_counter()
        if current.status is RunStatus.DONE:
            finished = time.perf_counter()
            return True
        if not current.status.active:
            raise RuntimeError(f"the resumed run ended {current.status}:\n{bot.tail()}")
        return False

    await _until(resumed, bot, timeout=180)
    reply = await replied
    logged = bot.first("supervisor.worker_started", after=logged)  # the new worker's lines
    phases = {
        name: at - killed for event, name in PHASES if (at := bot.reached(event, after=logged))
    }
    return bot, Restart(
        reply=reply - killed,
        resumed=phases[RESUMED],
        next_step=(next_step or finished) - killed,
        finished=finished - killed,
        lock_held=lock_held,
        phases=phases,
        log=[f"{at - killed:6.2f} {line.rstrip()}" for at, line in bot.lines[logged:]],
    )


async def _stamped(awaitable: Awaitable[object]) -> float:
    """When ``awaitable`` finished."""
    await awaitable
    return time.perf_counter()


def _env(tg: FakeTelegram, mongo: str, redis: str, portal: str, data: Path) -> dict[str, str]:
    return {
        "TELEGRAM__TOKEN": tg.token,
        "TELEGRAM__API_BASE": tg.api_base,
        "TELEGRAM__ALLOW_ALL": "true",
        "MONGODB_URI": mongo,
        "REDIS_URL": redis,
        "PORTAL__URL": portal,
        "PORTAL__USERNAME": "club",
        "PORTAL__PASSWORD": "club-demo",
        "DATA_DIR": str(data),
        "LOG_LEVEL": "INFO",
        "BROWSER__MAX_CONTEXTS": "2",
    }


async def bench(restarts: int, *, whole: bool) -> list[Restart]:
    with tempfile.TemporaryDirectory() as tmp, ExitStack() as stack:
        workdir = Path(tmp)
        mongo = stack.enter_context(running_secantus(workdir))
        redis = stack.enter_context(running_redis(workdir))
        async with (
            FakeTelegram() as tg,
            running_portal(test_api=True, seed=1) as portal,
            open_storage(mongodb_uri=mongo, redis_url=redis, data_dir=workdir) as storage,
        ):
            env = _env(tg, mongo, redis, portal.url, workdir / "data")
            bot = BotProcess.start(env)  # the first start reads the catalogue and caches it
            results = []
            try:
                for _ in range(restarts):
                    bot, result = await restart_once(bot, tg, storage, portal.url, env, whole=whole)
                    results.append(result)
            finally:
                bot.stop()
            return results


def report(results: list[Restart], *, log: bool, whole: bool) -> None:
    print("killed: " + ("the whole clubman run, started again" if whole else "the worker"))
    for n, r in enumerate(results, 1):
        if log:
            print("\n".join(r.log))
        held = "held" if r.lock_held else "free"
        print(
            f"restart {n} (chat lock {held} at the kill): kill → first reply {r.reply:.2f} s, "
            f"kill → resumed run {r.resumed:.2f} s (its next step done {r.next_step:.2f} s, "
            f"finished {r.finished:.2f} s)"
        )
        print("  kill → " + ", ".join(f"{name} {at:.2f} s" for name, at in r.phases.items()))
    print(
        f"median of {len(results)}: kill → first reply "
        f"{statistics.median(r.reply for r in results):.2f} s, kill → resumed run "
        f"{statistics.median(r.resumed for r in results):.2f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--restarts", type=int, default=3)
    parser.add_argument("--log", action="store_true", help="print the new process's log")
    parser.add_argument(
        "--whole", action="store_true", help="kill and restart all of clubman run (a cold start)"
    )
    args = parser.parse_args()
    report(run_loop(bench(args.restarts, whole=args.whole)), log=args.log, whole=args.whole)


if __name__ == "__main__":
    main()
