"""The drift suite (issue 29) on the reference portal: for each way the site changed,
whether a booking through ``profiles/refportal.yaml`` still succeeds, with how many LLM
calls, whether the next run needs none, and what was written to the profile. See
``tests/support/drift.py``; ``python -m bench.drift`` prints the table.

What is not healed fails the way a user can act on, books nothing and writes nothing:
a notice page is the brain's (``tests/scenarios/test_profile_heal_e2e.py``), a new
required checkbox is an agreement only a person may give, a button hidden in a menu is
not on the page the LLM is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.profile.history import ProfileHistory
from core.browser import BrowserPool
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import active_bookings
from tests.fakes.llm import Answer
from tests.support.drift import KINDS, Drift, drift_llm, fresh_profile, run_drift, set_drift
from tests.support.portal import chaos_served

pytestmark = pytest.mark.asyncio(loop_scope="session")

# kind → (booked on the first run, its LLM calls, the error it ended with, the changes written)
EXPECTED: dict[str, tuple[bool, int, str, tuple[str, ...]]] = {
    "reworded": (True, 2, "", (
        "login.submit: новый первый кандидат role=button name=«Вход» (выбран LLM)",
        "book.submit: новый первый кандидат role=button name=«Отправить заявку» (выбран LLM)",
    )),
    # The form's own request is as it was: only the login's button is asked for.
    "reworded_fast": (True, 1, "", (
        "login.submit: новый первый кандидат role=button name=«Вход» (выбран LLM)",
    )),
    "relabelled": (True, 1, "", (
        "book.fields.3.find: новый первый кандидат label=«Назначение» (выбран LLM)",
    )),
    "ids_and_classes": (True, 0, "", ()),
    "columns": (True, 0, "", ()),
    "date_format": (True, 0, "", ()),
    "notice": (False, 0, "нет списка корпусов", ()),
    "consent": (False, 0, "Обязуюсь освободить аудиторию вовремя", ()),
    "menu_login": (False, 1, "нет кнопки входа", ()),
    # The free cells drawn another way: the profile's second free test reads them.
    "free_marker": (True, 0, "", ("availability.grid.slot.free: кандидат 2 стал первым",)),
    "column_inserted": (True, 0, "", ()),
    # Not «not found»: the booking is there, its cancel is not (and the cancel declares no
    # endpoint a picked control may send to: nothing is pressed).
    "cancel_renamed": (False, 1, "нет кнопки отмены", ()),
    "in_place": (True, 0, "", ()),
    # «Номер» headed «№ брони»: the number's second column, «№», is the one header with
    # that word in it.
    "number_renamed": (True, 0, "", ("my_bookings.number: кандидат 2 стал первым",)),
}  # fmt: skip
# Kinds whose run's booking stays on the site: what drifted is what cancelling needs (the
# control).
LEFT = {"cancel_renamed"}


@pytest.mark.parametrize("drift", KINDS, ids=[d.kind for d in KINDS])
async def test_each_drift_heals_or_fails_plainly_and_a_heal_needs_no_llm_the_next_time(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path, drift: Drift
) -> None:
    booked, calls, error, changes = EXPECTED[drift.kind]
    path = fresh_profile(tmp_path, fast=drift.fast)
    await set_drift(fresh_portal.url, drift)
    async with drift_llm() as (vendor, picker):
        first = await run_drift(fresh_portal.url, pool, path, vendor, picker, drift)
        healed = path.read_text(encoding="utf-8")
        second = await run_drift(fresh_portal.url, pool, path, vendor, picker, drift)

    assert (first.done, first.llm_calls) == (booked, calls), first.error
    assert error in first.error
    if drift.kind in LEFT:
        assert first.left_on_site and set(first.left_on_site) <= set(second.left_on_site)
    else:
        assert first.left_on_site == second.left_on_site == []
    history = ProfileHistory(path)
    assert tuple(c for v in history.versions() for c in v.changes) == changes
    # The second run asks the LLM nothing: a heal is in the file, and a page the model
    # said nothing of is, unchanged, answered by the LLM layer's response cache.
    # (A kind whose booking stays shows the model another page the second time, with
    # one more booking on it: asked again, as the first time.)
    assert second.llm_calls == (calls if drift.kind in LEFT else 0)
    assert path.read_text(encoding="utf-8") == healed
    if booked:
        assert second.done, second.error
        assert len(history.versions()) == (len(changes) + 1 if changes else 0)
    else:
        assert second.error == first.error


async def test_a_picked_element_whose_step_then_fails_writes_nothing(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path
) -> None:
    path = fresh_profile(tmp_path)
    written = path.read_text(encoding="utf-8")
    # The login is reworded too; the model gets it right, then names a link for the
    # booking's button: the step sends nothing and reads no booking, so only the
    # login's heal is kept.
    wrong = Drift(
        "reworded",
        {"drift": ["reworded"]},
        (
            Answer({"kind": "button", "name": "Вход"}),
            Answer({"kind": "link", "name": "Назад к аудиториям"}),
        ),
    )
    await set_drift(fresh_portal.url, wrong)
    async with drift_llm() as (vendor, picker):
        run = await run_drift(fresh_portal.url, pool, path, vendor, picker, wrong)

    # The link led away with no booking number: the answer unknown, «my bookings» looked
    # at, the form opened again and the model asked afresh (the wrong pick forgotten);
    # it answers nothing more here, so the run ends with the missing button.
    assert not run.done and run.llm_calls == 3
    assert "нет кнопки брони" in run.error
    assert await active_bookings(fresh_portal.url, user="club") == []
    changes = [c for v in ProfileHistory(path).versions() for c in v.changes]
    assert changes == ["login.submit: новый первый кандидат role=button name=«Вход» (выбран LLM)"]
    healed = path.read_text(encoding="utf-8")
    assert "Назад к аудиториям" not in healed
    assert healed.replace('    - role: "button"\n      name: "Вход"\n', "", 1) == written


async def test_a_picked_element_may_change_nothing_its_step_does_not_declare(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path
) -> None:
    """The cancel declares no endpoint in ``may_change``: even the right button, picked
    when the profile's no longer matched, sends nothing (the guard blocks its POST), so
    nothing is cancelled and nothing is written."""
    path = fresh_profile(tmp_path)
    text = path.read_text(encoding="utf-8")
    cancel = "cancel:\n  control:\n    - role: button\n      name: Отменить\n"
    assert text.count(cancel) == 1
    path.write_text(text.replace(cancel, cancel.replace("Отменить", "Снять бронь")), "utf-8")
    written = path.read_text(encoding="utf-8")
    drift = Drift("cancel", {}, (Answer({"kind": "button", "name": "Отменить"}),) * 4)
    async with drift_llm() as (vendor, picker):
        run = await run_drift(fresh_portal.url, pool, path, vendor, picker, drift)

    assert run.error.startswith("RequestBlocked") and "/cancel" in run.error, run
    assert run.llm_calls == 1 and len(run.left_on_site) == 1  # still booked
    assert (await chaos_served(fresh_portal.url))["cancel_requests"] == 0  # none reached it
    assert path.read_text(encoding="utf-8") == written
    assert ProfileHistory(path).versions() == []
