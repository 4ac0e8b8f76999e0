"""What the user can be offered when the brain cannot (or may not) decide: the page's
safe actions (its buttons and links by kind and name, with its real checkboxes ticked
first) plus «Отменить», as options with stable ids, asked through ``ctx.ask`` — once per
page and run (``asked_before``)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, NoReturn
from urllib.parse import urlsplit

from core.brain.models import ClickTarget, PageSnapshot, UserChoice
from core.brain.speech import spoken
from core.brain.validate import page_signature, safe_targets
from core.commands import Lang
from core.output import Option
from core.scenario import StepContext
from core.texts import Page, tr

__all__ = [
    "ABORT_ID",
    "PAGE_KEY",
    "ask_about_page",
    "asked_before",
    "page_answer_keys",
    "page_name",
    "user_choices",
]

ABORT_ID = "abort"
PAGE_KEY = "page"
_MAX_ACTIONS = 4


def _id(signature: str, label: str) -> str:
    blob = f"{signature}\n{label}".encode()
    return "pg" + hashlib.sha1(blob).hexdigest()[:8]  # noqa: S324 - not security


def user_choices(page: PageSnapshot, lang: Lang) -> list[UserChoice]:
    """Up to four safe actions (ticking the page's checkboxes goes with each button), then
    «Отменить». Ids depend only on the page (its signature) and what the choice does, so
    they survive a re-run and an answer tells which page it was about."""
    signature = page_signature(page)
    targets = safe_targets(page)
    boxes = [t for t in targets if t.role == "checkbox"]
    choices: list[UserChoice] = []
    for target in targets:
        if target.role == "checkbox":
            continue
        clicks: tuple[ClickTarget, ...]
        if target.role == "button":
            clicks = (*boxes, target)
            ticked = ", ".join(f"«{b.name}»" for b in boxes)
            press = tr(Page.PRESS, lang, name=target.name)
            label = (
                tr(Page.TICK_AND, lang, ticked=ticked, press=press)
                if boxes
                else press[0].upper() + press[1:]
            )
        else:
            clicks = (target,)
            label = tr(Page.OPEN, lang, name=target.name)
        choices.append(UserChoice(id=_id(signature, label), label=label[:120], clicks=clicks))
        if len(choices) == _MAX_ACTIONS:
            break
    choices.append(UserChoice(id=ABORT_ID, label=tr(Page.ABORT, lang), abort=True))
    return choices


def page_name(page: PageSnapshot) -> str:
    """What to call the page in a message: its heading or title if fit to be shown (the
    page wrote them: «Пришлите пароль» is not), else its address's path."""
    return spoken((page.heading or page.title)[:120]) or urlsplit(page.url).path or "/"


def page_answer_keys(ctx: StepContext[Any]) -> list[str]:
    """Keys of the page questions answered in this run, oldest first."""
    keys = [k for k in ctx.answers if k.startswith(PAGE_KEY) and k[len(PAGE_KEY) :].isdigit()]
    return sorted(keys, key=lambda k: int(k[len(PAGE_KEY) :]))


def asked_before(ctx: StepContext[Any], page: PageSnapshot) -> bool:
    """Whether this run already asked about ``page``: one of its answers is one of the
    page's choices. The page back after that answer means the answer did not get past
    it, and asking again would go round in circles."""
    offered = {c.id for c in user_choices(page, ctx.lang) if not c.abort}
    return any(ctx.answers[key] in offered for key in page_answer_keys(ctx))


def ask_about_page(
    ctx: StepContext[Any],
    page: PageSnapshot,
    *,
    question: str | None = None,
    only: Sequence[str] = (),
) -> NoReturn:
    """Pause the run with a question about the page (``only``: labels to keep)."""
    choices = user_choices(page, ctx.lang)
    if only:
        picked = [c for c in choices if c.label in only or c.abort]
        choices = picked if len(picked) > 1 else choices
    text = question or ctx.tr(Page.UNEXPECTED, what=page_name(page))
    key = f"{PAGE_KEY}{len(page_answer_keys(ctx)) + 1}"
    ctx.ask(key, text, [Option(id=c.id, label=c.label) for c in choices], allow_free_text=False)
