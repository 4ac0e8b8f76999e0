"""The day page's building picker and the ``catalogue`` part drafted from it.

A profile reads the buildings from a drop-down's options in the DOM, so the picker is
told from the day page's ``<select>`` elements as the recorder kept them
(``adapters.profile.learn.selects``): one with several options whose chosen option's
value is a value of the day's address (that value is then the building's code there,
and its query key the building's place in the address), or whose chosen text is the
drop-down the page shows (a widget drawn over a hidden select shows only that). A
recording without them (an older one) is read from the snapshot's drop-down, where its
options show.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, unquote_plus, urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.recording import Recording, ShownSelect, Step
from adapters.profile.learn.snapshot import comboboxes
from adapters.profile.learn.values import (
    building_code,
    day_step,
    named,
    templated,
    written_in_parts,
)

__all__ = ["Picker", "building_address", "building_names", "building_picker", "draft_catalogue"]


@dataclass(frozen=True)
class Picker:
    """The day page's building drop-down: how a profile finds it, the chosen option's
    text, and — where the day's address carries the chosen option's value — that value
    (the building's code) and its query key (None: a segment of the path)."""

    find: list[dict[str, Any]]
    chosen: str | None
    code: str | None = None
    key: str | None = None


def _day_parts(answers: Mapping[str, str]) -> set[str]:
    """How an address may write the day named, whole or in parts (a year, «12»): a
    drop-down choosing one of those chooses the day, not the building."""
    if "date" not in answers:
        return set()
    day = {"date": answers["date"]}
    return written_in_parts(day) | {written for written, _ in named(answers, None)}


def _pairs(url: str) -> list[tuple[str, str]]:
    """The query's pairs as the address writes them (percent-encoded, as a template
    keeps them)."""
    pairs = (pair.partition("=") for pair in urlsplit(url).query.split("&") if pair)
    return [(key, value) for key, _, value in pairs]


def _places(url: str) -> list[tuple[str | None, str]]:
    """(query key, value) for each value of an address, read; a path's segments with None."""
    parts = urlsplit(url)
    segments = [(None, unquote(s)) for s in parts.path.split("/") if s]
    return [*((unquote_plus(k), unquote_plus(v)) for k, v in _pairs(url)), *segments]


def _addressed(select: ShownSelect, step: Step) -> tuple[str | None, str] | None:
    """Where the day's address carries the select's chosen value: (its key, the value).
    Under the select's own name first (the key a form sends its choice as); under
    another key only a value that is not the day named, whole or a part of it."""
    chosen, places = select.chosen, _places(step.url)
    if not chosen:
        return None
    if select.name and (select.name, chosen) in places:
        return select.name, chosen
    if chosen in _day_parts(step.answers):
        return None
    return next(((k, v) for k, v in places if v == chosen), None)


def _found_by(select: ShownSelect, step: Step) -> list[dict[str, Any]]:
    """The select by its CSS (shown or hidden, the DOM holds its options); where the page
    shows it as itself (its options in the snapshot), by its role and name after that."""
    find: list[dict[str, Any]] = [{"css": select.css}]
    texts = [option.text for option in select.options]
    shown = next((c for c in comboboxes(step.snapshot) if c.options == texts and c.name), None)
    if select.shown and shown is not None:
        find.append({"role": "combobox", "name": shown.name})
    return find


def building_picker(recording: Recording) -> Picker | None:
    """The day page's building drop-down: of its selects with several options and one
    chosen, first one whose chosen value the address carries and whose chosen text the
    page shows, then either; else the snapshot's drop-down with several options, one
    chosen. None when the page has none."""
    step = recording.step("day")
    if step is None:
        return None
    shown = {c.name for c in comboboxes(step.snapshot)}
    ranked: list[tuple[int, ShownSelect, tuple[str | None, str] | None]] = []
    for select in step.selects:
        if len(select.options) < 2 or select.chosen is None:
            continue
        at, text = _addressed(select, step), select.chosen_text()
        rank = (at is not None) * 2 + (text in shown)
        if rank:
            ranked.append((rank, select, at))
    if ranked:
        _, select, at = max(ranked, key=lambda r: r[0])  # the first of the best
        code, key = (at[1], at[0]) if at else (None, None)
        return Picker(_found_by(select, step), select.chosen_text(), code, key)
    box = next((c for c in comboboxes(step.snapshot) if len(c.options) > 1 and c.chosen), None)
    if box is None:
        return None
    return Picker([{"role": "combobox", "name": box.name}], box.chosen)


def building_names(recording: Recording, answers: Mapping[str, str]) -> set[str]:
    """How the pages may write the building booked: the option chosen in the day's
    building drop-down, and its code in the day's address (unless a bare number, which
    a count could be as well)."""
    picker = building_picker(recording)
    names = {picker.chosen} if picker and picker.chosen else set()
    code = picker.code if picker and picker.code else building_code(recording, answers)
    return names | ({code} if code and not code.isdigit() else set())


def building_address(recording: Recording, url: str, answers: Mapping[str, str]) -> str:
    """``url`` (path and query) as a template: the building's code where the picker
    says the address carries it (by its key: «area=1» beside «room=1» is the building,
    the other «1» not), else where ``values.building_code`` finds it; everything the
    operator named as its slot."""
    picker = building_picker(recording)
    parts = urlsplit(url)
    if picker is None or picker.code is None:
        code = building_code(recording, answers)
        return templated(parts.path + (f"?{parts.query}" if parts.query else ""), answers,
                         building=code)  # fmt: skip
    slot = "{building|url}"
    path = "/".join(
        slot if picker.key is None and unquote(s) == picker.code else templated(s, answers)
        for s in parts.path.split("/")
    )
    query = "&".join(
        f"{templated(k, {})}=" + (slot if unquote_plus(k) == picker.key else templated(v, answers))
        for k, v in _pairs(url)
    )
    return path + (f"?{query}" if query else "")


def _listing_address(step: Step, picker: Picker) -> str:
    """The day's page with neither the day nor the building asked for: the page that
    lists every building in its drop-down (the building's place in the path stays)."""
    parts = urlsplit(step.url)
    asked = {written for written, _ in named(step.answers, None)}
    kept = [
        f"{k}={v}"
        for k, v in _pairs(step.url)
        if unquote_plus(v) not in asked and (picker.key is None or unquote_plus(k) != picker.key)
    ]
    return templated(parts.path + (f"?{'&'.join(kept)}" if kept else ""), {})


def draft_catalogue(recording: Recording) -> dict[str, Any]:
    """The ``catalogue`` part: the buildings are the options of the day page's building
    drop-down (``building_picker``), read on the day's page opened with neither the day
    nor the building asked for."""
    step = day_step(recording)
    picker = building_picker(recording)
    if picker is None:
        raise DraftError(
            "На странице дня не видно списка корпусов: выберите корпус в списке и покажите снова"
        )
    return {"buildings": {"open": {"url": _listing_address(step, picker)}, "select": picker.find}}
