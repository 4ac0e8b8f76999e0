"""``clubman learn URL --name NAME``: the operator shows the bot a site once, in a
browser window (or in a Chromium they already run, attached over CDP with ``--cdp``),
answering the terminal's prompts. The recording is written to ``OUT/NAME.recording.json``
(no password, cookie or token in it) and the profile drafted from it to ``OUT/NAME.yaml``
(or, when a part could not be drafted, the others to ``OUT/NAME.parts.yaml``).

The draft is then checked on the site at once (``clubman site check``, with the account
the operator logged in with; the password is asked here and kept nowhere), the report is
shown, and the operator may show one part again rather than start over.

With an LLM configured (``LLM__PROVIDERS``), it reads the booking rules a day's page states
in words the draft does not read, for the operator to keep or replace; the main path needs
none."""

from __future__ import annotations

import asyncio
import getpass
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date, datetime
from pathlib import Path

import structlog
import yaml

from adapters.profile import parse_site_profile
from adapters.profile.check import SiteReport
from adapters.profile.errors import DraftError, LearnStopped
from adapters.profile.learn import Recording, operators_browser
from adapters.profile.learn.draft import draft_parts, draft_profile
from adapters.profile.learn.teach import Lesson, Part
from adapters.profile.learn.values import account
from app.site import check_profile, render_report
from core.llm import LLM, LLMCallRecord, MemorySpendLedger, build_llm
from core.settings import Settings

__all__ = ["learn"]

log = structlog.get_logger()


@asynccontextmanager
async def _llm(settings: Settings) -> AsyncIterator[LLM | None]:
    """The configured LLM (None: none is), each call logged without its words."""

    async def logged(record: LLMCallRecord) -> None:
        log.info("learn.llm_called", provider=record.provider, purpose=record.purpose)

    llm = build_llm(settings.llm, cache=None, ledger=MemorySpendLedger(), on_call=logged)
    if llm is None:
        yield None
        return
    async with llm:
        yield llm


async def _ask(prompt: str) -> str | None:
    print(prompt, flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    return line if line else None


async def _ask_secret(prompt: str) -> str | None:
    """A password: not echoed at a terminal; a script answers it as any other line."""
    if sys.stdin.isatty():
        return await asyncio.to_thread(getpass.getpass, prompt + " ")
    line = await _ask(prompt)
    return line.rstrip("\r\n") if line is not None else None


def _say(text: str) -> None:
    print(text, flush=True)


_PARTS: dict[str, Part] = {"1": "login", "2": "day", "3": "booking"}
# Which part of the demonstration a part of the profile came from, and a part of the check.
_DRAFTED_FROM: dict[str, str] = {
    "login": "1", "catalogue": "2", "rules": "2", "availability": "2", "book": "3",
    "booking_page": "3", "my_bookings": "3", "cancel": "3",
}  # fmt: skip
_CHECKED_FROM = {"вход": "1", "каталог": "2"}  # «мои брони», «бронь»: 3


class _Drafts:
    """The files a demonstration writes, rewritten after each part shown again."""

    def __init__(self, out: Path, name: str) -> None:
        self.out, self.name = out, name

    def write(self, recording: Recording) -> tuple[list[Path], str | None, str]:
        """The files written, the profile's text (None: not whole) and the part whose
        drafting failed (its name, or "")."""
        self.out.mkdir(parents=True, exist_ok=True)
        written = self.out / f"{self.name}.recording.json"
        written.write_text(recording.model_dump_json(indent=2) + "\n", encoding="utf-8")
        whole, parts = self.out / f"{self.name}.yaml", self.out / f"{self.name}.parts.yaml"
        try:  # the whole profile, where PORTAL__PROFILE can name it
            drafted = draft_profile(recording)
        except DraftError as exc:  # what could be drafted, and what to show again
            some = draft_parts(recording)
            parts.write_text(some, encoding="utf-8")
            whole.unlink(missing_ok=True)
            _say(f"Профиль составлен не целиком: {exc.message}")
            missing = [p for p in _DRAFTED_FROM if p not in yaml.safe_load(some)]
            return [written, parts], None, missing[0] if missing else ""
        whole.write_text(drafted, encoding="utf-8")
        parts.unlink(missing_ok=True)
        return [written, whole], drafted, ""


async def learn(
    settings: Settings,
    url: str,
    *,
    name: str,
    out: Path,
    cdp: str | None = None,
    lists_by_example: bool = False,
    today: date | None = None,
) -> list[Path]:
    """Lead the demonstration, write its recording and the profile drafted from it, check
    the profile on the site and let the operator show a part again until it passes (or
    they leave it); returns the files written. ``today``: the site's, when its clock is
    not ours (a test site's); else today in the configured time zone."""
    drafts = _Drafts(out, name)
    password: str | None = None
    async with (
        _llm(settings) as llm,
        operators_browser(url, executable=settings.browser.executable, cdp=cdp) as (
            context,
            page,
        ),
    ):
        lesson = Lesson(
            name, url, context, page, say=_say, ask=_ask, lists_by_example=lists_by_example,
            llm=llm,
        )  # fmt: skip
        try:
            recording = await lesson.whole()
        except LearnStopped:
            # Stopped (Ctrl-D): what was shown so far is kept, and the parts it drafts.
            drafts.write(lesson.recording)
            raise
        while True:
            written, drafted, failed = drafts.write(recording)
            suggested = _DRAFTED_FROM.get(failed, "3")
            if drafted is not None:
                username = account(recording)
                if password is None and username:
                    password = await _ask_secret(
                        f"Проверим профиль на сайте как {username}: напишите пароль (он нигде "
                        "не сохраняется; Enter — не проверять)."
                    )
                if not password or not username:
                    break
                report = await _check(settings, drafted, url, username, password, today)
                _say(render_report(report).rstrip("\n"))
                if report.ok:
                    break
                bad = [p.part for p in report.parts if not p.ok]
                suggested = _CHECKED_FROM.get(bad[0], "3") if bad else "3"
                if "вход" in bad:
                    password = None  # perhaps mistyped here: asked again
            answer = await _ask(
                f"Показать часть снова? 1 — вход, 2 — свободные аудитории, 3 — бронь (с "
                f"отказом, «моими бронями» и отменой). Похоже, нужна {suggested}. "
                "Enter — оставить как есть."
            )
            part = _PARTS.get((answer or "").strip())
            if part is None:
                break
            try:
                await lesson.show(part)
            except LearnStopped:
                drafts.write(lesson.recording)  # the part's steps shown before it stopped
                raise
            recording = lesson.recording
    return written


async def _check(
    settings: Settings, drafted: str, url: str, username: str, password: str, today: date | None
) -> SiteReport:
    profile = parse_site_profile(drafted, "drafted.yaml")
    today = today or datetime.now(settings.tz).date()
    _say("Проверяю профиль на сайте…")
    return await check_profile(
        settings, profile, url, username=username, password=password, today=today
    )
