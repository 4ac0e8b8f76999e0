"""A bot process for crash tests: the app's own core (``app.compose.open_core``: the
configured booking system, its catalogue read from the site, real scenarios and browser)
on shared storage.

    PORTAL__KIND=... PORTAL__URL=... PORTAL__USERNAME=... PORTAL__PASSWORD=... \\
    python -m tests.support.booking_child MONGO REDIS DB start|resume [TEXT]

The booking system comes from the environment, as the product's does. ``start`` handles
TEXT as chat 100's command; ``resume`` only starts (resuming what was running). Either
way it exits 0 once no run of chat 100 is active and no reply is owed. Tests start it
with :func:`spawn`. Each output the view shows is printed as a line ("done …").

``DIE_AT_ANSWER=before|after`` makes the process SIGKILL itself when the final answer
reaches the view: before it is handed over, or after it was shown but before that is
recorded (the two boundaries of a durable reply).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from app.compose import open_core
from core.commands import Command
from core.output import Done, Failed, Output, Receipt, receipted
from core.settings import load_settings
from storage import open_storage
from storage.process import die_with_parent

__all__ = ["CHAT", "kill_when", "spawn", "wait_until"]

ROOT = Path(__file__).resolve().parents[2]
CHAT = 100


class PrintSink:
    def __init__(self) -> None:
        self._die_at = os.environ.get("DIE_AT_ANSWER")

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        final = isinstance(output, Done | Failed)
        if final and self._die_at == "before":
            os.kill(os.getpid(), signal.SIGKILL)
        if final and self._die_at == "after" and receipt is not None:
            if await receipt.attempting():
                self._print(output)
            os.kill(os.getpid(), signal.SIGKILL)
        async with receipted(receipt) as show:
            if show:
                self._print(output)

    @staticmethod
    def _print(output: Output) -> None:
        print(output.kind, getattr(output, "text", ""), flush=True)


def spawn(
    mongo: str, redis: str, db: str, mode: str, text: str = "", *, env: Mapping[str, str]
) -> subprocess.Popen[bytes]:
    """This module in a new process (dies with the test), ``env`` added to the test's."""
    argv = [sys.executable, "-m", "tests.support.booking_child", mongo, redis, db, mode]
    if mode == "start":
        argv.append(text)
    return subprocess.Popen(
        argv,
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent,
        env={**os.environ, "LOG_LEVEL": "WARNING", "BROWSER__MAX_CONTEXTS": "2", **env},
    )


async def wait_until(
    condition: Callable[[], Awaitable[bool]],
    proc: subprocess.Popen[bytes],
    *,
    timeout: float = 120,
    every: float = 0.02,
) -> None:
    """Poll ``condition`` until it holds; fail if the child exits first or it never does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not await condition():
        if proc.poll() is not None:
            output = proc.stdout.read().decode() if proc.stdout else ""
            raise AssertionError(f"the bot exited before the kill point:\n{output}")
        assert loop.time() < deadline, "kill point not reached"
        await asyncio.sleep(every)


async def kill_when(
    condition: Callable[[], Awaitable[bool]], proc: subprocess.Popen[bytes], *, timeout: float
) -> None:
    """SIGKILL ``proc`` once ``condition`` holds (as :func:`wait_until` polls) and reap it;
    it is killed whatever happens, also when the wait fails."""
    try:
        await wait_until(condition, proc, timeout=timeout)
    finally:
        proc.kill()  # SIGKILL
        proc.wait()


async def main(mongo: str, redis: str, db: str, mode: str, *, text: str) -> None:
    settings = load_settings()
    async with (
        # Both servers are given: nothing is written under data_dir.
        open_storage(
            mongodb_uri=mongo, redis_url=redis, data_dir=settings.data_dir, db_name=db
        ) as storage,
        open_core(settings, storage, PrintSink()) as services,
    ):
        core = services.manager
        if mode == "start":
            await core.handle(Command(chat_id=CHAT, user_id=CHAT, text=text))
        # Until nothing is running or owed, and a reply taken for sending has been shown.
        while (
            await storage.runs.active_for_chat(CHAT)
            or await storage.runs.owing_replies()
            or core.runner.replies.in_flight
        ):
            await asyncio.sleep(0.2)
        await core.runner.wait_idle()
    print("finished", flush=True)


if __name__ == "__main__":
    mongo, redis, db, mode, *rest = sys.argv[1:]
    asyncio.run(main(mongo, redis, db, mode, text=rest[0] if rest else ""))
