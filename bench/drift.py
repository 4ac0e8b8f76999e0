"""The drift table (issue 29): the reference portal changed one way at a time, a booking
made, read back and cancelled through a copy of ``profiles/refportal.yaml`` twice — the
first run heals what it can (an LLM behind a fake vendor, answering as a model reading
the page would), the second starts from the healed file. Printed per kind: booked or
not (and the error), the LLM calls of each run, and the profile's diff.

The runs are ``tests/support/drift.py``'s, which ``tests/adapters/refportal/
test_profile_drift.py`` holds to what each row must be.

    python -m bench.drift [--kind KIND]...
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from adapters.profile.history import ProfileHistory
from core.browser import BrowserPool
from portal.server import running_portal
from tests.adapters.refportal.helpers import reset
from tests.portal.helpers import TestClock
from tests.support.drift import KINDS, DriftRun, drift_llm, fresh_profile, run_drift, set_drift

__all__ = ["main"]


def _outcome(run: DriftRun) -> str:
    return "booked" if run.done else "not booked: " + run.error.split(":", 1)[0]


async def _table(kinds: list[str]) -> None:
    chosen = [d for d in KINDS if d.kind in kinds] if kinds else list(KINDS)
    print(f"{'drift':16} {'first run':34} {'LLM':>3}  {'second run':34} {'LLM':>3}  written")
    diffs: list[tuple[str, str]] = []
    async with (
        running_portal(seed=1, test_api=True, clock=TestClock()) as portal,
        BrowserPool(max_contexts=2) as pool,
        drift_llm() as (vendor, picker),
    ):
        for drift in chosen:
            await reset(portal.url)
            await set_drift(portal.url, drift)
            with tempfile.TemporaryDirectory() as work:
                path = fresh_profile(Path(work), fast=drift.fast)
                first = await run_drift(portal.url, pool, path, vendor, picker, drift)
                second = await run_drift(portal.url, pool, path, vendor, picker, drift)
                history = ProfileHistory(path)
                versions = history.versions()
                diff = "".join(history.diff(v.number) for v in versions[1:])
            written = f"{len(versions) - 1} version(s)" if versions else "nothing"
            print(
                f"{drift.kind:16} {_outcome(first)[:34]:34} {first.llm_calls:3}  "
                f"{_outcome(second)[:34]:34} {second.llm_calls:3}  {written}"
            )
            if diff:
                diffs.append((drift.kind, diff))
    for kind, diff in diffs:
        print(f"\n# {kind}\n{diff}", end="")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", default=[], choices=[d.kind for d in KINDS])
    asyncio.run(_table(parser.parse_args(argv).kind))


if __name__ == "__main__":
    main()
