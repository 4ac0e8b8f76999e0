"""The drift table (issue 29): a site (the reference portal, or the legacy site) changed
one way at a time, a booking made, read back and cancelled through a copy of its profile
(``profiles/refportal.yaml``, ``profiles/legacy.yaml``) twice — the
first run heals what it can (an LLM behind a fake vendor, answering as a model reading
the page would), the second starts from the healed file. Printed per kind: booked or
not (and the error), the LLM calls of each run, and the profile's diff.

The runs are ``tests/support/drift.py``'s, which ``tests/adapters/refportal/
test_profile_drift.py`` and ``tests/adapters/profile/test_legacy_drift.py`` hold to what
each row must be.

    python -m bench.drift [--site refportal|legacy] [--kind KIND]...
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from adapters.profile.history import ProfileHistory
from core.browser import BrowserPool
from portal.legacy.server import running_legacy
from portal.server import running_portal
from tests.adapters.refportal.helpers import reset
from tests.portal.helpers import TestClock
from tests.support.drift import (
    LEGACY,
    REFPORTAL,
    DriftRun,
    DriftSite,
    drift_llm,
    fresh_profile,
    run_drift,
    set_drift,
)

SITES = {site.name: site for site in (REFPORTAL, LEGACY)}

__all__ = ["main"]


def _outcome(run: DriftRun) -> str:
    return "booked" if run.done else "not booked: " + run.error.split(":", 1)[0]


@asynccontextmanager
async def _running(site: DriftSite) -> AsyncIterator[str]:
    if site is LEGACY:
        async with running_legacy(seed=1, test_api=True, clock=TestClock()) as legacy:
            yield legacy.url
    else:
        async with running_portal(seed=1, test_api=True, clock=TestClock()) as portal:
            yield portal.url


async def _table(site: DriftSite, kinds: list[str]) -> None:
    chosen = [d for d in site.kinds if d.kind in kinds] if kinds else list(site.kinds)
    print(f"{'drift':16} {'first run':34} {'LLM':>3}  {'second run':34} {'LLM':>3}  written")
    diffs: list[tuple[str, str]] = []
    async with (
        _running(site) as url,
        BrowserPool(max_contexts=2) as pool,
        drift_llm() as (vendor, picker),
    ):
        for drift in chosen:
            await reset(url)
            await set_drift(url, drift)
            with tempfile.TemporaryDirectory() as work:
                path = fresh_profile(Path(work), fast=drift.fast, site=site)
                first = await run_drift(url, pool, path, vendor, picker, drift, site)
                second = await run_drift(url, pool, path, vendor, picker, drift, site)
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
    parser.add_argument("--site", choices=sorted(SITES), default="refportal")
    parser.add_argument("--kind", action="append", default=[], help="a drift kind (default: all)")
    args = parser.parse_args(argv)
    site = SITES[args.site]
    unknown = set(args.kind) - {d.kind for d in site.kinds}
    if unknown:
        parser.error(f"{args.site} has no drift {sorted(unknown)}: {[d.kind for d in site.kinds]}")
    asyncio.run(_table(site, args.kind))


if __name__ == "__main__":
    main()
