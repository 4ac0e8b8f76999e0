"""Process tuning for a long-running bot.

Start-up leaves a large, permanent heap (modules, pydantic schemas of every Telegram
type, the app itself). CPython's cyclic collector rescans all of it in every full
collection, and a busy bot triggers one every few hundred updates. Freezing what is
alive after start-up takes it out of those scans. The young generations are collected
first; what the old one holds is frozen as it is: a full collection there found about
20 unreachable objects among 280 000 and cost 0.3–0.5 s of every start-up (measured
with bench/restart.py), time in which a restarted bot answers nobody.

The youngest generation is collected every 700 net allocations by default: several
times per update here, about a quarter of the CPU an update costs (measured with
``gc.callbacks`` over bench/bot.py's full stack). Collecting it every 20 000 keeps
cycles from piling up for long while costing a few percent; Python 3.13 raised the
default for the same reason.

uvloop, where installed, runs the event loop: it does the socket and timer work that
every update is mostly made of in C.
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["YOUNG_GC_THRESHOLD", "loop_factory", "run", "settle_heap"]

T = TypeVar("T")
YOUNG_GC_THRESHOLD = 20_000


def settle_heap() -> None:
    """Call once, after start-up and before serving."""
    gc.collect(1)
    gc.freeze()
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG_GC_THRESHOLD, older, oldest)


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop]:
    """What makes the event loop: uvloop's where installed, else asyncio's own."""
    try:
        import uvloop
    except ImportError:  # not built for this platform
        return asyncio.new_event_loop
    return uvloop.new_event_loop


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on uvloop's event loop where it is installed."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
