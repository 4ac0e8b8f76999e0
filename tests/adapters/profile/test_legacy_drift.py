"""The drift suite (issue 29) on the legacy site through ``profiles/legacy.yaml``: for each
way the site changed, whether a booking still succeeds, with how many LLM calls, whether
the next run needs none, and what was written to the profile (``tests/support/drift.py``;
``python -m bench.drift --site legacy`` prints the table)."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.profile.history import ProfileHistory
from core.browser import BrowserPool
from portal.legacy.server import RunningLegacy
from tests.support.drift import LEGACY, Drift, drift_llm, fresh_profile, run_drift, set_drift

pytestmark = pytest.mark.asyncio(loop_scope="session")

# kind → (its LLM calls on the first run, the changes written); every kind is booked
EXPECTED: dict[str, tuple[int, tuple[str, ...]]] = {
    "reworded": (2, (
        "login.submit: новый первый кандидат role=button name=«Вход» (выбран LLM)",
        "book.submit: новый первый кандидат role=button name=«Записать» (выбран LLM)",
    )),
    # The form's own request is as it was: only the login's button is asked for.
    "reworded_fast": (1, (
        "login.submit: новый первый кандидат role=button name=«Вход» (выбран LLM)",
    )),
    "relabelled": (1, (
        "book.fields.3.find: новый первый кандидат label=«Примечание» (выбран LLM)",
    )),
    "columns": (0, ()),  # read by the columns' names
    "date_format": (0, ()),  # an unambiguous form is read as such
}  # fmt: skip


@pytest.mark.parametrize("drift", LEGACY.kinds, ids=[d.kind for d in LEGACY.kinds])
async def test_each_drift_of_the_legacy_site_heals_and_needs_no_llm_the_next_time(
    fresh_legacy: RunningLegacy, pool: BrowserPool, tmp_path: Path, drift: Drift
) -> None:
    calls, changes = EXPECTED[drift.kind]
    path = fresh_profile(tmp_path, fast=drift.fast, site=LEGACY)
    await set_drift(fresh_legacy.url, drift)
    async with drift_llm() as (vendor, picker):
        first = await run_drift(fresh_legacy.url, pool, path, vendor, picker, drift, LEGACY)
        healed = path.read_text(encoding="utf-8")
        second = await run_drift(fresh_legacy.url, pool, path, vendor, picker, drift, LEGACY)

    assert (first.done, first.llm_calls) == (True, calls), first.error
    assert (second.done, second.llm_calls) == (True, 0), second.error
    assert first.left_on_site == second.left_on_site == []
    history = ProfileHistory(path)
    assert tuple(c for v in history.versions() for c in v.changes) == changes
    assert path.read_text(encoding="utf-8") == healed
