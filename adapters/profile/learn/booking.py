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
from collections.abc import Callable, Mapping
from datetime import date, time
from typing import Any
from urllib.parse import unquote_plus, urljoin, urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.catalogue import building_picker
from adapters.profile.learn.daygrid import room_id
from adapters.profile.learn.messages import draft_outcome, draft_taken
from adapters.profile.learn.recording import Action, FormField, Recording, SentForm, Step
from adapters.profile.learn.timeline import room_shape
from adapters.profile.learn.values import (
    booked_at,
    building_code,
    known_values,
    listed_number,
    locators,
    relative,
    templated,
)
from adapters.profile.template import DATE_PARTS, TIME_PARTS

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


def _pressed(action: Action) -> bool:
    """A press of a button (a submit control), not a link followed."""
    return any(c.role == "button" for c in action.candidates) or any(
        re.search(r"button|submit", c.css or "") for c in action.candidates
    )


def _sent_by(step: Step) -> int:
    """Where in the step's actions the click that sent the booking is: the press of a
    button that a change followed — a form that checks the slot in the background as it
    opens and on each change (MRBS) sends before any press, and that is not the booking."""
    clicks = [i for i, a in enumerate(step.actions) if a.kind == "click" and a.candidates]
    for request in step.requests:
        before = [i for i in clicks if i < request.after]
        if before and _pressed(step.actions[before[-1]]):
            return before[-1]
    sent = step.requests[0].after if step.requests else len(step.actions)
    before = [i for i in clicks if i < sent]
    if not before:
        raise DraftError("В показе брони не видно нажатия кнопки: покажите бронь ещё раз")
    return before[-1]


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


def _in_parts(values: list[str], answers: Mapping[str, str]) -> dict[int, str]:
    """Slots for the query values that write the day or a time in parts: three values in
    a row that are the day's year, month and day (or day, month, year), two in a row a
    time's hour and minute — told by their order, since «12» alone may be either."""
    day = date.fromisoformat(answers["date"])
    slots: dict[int, str] = {}

    def part(value: str, slot: str, formats: Mapping[str, Callable[[Any], str]], of: Any,
             names: tuple[str, ...]) -> str | None:  # fmt: skip
        return next((f"{{{slot}|{n}}}" for n in names if formats[n](of) == value), None)

    orders = (("year", ("year",)), ("month", ("month", "month2")), ("day", ("day", "day2")))
    for at in range(len(values) - 2):
        for order in (orders, orders[::-1]):
            written = [part(values[at + i], "date", DATE_PARTS, day, names)
                       for i, (_, names) in enumerate(order)]  # fmt: skip
            if all(written) and not slots.keys() & {at, at + 1, at + 2}:
                slots |= {at + i: w for i, w in enumerate(written) if w}
    for at in range(len(values) - 1):
        for name in ("start", "end"):
            clock = time.fromisoformat(answers[name])
            hour = part(values[at], name, TIME_PARTS, clock, ("hour", "hour2"))
            minute = part(values[at + 1], name, TIME_PARTS, clock, ("minute", "minute2"))
            if hour and minute and not slots.keys() & {at, at + 1}:
                slots |= {at: hour, at + 1: minute}
    return slots


def _form_address(
    recording: Recording, url: str, answers: Mapping[str, str], *, building: str | None,
    room: str | None, room_regex: str = "",
) -> str:  # fmt: skip
    """The form's address as a template: the day and the times in parts where it writes
    them so; the building's code under the key the day's address carries it (MRBS's
    «area=1» beside the room's «room=1»); the room's id and the other named values
    wherever they are written."""
    parts = urlsplit(url)
    pairs = [pair.partition("=") for pair in parts.query.split("&") if pair]
    slots = _in_parts([unquote_plus(v) for _, _, v in pairs], answers)
    picker = building_picker(recording)
    code = picker.code if picker and picker.code else building
    building_key = picker.key if picker is not None else None
    keyed = building_key is not None
    written = []
    for at, (key, _, value) in enumerate(pairs):
        if at in slots:
            slot = slots[at]
        elif keyed and unquote_plus(key) == building_key:
            slot = "{building|url}"
        elif (
            room is not None
            and unquote_plus(value) == room
            and re.search(rf"[?&]{re.escape(unquote_plus(key))}=", room_regex)
        ):
            slot = "{room_id|url}"  # under the key the grid's links carry the room's id
        else:
            # The building by its value only where no key says where it is.
            slot = templated(value, answers, building=None if keyed else code, room_id=room)
        written.append(f"{templated(key, {})}={slot}")
    path = templated(parts.path, answers, building=code, room_id=room)
    return path + ("?" + "&".join(written) if written else "")


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
    touched = {
        str(c)
        for a in step.actions[form_at + 1 : sent]
        if a.kind in ("fill", "select", "check")
        for c in a.candidates
    }
    names: set[str] = set()
    for field in form.fields:
        if field.hidden or field.value is None or (chosen and field.field_type in _CHECKED):
            continue  # the site's own (a room id, a token), or chosen by a click above
        drafted = _field(field, step, building)
        named = "{" in str(drafted.get("fill", drafted.get("select", "")))
        if field.name in names or not (named or touched & set(map(str, field.candidates))):
            # Left as the form opened, naming nothing the operator named: the site's own
            # default (a type, a repetition «none»), or a disabled copy of a field.
            continue
        names.add(field.name)
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
    booked = booked_at(step.actions[after].url, before, known_values(recording))
    saved: str | None = None
    if booked is None:
        # The save led to a page no address of which names the booking (back to the
        # day): that page says it is made, and «my bookings» links to it.
        listed = listed_number(recording)
        if listed is None:
            raise DraftError(
                "Адрес брони без номера, и в «моих бронях» нет ссылки на неё: черновик не "
                "знает, как её найти"
            )
        link = urlsplit(urljoin(step.actions[after].url, listed.url))
        if listed.key is None:  # the path holds it
            booked = (listed.number, "^" + listed.regex)
        else:
            pair = rf"{re.escape(listed.key)}=(\d+)"
            booked = (listed.number, "^" + re.escape(link.path) + r"\?(?:.*&)?" + pair)
        saved = "^" + re.escape(urlsplit(step.actions[after].url).path) + "$"
    opened_at = _opened(step, form_at, building)
    site_id = room_id(recording)  # the form's address names the room by the site's id
    # A room named in parts («7/7-704») is the site's id of it, its number only a part.
    whole = step.answers["room"] if room_shape(step.answers["room"], building) else None
    url = _form_address(
        recording, relative(step.actions[opened_at].url), step.answers,
        building=building, room=site_id.value if site_id else whole,
        room_regex=site_id.regex if site_id else "",
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
    drafted_part["booked"] = booked[1]
    if saved is not None:
        drafted_part["saved"] = saved
    return drafted_part | {"outcome": draft_outcome(recording)}
