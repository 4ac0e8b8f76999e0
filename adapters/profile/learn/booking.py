"""The ``book`` part drafted from the demonstration's booking step: the page the booking
was found on, the clicks that opened its form there, the form's fields, the button
that sent it, and how the booking's address was reached — a page the form led to, or,
for a site that answers in the page (its script sends the form), the words it showed
and the clicks from them to the booking.

What the operator named (the day, the times, the room) becomes a template variable
wherever the site wrote it (``adapters.profile.learn.values``)."""

from __future__ import annotations

import copy
import re
from typing import Any

from adapters.profile.learn.daygrid import room_id
from adapters.profile.learn.messages import draft_outcome, draft_taken
from adapters.profile.learn.recording import Action, FormField, Recording, SentForm, Step
from adapters.profile.learn.timeline import room_shape
from adapters.profile.learn.values import (
    DraftError,
    booked_at,
    building_code,
    locators,
    relative,
    templated,
)

__all__ = ["draft_book"]

# Words a page says a booking was made in (Russian or English): a language's, not a site's.
_MADE = re.compile(
    r"успешн|забронирован|создан|сохранен|принят|success|booked|reserved|created|confirmed",
    re.IGNORECASE,
)
_NOT = re.compile(r"\b(?:no|not|already|cannot)\b|\bне\b|\bуже\b", re.IGNORECASE)
_CHECKED = ("radio", "checkbox")  # chosen by a click, not a value typed


def _the_form(step: Step) -> SentForm:
    if not step.forms:
        raise DraftError("В показе брони не видно отправленной формы: покажите бронь ещё раз")
    return step.forms[-1]


def _field(field: FormField, step: Step, building: str | None) -> dict[str, Any]:
    value = templated(field.value or "", step.answers, building=building)
    how = "select" if field.control == "select" else "fill"
    find = locators(field.candidates) or [{"css": f'[name="{field.name}"]'}]
    return {"find": find, how: value}


def _clicks(actions: tuple[Action, ...]) -> list[dict[str, Any]]:
    return [{"find": locators(a.candidates), "click": True} for a in actions
            if a.kind == "click" and a.candidates]  # fmt: skip


def _sent_by(step: Step) -> int:
    """Where in the step's actions the click that sent the booking is."""
    sent = step.requests[0].after if step.requests else len(step.actions)
    clicks = [i for i, a in enumerate(step.actions[:sent]) if a.kind == "click" and a.candidates]
    if not clicks:
        raise DraftError("В показе брони не видно нажатия кнопки: покажите бронь ещё раз")
    return clicks[-1]


def _opened(step: Step, form_at: int, building: str | None) -> int:
    """Where the booking was found: the form's page, or the page before it with the day
    in its address (a search's result) from which clicks alone opened the form."""
    at = form_at
    for i in range(form_at - 1, -1, -1):
        action = step.actions[i]
        if action.kind == "click":
            continue
        if action.kind != "navigate":
            break  # typed into: the search's form, not its result
        if "{date" not in templated(relative(action.url), step.answers, building=building):
            break
        at = i
    return at


def _made(then: tuple[Action, ...]) -> list[dict[str, Any]]:
    """The words the page showed once the booking was made (new by the first click after
    it), as a profile finds them."""
    shown = then[0].shown if then else ()
    said = next((line for line in shown if _MADE.search(line) and not _NOT.search(line)), None)
    if said is None:
        raise DraftError(
            "Не видно, что сайт сказал о сделанной брони: дождитесь его сообщения и "
            "покажите бронь снова"
        )
    return [{"text": said, "exact": False}]


def draft_book(recording: Recording) -> dict[str, Any]:
    """The ``book`` part (a mapping, as YAML has it).

    Fields are the form's as sent: each one the operator's named values went into becomes
    a template; the free text the operator typed becomes ``{purpose}``; hidden fields
    are the site's to fill (left alone); a choice clicked on the form's page (a radio
    button drawn by a script) is that click. The booking's address is the last page
    reached, its number the regex group (``values.booked_at``)."""
    step = recording.step("book")
    if step is None:
        raise DraftError("Бронь не показана")
    building = building_code(recording, step.answers)
    form, sent = _the_form(step), _sent_by(step)
    pages = [i for i, a in enumerate(step.actions) if a.kind == "navigate"]
    form_at = max((i for i in pages if i < sent), default=None)
    after = max((i for i in pages if i > sent), default=None)
    if form_at is None:
        raise DraftError("Не видно страницы с формой брони: покажите бронь ещё раз")
    if after is None:
        raise DraftError("После брони сайт не открыл страницу брони: покажите бронь ещё раз")
    chosen = _clicks(step.actions[form_at + 1 : sent])
    typed = {a.value for a in step.actions if a.kind == "fill" and a.value}
    fields = [*chosen]
    for field in form.fields:
        if field.hidden or field.value is None or (chosen and field.field_type in _CHECKED):
            continue  # the site's own (a room id, a token), or chosen by a click above
        drafted = _field(field, step, building)
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
    before = step.actions[form_at].url
    booked = booked_at(step.actions[after].url, before)
    if booked is None:
        raise DraftError("Адрес брони без номера: черновик не знает, как её найти")
    opened_at = _opened(step, form_at, building)
    site_id = room_id(recording)  # the form's address names the room by the site's id
    # A room named in parts («7/7-704») is the site's id of it, its number only a part.
    whole = step.answers["room"] if room_shape(step.answers["room"], building) else None
    url = templated(
        relative(step.actions[opened_at].url), step.answers, building=building,
        room_id=site_id.value if site_id else whole,
    )  # fmt: skip
    submit = locators(step.actions[sent].candidates)
    opened: dict[str, Any] = {"url": url}
    actions = _clicks(step.actions[opened_at + 1 : form_at])
    taken = draft_taken(recording)
    if taken:  # refused on the page itself: drawn, it shows the way to the form or that
        # Copies: YAML would alias one object used twice.
        opened["wait"] = copy.deepcopy([*(actions[0]["find"] if actions else submit), *taken])
    if actions:
        opened["actions"] = actions
    drafted_part: dict[str, Any] = {"open": opened}
    if taken:
        drafted_part["taken"] = taken
    drafted_part |= {"form": submit, "fields": fields, "submit": copy.deepcopy(submit)}
    then = step.actions[sent + 1 : after]
    if _clicks(then):  # answered in the page: its words, then the way to the booking
        drafted_part |= {"made": _made(then), "made_then": _clicks(then)}
    return drafted_part | {"booked": booked[1], "outcome": draft_outcome(recording)}
