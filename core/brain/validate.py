"""What the brain may do on a page: safe targets, decision checks, page signatures.

Code, not the model, draws the line: a click must name an element the page summary
lists, exactly (the driver presses that very element by its handle), and never one whose
name, folded against look-alikes (``core.browser.harm.fold``), books, cancels, deletes or logs out.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from urllib.parse import urlsplit

from core.brain.models import BrainDecision, ClickTarget, PageSnapshot, Situation
from core.browser.harm import FORBIDDEN, is_forbidden

__all__ = [
    "FORBIDDEN",
    "check_decision",
    "is_forbidden",
    "page_signature",
    "present",
    "safe_targets",
]


def _pool(page: PageSnapshot, role: str) -> list[str]:
    """The page's elements of ``role``: a checkbox is one of the fields the page reports
    as checkboxes (named by its label), never any other field (a date, a search box)."""
    if role == "button":
        return page.buttons
    if role == "link":
        return page.links
    return page.checkboxes if role == "checkbox" else []


def present(page: PageSnapshot, target: ClickTarget) -> bool:
    """The target names an element listed on the page: exactly, case and all (only runs of
    whitespace are equal), as the driver will look it up."""
    wanted = " ".join(target.name.split())
    return any(" ".join(n.split()) == wanted for n in _pool(page, target.role))


def safe_targets(page: PageSnapshot) -> list[ClickTarget]:
    """Checkboxes, buttons and links on the page that the brain may press."""
    found: list[ClickTarget] = []
    for role in ("checkbox", "button", "link"):
        for name in _pool(page, role):
            if name.startswith("…") or is_forbidden(name):
                continue
            found.append(ClickTarget(role=role, name=name))
    return found


def check_decision(
    decision: BrainDecision, situation: Situation, *, answers: Iterable[str] = ()
) -> None:
    """Raise ``ValueError`` (with a reason the model can act on) unless the decision is allowed.

    ``answers`` are the labels ``ask_user`` may offer.
    """
    if decision.action not in situation.allowed:
        raise ValueError(f"action {decision.action!r} is not allowed; use one of "
                         f"{list(situation.allowed)}")  # fmt: skip
    if decision.action == "click":
        for target in decision.targets:
            if is_forbidden(target.name):
                raise ValueError(f"pressing «{target.name}» is forbidden (it books, cancels "
                                 "or deletes something)")  # fmt: skip
            if not present(situation.page, target):
                raise ValueError(f"there is no {target.role} «{target.name}» on the page")
    elif decision.action == "alternative":
        if decision.option_id not in situation.alternatives:
            raise ValueError(f"option_id must be one of {sorted(situation.alternatives)}")
    elif decision.action == "back_to_step":
        if decision.step not in situation.steps_before:
            raise ValueError(f"step must be one of {situation.steps_before}")
    elif decision.action == "ask_user":
        allowed = set(answers)
        stray = [o for o in decision.options if o not in allowed]
        if stray:
            raise ValueError(f"options must be chosen from {sorted(allowed)}, not {stray}")


def page_signature(page: PageSnapshot) -> str:
    """What identifies "the same situation": path, heading and the page's controls.

    Free text (dates, counts) is left out so that tomorrow's copy of a notice matches.
    """
    parts = [
        urlsplit(page.url).path,
        page.heading.strip().casefold(),
        "|".join(sorted(page.fields)),
        "|".join(sorted(page.buttons)),
    ]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:32]
