"""A site profile that a changed site outgrew, healed in a real booking run (issue 29):
the app's core over the reference portal driven by a copy of ``profiles/refportal.yaml``,
a scripted LLM vendor, real Chromium and storage.

Buttons reworded: the LLM picks the new ones from the page, the booking is made, and the
profile gets a new version naming the run; the next booking needs no LLM call. A notice
page put in front of the site is not the profile's to heal: the brain clicks through it
(once by the LLM, then from memory) and the profile stays as it was."""

from __future__ import annotations

from pathlib import Path

from adapters.profile import load_site_profile
from adapters.profile.history import ProfileHistory
from core.events import BaseEvent
from core.output import Done, Question
from tests.fakes.llm import Answer as LLMAnswer
from tests.fakes.llm import FakeAnthropic
from tests.support.brain_core import GO, KEY, TICK, CoreFactory, cmd, decided, llm_settings
from tests.support.drift import fresh_profile
from tests.support.portal import portal_bookings, set_quirks
from tests.support.sinks import CollectingSink


async def test_reworded_buttons_are_picked_by_the_llm_written_back_and_not_asked_again(
    make_core: CoreFactory, sink: CollectingSink, portal_url: str, tmp_path: Path
) -> None:
    path = fresh_profile(tmp_path)
    async with FakeAnthropic(api_key=KEY) as vendor:
        vendor.push(
            LLMAnswer({"kind": "button", "name": "Вход"}),
            LLMAnswer({"kind": "button", "name": "Отправить заявку"}),
        )
        async with make_core(llm_settings("anthropic", vendor.base_url), profile=path) as core:
            await set_quirks(portal_url, drift=["reworded"])
            await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
            done = await sink.wait_for(Done, timeout=60)
            assert "301" in done.text
            assert len(vendor.requests) == 2
            assert all(b["messages"][0]["content"] for b in vendor.bodies)
            prompt = vendor.bodies[1]["messages"][0]["content"]
            assert "Забронировать" in prompt and "Отправить заявку" in prompt

            mark = len(sink.outputs)
            await core.handle(cmd("забронируй 302 в главном послезавтра с 14 до 15"))
            await sink.wait_for(Done, after=mark, timeout=60)
        assert len(vendor.requests) == 2  # the second run found both in the healed profile

    booked = await portal_bookings(portal_url, user="club")
    assert sorted(str(b["room_number"]) for b in booked) == ["301", "302"]
    profile = load_site_profile(path).profile
    assert profile.login.submit[0].name == "Вход"
    assert profile.book.submit[0].name == "Отправить заявку"
    versions = ProfileHistory(path).versions()
    assert [v.number for v in versions] == [1, 2, 3]
    run = next(b["purpose"] for b in booked if str(b["room_number"]) == "301").rpartition("#")[2]
    assert versions[2].run == f"#{run}"  # the booking's version names the run that made it


async def test_a_notice_in_front_of_a_profile_site_is_the_brains_and_the_profile_stays(
    make_core: CoreFactory,
    sink: CollectingSink,
    portal_url: str,
    events: list[BaseEvent],
    tmp_path: Path,
) -> None:
    path = fresh_profile(tmp_path)
    written = path.read_text(encoding="utf-8")
    async with FakeAnthropic(api_key=KEY) as vendor:
        vendor.push(LLMAnswer({"action": "click", "targets": [TICK, GO]}))
        async with make_core(llm_settings("anthropic", vendor.base_url), profile=path) as core:
            await set_quirks(portal_url, notice=True)
            await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
            await sink.wait_for(Done, timeout=60)
            await set_quirks(portal_url, notice=True)  # everyone sees the notice again
            mark = len(sink.outputs)
            await core.handle(cmd("забронируй 302 в главном послезавтра с 14 до 15"))
            await sink.wait_for(Done, after=mark, timeout=60)

    # One LLM call in all: the brain's, on the first run; never the element picker's (a
    # page a redirect led to is not the page the step wanted, changed).
    assert [b["messages"][0]["content"].count("<untrusted_page>") for b in vendor.bodies] == [1]
    assert decided(events) == [("llm", "click", True), ("memory", "click", True)]
    assert not any(isinstance(o, Question) for o in sink.outputs)
    assert path.read_text(encoding="utf-8") == written
    assert ProfileHistory(path).versions() == []
