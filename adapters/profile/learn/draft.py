"""From a demonstration to a profile: the parts drafted from what the operator did
(``login``, ``book`` with the site's refusal — ``adapters.profile.learn.messages`` —,
``cancel``), the parts read from the pages' snapshots (``adapters.profile.learn.pages``,
the day's grid ``adapters.profile.learn.daygrid``), and the whole profile
(``draft_profile``) or, when a part cannot be drafted, the others with the reason
(``draft_parts``).

What the operator named (the day, the times, the room) becomes a template variable
wherever the site wrote it (``adapters.profile.learn.values``); everything else stays as
the site had it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

import yaml

from adapters.profile.learn.daygrid import draft_availability, room_id
from adapters.profile.learn.messages import draft_outcome, login_failure
from adapters.profile.learn.pages import (
    draft_booking_page,
    draft_catalogue,
    draft_my_bookings,
    draft_rules,
)
from adapters.profile.learn.recording import Action, FormField, Recording, SentForm, Step
from adapters.profile.learn.values import (
    DraftError,
    building_code,
    locators,
    relative,
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
    "templated",
]


def _the_form(step: Step) -> SentForm:
    if not step.forms:
        raise DraftError("В показе брони не видно отправленной формы: покажите бронь ещё раз")
    return step.forms[-1]


def _field(field: FormField, answers: Mapping[str, str], building: str | None) -> dict[str, Any]:
    value = templated(field.value or "", answers, building=building)
    how = "select" if field.control == "select" else "fill"
    find = locators(field.candidates) or [{"css": f'[name="{field.name}"]'}]
    return {"find": find, how: value}


def _submit(step: Step) -> list[dict[str, Any]]:
    clicks = [a for a in step.actions if a.kind == "click" and a.candidates]
    if not clicks:
        raise DraftError("В показе брони не видно нажатия кнопки: покажите бронь ещё раз")
    return locators(clicks[-1].candidates)


def _after(step: Step) -> Action:
    """Where the form led: the last page reached in the step."""
    reached = [a for a in step.actions if a.kind == "navigate"]
    if not reached:
        raise DraftError("После брони сайт не открыл страницу брони: покажите бронь ещё раз")
    return reached[-1]


def draft_book(recording: Recording) -> dict[str, Any]:
    """The ``book`` part from the demonstration's booking step (a mapping, as YAML has it).

    Fields are the form's as sent: each one the operator's named values went into becomes
    a template; the free text the operator typed becomes ``{purpose}``; hidden fields
    are the site's to fill (left alone). The form's address templates the named values
    and the room's id where the site uses its own (``daygrid.room_id``). The booking's
    address is the page the form led to, with its number as the regex group."""
    step = recording.step("book")
    if step is None:
        raise DraftError("Бронь не показана")
    answers = step.answers
    building = building_code(recording, answers)
    form = _the_form(step)
    typed = {a.value for a in step.actions if a.kind == "fill" and a.value}
    fields = []
    for field in form.fields:
        if field.hidden or field.value is None:
            continue  # the site's own (a room id, a token): it fills them
        drafted = _field(field, answers, building)
        if field.value in typed and "{" not in field.value:
            drafted["fill"] = "{purpose}"  # free text the operator typed: the purpose
        elif not field.value:
            drafted["optional"] = True  # left empty: filled only when there is a value
        fields.append(drafted)
    if [f.get("fill") for f in fields].count("{purpose}") != 1:
        raise DraftError(
            "Не видно поля цели брони: впишите цель в её поле (только в него) и покажите бронь "
            "снова"
        )
    after, submit = _after(step), _submit(step)
    path = urlsplit(after.url).path
    numbers = list(re.finditer(r"\d+", path))
    if not numbers:
        raise DraftError("Адрес брони без номера: черновик не знает, как её найти")
    last = numbers[-1]
    booked = "^" + re.escape(path[: last.start()]) + r"(\d+)" + re.escape(path[last.end() :]) + "$"
    opened = next((a for a in step.actions if a.kind == "navigate"), None)
    if opened is None or opened is after:
        raise DraftError("Не видно страницы с формой брони: покажите бронь ещё раз")
    site_id = room_id(recording)  # the form's address names the room by the site's id
    url = templated(
        relative(opened.url), answers, building=building, room_id=site_id.value if site_id else None
    )
    return {
        "open": {"url": url},
        "form": submit,
        "fields": fields,
        "submit": submit,
        "booked": booked,
        "outcome": draft_outcome(recording),
    }


def draft_login(recording: Recording) -> dict[str, Any]:
    """The ``login`` part from the demonstration's login step: the page the password was
    typed on, the field typed just before it (the username), the button pressed after."""
    step = recording.step("login")
    secret = next((a for a in step.actions if a.secret), None) if step else None
    if step is None or secret is None:
        raise DraftError("Вход не показан: войдите на сайт ещё раз")
    at = step.actions.index(secret)
    username = next(
        (a for a in reversed(step.actions[:at]) if a.kind == "fill" and a.candidates), None
    )
    pressed = next((a for a in step.actions[at:] if a.kind == "click" and a.candidates), None)
    if username is None or pressed is None:
        raise DraftError(
            "Не видно поля логина или кнопки входа: войдите ещё раз, нажав кнопку входа"
        )
    page = urlsplit(secret.url).path
    return {
        "open": {"url": templated(relative(secret.url), {})},
        "username": locators(username.candidates),
        "password": locators(secret.candidates),
        "submit": locators(pressed.candidates),
        "page": "^" + re.escape(page),
        "failure": login_failure(),
    }


def draft_cancel(recording: Recording) -> dict[str, Any]:
    """The ``cancel`` part from the demonstration's cancel step: the control pressed in
    «my bookings», and how it was confirmed (the browser's own question, or a dialog's
    button pressed after it)."""
    step = recording.step("cancel")
    clicks = [a for a in step.actions if a.kind == "click" and a.candidates] if step else []
    if step is None or not clicks:
        raise DraftError("Отмена не показана: отмените бронь на сайте ещё раз")
    confirm: str | list[dict[str, Any]] = "none"
    if "confirm" in step.dialogs:
        confirm = "native"
    elif len(clicks) > 1:
        confirm = locators(clicks[-1].candidates)
    return {"control": locators(clicks[0].candidates), "confirm": confirm}


def draft_profile(recording: Recording) -> str:
    """The whole profile drafted from the demonstration, as YAML (``DraftError`` naming
    the step to show again when a part cannot be drafted)."""
    profile: dict[str, Any] = {"name": recording.name}
    for part, draft in _WHOLE.items():
        profile[part] = draft(recording)
    changes = {
        step: sorted({urlsplit(r.url).path for r in found.requests})
        for step, found in (("login", recording.step("login")), ("book", recording.step("book")))
        if found is not None and found.requests
    }
    profile["may_change"] = changes
    head = "# yaml-language-server: $schema=./site-profile.schema.json\n"
    head += f"# Drafted by clubman learn from a demonstration on {recording.site}.\n"
    return head + yaml.safe_dump(profile, allow_unicode=True, sort_keys=False)


_WHOLE: dict[str, Callable[[Recording], dict[str, Any]]] = {
    "login": draft_login,
    "catalogue": draft_catalogue,
    "rules": draft_rules,
    "availability": draft_availability,
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
