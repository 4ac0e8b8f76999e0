"""``clubman learn URL --name NAME``: the operator shows the bot a site once, in a
browser window (or in a Chromium they already run, attached over CDP with ``--cdp``),
answering the terminal's prompts; the recording is written to ``OUT/NAME.recording.json``
(no password, cookie or token in it) and the profile drafted from it to ``OUT/NAME.yaml``
(or, when a part could not be drafted, the others to ``OUT/NAME.parts.yaml``)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from adapters.profile.learn import Recording, operators_browser
from adapters.profile.learn.draft import DraftError, draft_parts, draft_profile
from adapters.profile.learn.teach import teach
from core.settings import Settings

__all__ = ["learn"]


async def _ask(prompt: str) -> str | None:
    print(prompt, flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    return line if line else None


def _say(text: str) -> None:
    print(text, flush=True)


async def learn(
    settings: Settings, url: str, *, name: str, out: Path, cdp: str | None = None
) -> list[Path]:
    """Lead the demonstration; write its recording and the profile drafted from it
    (``NAME.yaml``; when a part could not be drafted, ``NAME.parts.yaml`` with the others
    and why); returns the files written."""
    browser = operators_browser(url, executable=settings.browser.executable, cdp=cdp)
    async with browser as (context, page):
        recording: Recording = await teach(name, url, context, page, say=_say, ask=_ask)
    out.mkdir(parents=True, exist_ok=True)
    written = out / f"{name}.recording.json"
    written.write_text(recording.model_dump_json(indent=2) + "\n", encoding="utf-8")
    try:  # the whole profile, where PORTAL__PROFILE can name it
        drafted, profile = draft_profile(recording), out / f"{name}.yaml"
    except DraftError as exc:  # what could be drafted, and what to show again
        drafted, profile = draft_parts(recording), out / f"{name}.parts.yaml"
        _say(f"Профиль составлен не целиком: {exc.message}")
    profile.write_text(drafted, encoding="utf-8")
    return [written, profile]
