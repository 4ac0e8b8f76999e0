"""One building's day drawn as a timeline (``Timeline``): a line per room, bars on a
time axis. A bar's place is read as a fraction of its positioned container's width, and
turned into clock times by the axis labels' own places: nothing about the site's scale
is assumed. A time is busy where a bar covers it; a bar of no width covers nothing."""

from __future__ import annotations

import json
import math
from datetime import date, time

from playwright.async_api import Page

from adapters.profile.model import Timeline
from adapters.profile.navigate import Navigator
from adapters.profile.reading import DESCRIBE_JS, Item, probes_of, room_of, value
from adapters.profile.template import parse_time
from core.site.models import Interval, merge_intervals
from scenarios.booking.models import Availability, RoomAvailability

__all__ = ["read_timeline"]

# An element's place as a fraction of its positioned container's inner width: its CSS
# ``left`` and ``width`` as the page sets them in percent, else as laid out (not its
# painted box, which borders and minimum widths widen), else its box.
_PLACE = r"""
const place = (el) => {
  const percent = (v) => (/%$/.test(v) ? parseFloat(v) / 100 : NaN);
  const set = [percent(el.style.left), percent(el.style.width)];
  if (!set.some(Number.isNaN)) return set;  // placed in percent: exact, as the page meant
  const parent = el.offsetParent || el.parentElement;
  if (!parent || !parent.clientWidth) return null;
  const style = getComputedStyle(el);
  let left = parseFloat(style.left), width = parseFloat(style.width);
  if (style.position === "static" || Number.isNaN(left) || Number.isNaN(width)) {
    const box = el.getBoundingClientRect();
    left = box.left - parent.getBoundingClientRect().left - parent.clientLeft;
    width = box.width;
  }
  return [left / parent.clientWidth, width / parent.clientWidth];
};
"""
_READ_AXIS = (
    "(labels) => {"
    + DESCRIBE_JS
    + _PLACE
    + """
  return JSON.stringify(labels.map((el) => [clean(el.innerText), place(el)]));
}"""
)
_READ_LINES = (
    "(lines, req) => {"
    + DESCRIBE_JS
    + _PLACE
    + """
  return JSON.stringify(lines.map((line) => ({
    text: clean(line.innerText),
    probes: Object.fromEntries(req.probes.map((p) => [p, probe(line, p)])),
    bars: Array.from(line.querySelectorAll(req.bars)).map((bar) => ({
      at: place(bar), mine: !!req.mine && bar.matches(req.mine),
    })),
  })));
}"""
)


def _minutes(clock: time) -> int:
    return clock.hour * 60 + clock.minute


def _clock(minutes: float, *, up: bool) -> time:
    """A place on the axis as a clock time: a busy start rounded down and its end up (a
    hair of layout error never frees a minute), to the whole minute."""
    rounded = round(minutes)
    if abs(minutes - rounded) > 0.05:  # not a layout hair off a whole minute
        rounded = math.ceil(minutes) if up else math.floor(minutes)
    whole = max(0, min(rounded, 24 * 60 - 1))
    return time(whole // 60, whole % 60)


async def read_timeline(
    nav: Navigator, page: Page, spec: Timeline, *, building: str, name: str, day: date
) -> Availability:
    """The rooms of the page's timeline with what is busy on each (the page is open)."""
    finder = nav.finder
    axis_read = await finder.read_every(
        page, spec.axis, _READ_AXIS, path="availability.timeline.axis", what="шкалы времени"
    )
    axis = [(parse_time(text), at[0]) for text, at in json.loads(axis_read) if at is not None]
    marks = [(_minutes(clock), where) for clock, where in axis if clock is not None]
    if len(marks) < 2 or marks[-1][1] <= marks[0][1]:
        raise await finder.mismatch(
            page, spec.axis, path="availability.timeline.axis", what="времени на шкале"
        )
    (first, first_at), (last, last_at) = marks[0], marks[-1]
    per_width = (last - first) / (last_at - first_at)

    def at_time(where: float) -> float:
        return first + (where - first_at) * per_width

    picks = spec.room
    asked = {
        "probes": probes_of([picks.number, picks.id, picks.floor, picks.capacity]),
        "bars": spec.bars,
        "mine": spec.mine or "",
    }
    lines = await finder.read_every(
        page, spec.lines, _READ_LINES, asked, path="availability.timeline.lines",
        what="строк аудиторий",
    )  # fmt: skip
    raw = json.loads(lines)
    rules = nav.profile.rules
    rooms = []
    for line in raw:
        item = Item(text=line["text"], probes=line["probes"])
        number = value(picks.number, item)
        if not number:
            continue
        busy: list[Interval] = []
        mine: list[Interval] = []
        for bar in line["bars"]:
            if bar["at"] is None:  # not laid out: its time unknown, never taken as free
                raise await finder.mismatch(
                    page, spec.lines, path="availability.timeline.bars",
                    what=f"места занятого времени в строке «{line['text'][:40]}»",
                )  # fmt: skip
            if bar["at"][1] <= 0:
                continue  # a bar of no width covers nothing
            start = _clock(at_time(bar["at"][0]), up=False)
            end = _clock(at_time(bar["at"][0] + bar["at"][1]), up=True)
            if start < end:
                busy.append((start, end))
                if bar["mine"]:
                    mine.append((start, end))
        site_id = value(picks.id, item) if picks.id else ""
        room = room_of(picks, item, building=building, number=number, site_id=site_id)
        rooms.append(
            RoomAvailability(room=room, busy=merge_intervals(busy), mine=merge_intervals(mine))
        )
    return Availability(
        building=building,
        building_name=name,
        day=day,
        opens=rules.opens,
        closes=rules.closes,
        rooms=rooms,
    )
