"""The destructive-button page (issue 65): the booking form's «Забронировать» became
«Отправить заявку», and a new submit «Удалить все брони» stands first in the form,
posting to the portal's cancel-all (the ``destructive`` drift: it leads to «my bookings»;
``destructive_rebook``: it books the form too, so the step's own check passes).

Whatever the profile's second candidate for ``book.submit`` is — CSS, XPath, a role with
no name, a text or a name matched loosely (``exact: false``), or the CSS one first, as a
heal onto it would have left the file — nothing is pressed: the
portal receives no cancel, the club's earlier booking stays, nothing is booked, the
profile is not healed onto it, and the error says so plainly. The LLM's pick is held to
the same: «Удалить все брони» is refused, «Отправить заявку» books and heals."""

from __future__ import annotations

from datetime import time
from pathlib import Path

import pytest

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.errors import ControlRenamed
from adapters.profile.history import ProfileHistory
from core.brain import ElementPicker
from core.browser import BrowserPool
from core.errors import ClubError
from core.site.models import Room
from portal.server import RunningPortal
from tests.adapters.refportal.helpers import FAST, FRIDAY, active_bookings, set_quirks
from tests.fakes.llm import Answer
from tests.support.drift import drift_llm, page_path_only
from tests.support.portal import received_cancels

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"
SUBMIT = "  submit:\n    - role: button\n      name: Забронировать\n"
# The second candidate for the booking's button, in every style docs/profiles.md allows;
# «name_not_exact» is the button's only candidate, its name matched loosely.
STYLES = {
    "css": SUBMIT + "    - css: form button[type=submit]\n",
    "xpath": SUBMIT + "    - xpath: //form//button[@type='submit']\n",
    "role_without_name": SUBMIT + "    - role: button\n",
    "text_not_exact": SUBMIT + "    - text: все брони\n      exact: false\n",
    "name_not_exact": "  submit:\n    - role: button\n      name: брон\n      exact: false\n",
    # As an earlier heal onto the positional candidate left it: that candidate first.
    "css_first": "  submit:\n    - css: form button[type=submit]\n"
    + SUBMIT.removeprefix("  submit:\n"),
}


def _profile(tmp_path: Path, submit: str) -> Path:
    text = page_path_only(PROFILE.read_text(encoding="utf-8"))  # the form's button is used
    assert text.count(SUBMIT) == 1
    path = tmp_path / "site.yaml"
    path.write_text(text.replace(SUBMIT, submit), encoding="utf-8")
    return path


async def _book(
    system: ProfileSystem, pool: BrowserPool, start: int, *, drift: list[str], url: str
) -> None:
    """Book a free room on Friday at ``start`` for an hour, the site changed by ``drift``
    once the day is read."""
    async with pool.context() as context:
        session = system.open_session(context, username="club", password="club-demo")
        try:
            shown = await session.availability("main", FRIDAY)
            room: Room = shown.free_rooms(time(start), time(start + 1))[0]
            if drift:
                await set_quirks(url, drift=drift)
            await session.book(
                room=room, day=FRIDAY, start=time(start), end=time(start + 1),
                purpose=f"destructive {start} · #run65",
            )  # fmt: skip
        finally:
            await session.close()


async def _refused(
    system: ProfileSystem, pool: BrowserPool, *, drift: str, url: str
) -> ClubError | None:
    """What booking at 10 on the changed site raised (None: it booked)."""
    try:
        await _book(system, pool, 10, drift=[drift], url=url)
    except ClubError as exc:
        return exc
    return None


async def _club(url: str) -> list[str]:
    return sorted(str(b["id"]) for b in await active_bookings(url, user="club"))


@pytest.mark.parametrize("drift", ["destructive", "destructive_rebook"])
@pytest.mark.parametrize("style", list(STYLES))
async def test_the_destructive_button_is_never_pressed_whatever_the_candidate(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path, style: str, drift: str
) -> None:
    path = _profile(tmp_path, STYLES[style])
    written = path.read_text(encoding="utf-8")
    url = fresh_portal.url
    system = ProfileSystem(url, load_site_profile(path), retry=FAST, history=ProfileHistory(path))
    await _book(system, pool, 12, drift=[], url=url)  # the club's earlier booking
    earlier = await _club(url)
    assert len(earlier) == 1

    told = await _refused(system, pool, drift=drift, url=url)

    assert await received_cancels(url) == []  # nothing reached the cancel-all
    assert await _club(url) == earlier  # kept, and nothing booked (or booked again)
    assert path.read_text(encoding="utf-8") == written  # no heal onto it
    assert ProfileHistory(path).versions() == []
    assert isinstance(told, ControlRenamed), told  # said plainly, not «try again later»
    assert str(told).startswith("Сайт бронирования выглядит не так, как ожидалось")
    assert "ничего не нажато" in str(told) and "«Удалить все брони»" in str(told)


@pytest.mark.parametrize("drift", ["destructive", "destructive_rebook"])
async def test_the_llm_naming_the_destructive_button_is_refused_and_the_real_one_heals(
    fresh_portal: RunningPortal, pool: BrowserPool, tmp_path: Path, drift: str
) -> None:
    path = _profile(tmp_path, STYLES["css"])
    written = path.read_text(encoding="utf-8")
    url = fresh_portal.url
    async with drift_llm() as (vendor, picker):
        system = _picking(url, path, picker)
        await _book(system, pool, 12, drift=[], url=url)
        earlier = await _club(url)

        vendor.push(Answer({"kind": "button", "name": "Удалить все брони"}))
        told = await _refused(system, pool, drift=drift, url=url)
        assert await received_cancels(url) == []
        assert await _club(url) == earlier
        assert path.read_text(encoding="utf-8") == written
        assert isinstance(told, ControlRenamed), told

        vendor.push(Answer({"kind": "button", "name": "Отправить заявку"}))
        await _book(_picking(url, path, picker), pool, 14, drift=[drift], url=url)
    assert await received_cancels(url) == []
    assert len(await _club(url)) == 2 and set(earlier) < set(await _club(url))
    healed = load_site_profile(path).profile.book.submit
    assert [way.name for way in healed][:2] == ["Отправить заявку", "Забронировать"]


def _picking(url: str, path: Path, picker: ElementPicker) -> ProfileSystem:
    return ProfileSystem(
        url, load_site_profile(path), retry=FAST, history=ProfileHistory(path), picker=picker
    )
