"""The destructive-button page in a real booking run (issue 65): the app's core over the
reference portal driven by a copy of ``profiles/refportal.yaml`` whose booking button has
a CSS fallback, with an LLM behind a fake vendor. The site reworded «Забронировать» and
put «Удалить все брони» first in the form: the user is told plainly that nothing was
pressed, the run's timeline names the error for the administrators, the club's earlier
booking stays and nothing reached the portal's cancel-all."""

from __future__ import annotations

from pathlib import Path

from core.events import BaseEvent, StepFailed
from core.output import Done, Failed
from tests.fakes.llm import Answer as LLMAnswer
from tests.fakes.llm import FakeAnthropic
from tests.support.brain_core import KEY, CoreFactory, cmd, llm_settings
from tests.support.drift import fresh_profile
from tests.support.portal import portal_bookings, received_cancels, set_quirks
from tests.support.sinks import CollectingSink

SUBMIT = "  submit:\n    - role: button\n      name: Забронировать\n"
NONE = LLMAnswer({"kind": "none", "name": ""})


async def test_the_destructive_button_is_not_pressed_and_the_user_is_told_plainly(
    make_core: CoreFactory,
    sink: CollectingSink,
    portal_url: str,
    events: list[BaseEvent],
    tmp_path: Path,
) -> None:
    path = fresh_profile(tmp_path)
    text = path.read_text(encoding="utf-8")
    assert text.count(SUBMIT) == 1
    path.write_text(text.replace(SUBMIT, SUBMIT + "    - css: form button[type=submit]\n"))
    written = path.read_text(encoding="utf-8")
    async with FakeAnthropic(api_key=KEY) as vendor:
        vendor.push(*[NONE] * 8)  # the element picker sees nothing to press
        async with make_core(llm_settings("anthropic", vendor.base_url), profile=path) as core:
            await core.handle(cmd("забронируй 302 в главном послезавтра с 14 до 15"))
            await sink.wait_for(Done, timeout=60)
            earlier = await portal_bookings(portal_url, user="club")
            assert len(earlier) == 1

            await set_quirks(portal_url, drift=["destructive"])
            mark = len(sink.outputs)
            await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
            failed = await sink.wait_for(Failed, after=mark, timeout=60)

    assert await received_cancels(portal_url) == []
    assert await portal_bookings(portal_url, user="club") == earlier
    assert path.read_text(encoding="utf-8") == written
    assert "ничего не нажато" in failed.text and "«Удалить все брони»" in failed.text
    assert not any(isinstance(o, Done) for o in sink.outputs[mark:])
    told = [e for e in events if isinstance(e, StepFailed) and e.error_kind == "ControlRenamed"]
    assert told and "Удалить все брони" in told[0].error
    # the administrators read where in the profile it broke and what was tried
    assert told[0].for_admins.startswith("профиль ") and f"{path.name}:" in told[0].for_admins
    assert "form button[type=submit]" in told[0].for_admins, told[0].for_admins
