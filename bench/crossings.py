"""How often control crosses between the product's packages while one booking goes through
the zero-config product (the app's own factory, the reference portal in-process), and how
often it climbs back up a layer: the engine calling a job's hook, a job calling back into
the app. Counted from the calls Python makes (``sys.setprofile``), not from the imports:
a call through a library (an asyncio task, a callback) counts from the product's frame
nearest above it.

    python -m bench.crossings

Prints the distinct caller → callee pairs that cross a package boundary (and how many go
up), by package pair. A warm-up booking runs first, untraced, so the count is the steady
happy path (the catalogue read and Chromium's start are not in it).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from app.compose import open_core, open_settings_storage
from core.commands import Command
from core.output import Done, Failed, Output, Question, Receipt
from core.settings import PortalSettings, load_settings

ROOT = Path(__file__).resolve().parent.parent
# Lower layers first: a call to a higher layer than its caller's climbs back up.
LAYER = {"core": 0, "storage": 1, "adapters": 1, "scenarios": 1, "bot": 1, "mcpserver": 1, "app": 2}
WARM_UP = "забронируй 2 аудитории рядом в главном корпусе в эту пятницу с 10 до 12"
TRACED = "забронируй 2 аудитории рядом в главном корпусе в эту пятницу с 14 до 16"


def _package(frame: FrameType) -> str | None:
    path = Path(frame.f_code.co_filename)
    try:
        top = path.relative_to(ROOT).parts[0]
    except ValueError:
        return None
    return top if top in LAYER else None


def _where(frame: FrameType) -> str:
    return f"{Path(frame.f_code.co_filename).relative_to(ROOT)}:{frame.f_code.co_qualname}"


class Crossings:
    def __init__(self) -> None:
        self.pairs: set[tuple[str, str, str, str]] = set()  # (from pkg, to pkg, caller, callee)

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        callee = _package(frame)
        if callee is None:
            return
        caller_frame = frame.f_back
        while caller_frame is not None and _package(caller_frame) is None:
            caller_frame = caller_frame.f_back
        if caller_frame is None:
            return
        caller = _package(caller_frame)
        if caller is not None and caller != callee:
            self.pairs.add((caller, callee, _where(caller_frame), _where(frame)))

    def report(self) -> None:
        up = [p for p in self.pairs if LAYER[p[1]] > LAYER[p[0]]]
        print(f"package crossings (distinct caller → callee pairs): {len(self.pairs)}")
        print(f"  of them climbing back up a layer: {len(up)}")
        for (source, target), count in sorted(Counter((p[0], p[1]) for p in self.pairs).items()):
            arrow = "↑" if LAYER[target] > LAYER[source] else " "
            print(f"  {arrow} {source:>9} → {target:<9} {count}")


class _Finished:
    def __init__(self) -> None:
        self.done = asyncio.Event()
        self.last: Done | Failed | Question | None = None

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        if isinstance(output, Done | Failed | Question):  # a question: the text lacks a slot
            self.last = output
            self.done.set()


async def _book(core: Any, sink: _Finished, text: str, chat: int) -> str:
    """The run's final answer (or the question it asked), its first line."""
    sink.done.clear()
    await core.manager.handle(Command(chat_id=chat, user_id=chat, text=text))
    await asyncio.wait_for(sink.done.wait(), timeout=300)
    assert sink.last is not None
    return sink.last.text.splitlines()[0]


async def main() -> None:
    with tempfile.TemporaryDirectory() as data:
        # Zero-config whatever the environment says: the portal in-process, SecantusDB and
        # fakeredis started by the app itself.
        settings = load_settings(
            data_dir=Path(data), mongodb_uri=None, redis_url=None, portal=PortalSettings()
        )
        sink = _Finished()
        crossings = Crossings()
        async with (
            open_settings_storage(settings) as storage,
            open_core(settings, storage, sink, reminders=False) as core,
        ):
            print("warm-up:", await _book(core, sink, WARM_UP, 1))
            sys.setprofile(crossings.profile)
            try:
                answer = await _book(core, sink, TRACED, 2)
            finally:
                sys.setprofile(None)
            print("traced: ", answer)
        crossings.report()


if __name__ == "__main__":
    asyncio.run(main())
