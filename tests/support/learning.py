"""Playing the operator of ``clubman learn``: a Chromium the operator «already runs» (with
``--remote-debugging-port``), the ``clubman learn`` process attached to it over CDP and
answered on stdin/stdout, and the site's pages driven in that same window as a person
would. Used by the learning tests and ``bench/learn.py``."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from playwright.async_api import Browser, Page, async_playwright

from adapters.profile.learn import Recording
from storage.process import die_with_parent

__all__ = ["CHROMIUM", "Demonstration", "Learner", "operators_chromium", "play", "run_learn"]

CLUBMAN = Path(sys.executable).with_name("clubman")
CHROMIUM = os.environ.get("BROWSER__EXECUTABLE", "/usr/bin/chromium")


@asynccontextmanager
async def operators_chromium() -> AsyncIterator[str]:
    """A headless Chromium with its DevTools endpoint, as an operator's own would be."""
    profile = tempfile.mkdtemp(prefix="clubman-learn-")
    proc = subprocess.Popen(
        [
            CHROMIUM,
            "--headless=new",
            "--no-sandbox",
            "--remote-debugging-port=0",
            f"--user-data-dir={profile}",
            "about:blank",
        ],  # fmt: skip
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its helper processes are stopped with it
        preexec_fn=die_with_parent,  # out of the tests' process group: dies with them
    )
    assert proc.stderr is not None
    try:
        endpoint = ""
        while not endpoint:
            line = await asyncio.to_thread(proc.stderr.readline)
            assert line, "chromium exited before it listened"
            found = re.search(r"DevTools listening on (ws://\S+)", line)
            endpoint = found[1] if found else ""
        yield endpoint
    finally:
        # The whole group: a helper left running writes into the profile after it is removed.
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stderr.close()
        shutil.rmtree(profile, ignore_errors=True)


class Learner:
    """The ``clubman learn`` process: its prompts read, its questions answered."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.said: list[str] = []
        self.answers = 0  # lines the operator typed (Enter alone counts)

    async def prompt(self, starts: str | tuple[str, ...]) -> str:
        """Read lines until one starts with ``starts`` (or one of them: a prompt waiting
        for an answer)."""
        assert self.proc.stdout is not None
        while True:
            try:
                raw = await asyncio.wait_for(self.proc.stdout.readline(), 60)
            except TimeoutError:
                raise AssertionError(f"no «{starts}» from clubman learn: {self.said}") from None
            assert raw, "clubman learn ended: " + "\n".join(self.said)
            line = raw.decode().rstrip("\n")
            self.said.append(line)
            if line.startswith(starts):
                return line

    async def answer(self, text: str = "") -> None:
        assert self.proc.stdin is not None
        self.answers += 1
        self.proc.stdin.write((text + "\n").encode())
        await self.proc.stdin.drain()

    async def finished(self) -> int:
        """The exit status, the rest of what was said read."""
        assert self.proc.stdout is not None
        rest = await asyncio.wait_for(self.proc.stdout.read(), 120)
        self.said += rest.decode().splitlines()
        return await asyncio.wait_for(self.proc.wait(), 60)


@dataclass(frozen=True)
class Demonstration:
    recording: Recording
    out: Path  # what clubman learn wrote
    room: str  # the room the operator booked (and cancelled)
    cookies: list[str]  # the operator's browser's cookie values at the end
    said: list[str]  # every line clubman learn printed
    answers: int  # lines the operator typed


Operator = Callable[[Learner, Browser, Page], Awaitable[None]]


async def play(
    site: str, chromium: str, work: Path, *, name: str, operator: Operator,
    args: tuple[str, ...] = (), today: date | None = None,
) -> tuple[int, Learner, list[str]]:  # fmt: skip
    """Run ``clubman learn`` against ``site`` and let ``operator`` play the person (it
    returns once it answered the last prompt, or closed the input); the exit status,
    the learner and the operator's browser's cookie values at the end. ``today``: the
    site's, for a test site on a clock of its own."""
    if today is not None:
        args = (*args, "--today", today.isoformat())
    # No LLM configured, whatever the machine has: a draft is the demonstration's alone.
    env = {k: v for k, v in os.environ.items() if not k.startswith("LLM__")}
    env |= {"DATA_DIR": str(work / "data"), "BROWSER__EXECUTABLE": CHROMIUM}
    proc = await asyncio.create_subprocess_exec(
        str(CLUBMAN), "learn", site, "--name", name, "--out", str(work / "out"),
        "--cdp", chromium, *args,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    learner = Learner(proc)
    async with async_playwright() as playwright:
        browser = await playwright.chromium.connect_over_cdp(chromium)
        try:
            await operator(learner, browser, browser.contexts[0].pages[0])
            status = await learner.finished()
            cookies = [c["value"] for c in await browser.contexts[0].cookies()]
        finally:
            if proc.returncode is None:
                proc.kill()
            await browser.close()
    return status, learner, cookies


async def run_learn(
    site: str, chromium: str, work: Path, *, name: str, room: str, operator: Operator,
    args: tuple[str, ...] = (), today: date | None = None,
) -> Demonstration:  # fmt: skip
    """A whole demonstration: ``play`` to the end, and what it wrote."""
    status, learner, cookies = await play(
        site, chromium, work, name=name, operator=operator, args=args, today=today
    )
    assert status == 0, "\n".join(learner.said)
    written = (work / "out" / f"{name}.recording.json").read_text(encoding="utf-8")
    return Demonstration(
        Recording.model_validate_json(written), work / "out", room, cookies, learner.said,
        learner.answers,
    )  # fmt: skip
