"""Process tuning: the event loop `clubman run` uses and the heap settled after start-up."""

from __future__ import annotations

import asyncio
import gc

from app.runtime import YOUNG_GC_THRESHOLD, run, settle_heap


def test_run_uses_uvloop_where_installed() -> None:
    async def loop_module() -> str:
        return type(asyncio.get_running_loop()).__module__

    # uvloop is a dependency on every platform CI and deployments use.
    assert run(loop_module()).startswith("uvloop")


def test_settle_heap_freezes_start_up_and_collects_the_young_less_often() -> None:
    before = gc.get_threshold()
    try:
        settle_heap()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (YOUNG_GC_THRESHOLD, *before[1:])
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
