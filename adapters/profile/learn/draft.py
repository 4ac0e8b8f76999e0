"""From a demonstration to a profile: the parts drafted from what the operator did
(``login`` — ``adapters.profile.learn.login`` —, ``book`` —
``adapters.profile.learn.booking``, with the site's refusal from
``adapters.profile.learn.messages`` —, ``cancel``: in «my bookings», or on the booking's
own page where a click on its item opened that), the parts read from the pages
(``adapters.profile.learn.pages``, the day's building drop-down
``adapters.profile.learn.catalogue``, the day's grid
``adapters.profile.learn.daygrid`` or the timeline shown by example
``adapters.profile.learn.timeline``, the booking's page
``adapters.profile.learn.bookingpage``), and the whole profile (``draft_profile``) or, when
a part cannot be drafted, the others with the reason (``draft_parts``).

What the operator named (the day, the times, the room) becomes a template variable
wherever the site wrote it (``adapters.profile.learn.values``); everything else stays as
the site had it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import yaml

from adapters.profile.errors import DraftError
from adapters.profile.learn.booking import draft_book
from adapters.profile.learn.bookingpage import draft_booking_page
from adapters.profile.learn.catalogue import draft_catalogue
from adapters.profile.learn.daygrid import draft_availability
from adapters.profile.learn.login import draft_login
from adapters.profile.learn.pages import draft_my_bookings, draft_rules
from adapters.profile.learn.recording import Recording
from adapters.profile.learn.timeline import draft_timeline, draft_timeline_catalogue, shown_day
from adapters.profile.learn.values import (
    locators,
    opened_booking,
    templated,
)

__all__ = [
    "DraftError",
    "draft_book",
    "draft_booking_page",
    "draft_cancel",
    "draft_login",
    "draft_my_bookings",
    "draft_parts",
    "draft_profile",
    "may_change",
    "templated",
]


def draft_cancel(recording: Recording) -> dict[str, Any]:
    """The ``cancel`` part from the demonstration's cancel step: the control pressed in
    «my bookings», and how it was confirmed (the browser's own question, or a dialog's
    button pressed after it)."""
    step = recording.step("cancel")
    actions = step.actions if step else ()
    # A click that opened the booking's own page: the control is there, not in the list.
    opened = opened_booking(recording)
    # On the booking's own page: opened in this step from the list, or before it.
    at = {"at": "booking_page"} if opened or recording.step("opened") else {}
    actions = actions[opened[0] + 1 :] if opened else actions
    clicks = [a for a in actions if a.kind == "click" and a.candidates]
    if step is None or not clicks:
        raise DraftError("Отмена не показана: отмените бронь на сайте ещё раз")
    confirm: str | list[dict[str, Any]] = "none"
    if "confirm" in step.dialogs:
        confirm = "native"
    elif len(clicks) > 1:
        # Not a way that finds the control as well (a dialog's button named like it).
        same = set(map(str, clicks[0].candidates))
        confirm = locators(tuple(c for c in clicks[-1].candidates if str(c) not in same))
    return {**at, "control": locators(clicks[0].candidates), "confirm": confirm}


def may_change(recording: Recording) -> dict[str, list[str]]:
    """The paths the login and the booking sent changes to, on the site only: a change
    sent to another host (a sign-in service) is not this site's path to declare."""
    host = urlsplit(recording.site).netloc.lower()
    changes = {}
    for step, found in (("login", recording.step("login")), ("book", recording.step("book"))):
        sent = [urlsplit(r.url) for r in found.requests] if found is not None else []
        paths = sorted({url.path or "/" for url in sent if url.netloc.lower() == host})
        if paths:
            changes[step] = paths
    return changes


def draft_profile(recording: Recording) -> str:
    """The whole profile drafted from the demonstration, as YAML (``DraftError`` naming
    the step to show again when a part cannot be drafted)."""
    profile: dict[str, Any] = {"name": recording.name}
    for part, draft in _WHOLE.items():
        profile[part] = draft(recording)
    profile["may_change"] = may_change(recording)
    head = "# yaml-language-server: $schema=./site-profile.schema.json\n"
    head += f"# Drafted by clubman learn from a demonstration on {recording.site}.\n"
    return head + yaml.safe_dump(profile, allow_unicode=True, sort_keys=False)


def _catalogue(recording: Recording) -> dict[str, Any]:
    """From the day's timeline where it was shown as one, else its drop-down."""
    if shown_day(recording):
        return draft_timeline_catalogue(recording)
    return draft_catalogue(recording)


def _availability(recording: Recording) -> dict[str, Any]:
    """A timeline where the day was shown as one, else its table."""
    if shown_day(recording):
        return draft_timeline(recording)
    return draft_availability(recording)


_WHOLE: dict[str, Callable[[Recording], dict[str, Any]]] = {
    "login": draft_login,
    "catalogue": _catalogue,
    "rules": draft_rules,
    "availability": _availability,
    "book": draft_book,
    "booking_page": draft_booking_page,
    "my_bookings": draft_my_bookings,
    "cancel": draft_cancel,
}


def draft_parts(recording: Recording) -> str:
    """What could be drafted when not every part could, as YAML, with a comment for each
    part that could not (why, and which step to show again)."""
    drafted: dict[str, object] = {"name": recording.name}
    notes = []
    for part, draft in _WHOLE.items():
        try:
            drafted[part] = draft(recording)
        except DraftError as exc:
            notes.append(f"# {part}: не составлен — {exc.message}")
    head = f"# Части профиля сайта {recording.site}, составленные по показу «{recording.name}».\n"
    return head + "\n".join(notes) + "\n" + yaml.safe_dump(drafted, allow_unicode=True)
