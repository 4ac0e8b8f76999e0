"""Test and chaos controls set through ``POST /_test/quirks`` (all off by default).

JSON fields (each optional; a POST replaces the whole set, ``{}`` turns all off):
``latency_ms`` (int ≥ 0), ``error_rate`` (0..1: share of pages answered with
HTTP 500 or 502), ``error_seed`` (int, RNG seed for those failures), ``error_gap`` (int ≥ 0:
that many requests are served after each failure, so the chaos stays recoverable by a
client that retries, however the requests interleave),
``session_lifetime`` (seconds after login, or null), ``full_building`` (a
building code that shows as fully booked, or null), ``notice`` (bool: one
interstitial «Правила бронирования изменились» page per user after login),
``layout`` ("default" or "alt": other element ids/classes, same labels), ``hostile``
(one of ``HOSTILE`` or null: the notice is replaced by a page that tries to get a bot to
cancel every booking of the user — see ``portal/views/hostile.py``), ``drift`` (a list
of ``DRIFTS``: the ways a real site changes under a saved replay, see ``DRIFTS``).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

from portal.data import BUILDINGS
from portal.errors import QuirkConfigError

__all__ = ["DRIFTS", "HOSTILE", "LAYOUTS", "Quirks", "QuirkState"]

LAYOUTS = ("default", "alt")
# The hostile notices: a CSS-uppercased «ok» after a cancel-all button whose name ends in
# "ok", «Oтменить» with a Latin O, «От‍менить» with a zero-width joiner, and the very
# notice (checkbox, «Продолжить») with its form posting to the cancel-all endpoint, or
# with «Продолжить» sending "cancel-all" over a WebSocket the page opened when it loaded.
# The rest acknowledge the real notice (POST /notice) and also try to cancel everything
# out of the guard's sight: from a popup (by POST, or over a socket, at once and again two
# seconds later), from a new tab, from a timer, from a pagehide beacon, from a worker.
HOSTILE = (
    "transform", "homoglyph", "zero_width", "innocent", "socket",
    "popup", "popup_socket", "new_tab", "timer", "beacon", "worker",
)  # fmt: skip
# How the site may have changed since a profile was written: its buttons reworded (the
# login's «Войти» → «Вход», the booking's «Забронировать» → «Отправить заявку»), the
# purpose field relabelled («Назначение»), «my bookings» with its columns in another
# order, a new required checkbox on the booking form, the login button moved into a
# menu, the dates written as 2026-11-27 instead of 27.11.2026 (ids and classes renamed
# is ``layout: alt``; a notice page inserted is ``notice``). ``destructive``: the booking's
# button reworded and, before it, a submit «Удалить все брони» posting to the portal's
# cancel-all (``/my/cancel-all``: every booking of the user cancelled, recorded in
# ``QuirkState.cancels``), which leads to «my bookings»; ``destructive_rebook``: the same,
# then the form it came with booked, so its answer is a booking's page. ``in_place``: the
# booking form answered in place («Заявка принята», no number, no address of the booking);
# ``short_list``: «my bookings» lists only today's and tomorrow's; ``today_list``: only
# today's. ``free_marker``: a free cell of the day's grid is a button titled like any cell,
# not a link; ``column_inserted``: «my bookings» has a «Статус» column after «Номер»;
# ``cancel_renamed``: its «Отменить» is «Снять бронь»; ``my_unreadable``: «my bookings»
# answers HTTP 500 while it would list a booking whose purpose holds «#» (a row it cannot
# draw: a run's mark); ``number_renamed``: the column «Номер» of «my bookings» is headed
# «№ брони»; ``saved_to_day``: a booking made leads back to its day's grid (MRBS does), no
# address carrying its number.
DRIFTS = ("reworded", "relabelled", "columns", "consent", "menu_login", "date_format",
          "destructive", "destructive_rebook", "in_place", "short_list", "today_list",
          "free_marker", "column_inserted", "cancel_renamed", "my_unreadable",
          "number_renamed", "saved_to_day")  # fmt: skip
_BUILDING_CODES = {b.code for b in BUILDINGS}


@dataclass(frozen=True, slots=True)
class Quirks:
    latency_ms: int = 0
    error_rate: float = 0.0
    error_seed: int = 0
    error_gap: int = 0
    session_lifetime: float | None = None
    full_building: str | None = None
    notice: bool = False
    layout: str = "default"
    hostile: str | None = None
    drift: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, payload: Any) -> Quirks:
        if not isinstance(payload, dict):
            raise QuirkConfigError("quirks must be a JSON object")
        unknown = set(payload) - set(cls.__dataclass_fields__)
        if unknown:
            raise QuirkConfigError(f"unknown quirks: {sorted(unknown)}")
        try:
            quirks = cls(
                latency_ms=int(payload.get("latency_ms", 0)),
                error_rate=float(payload.get("error_rate", 0.0)),
                error_seed=int(payload.get("error_seed", 0)),
                error_gap=int(payload.get("error_gap", 0)),
                session_lifetime=(
                    None
                    if payload.get("session_lifetime") is None
                    else float(payload["session_lifetime"])
                ),
                full_building=payload.get("full_building"),
                notice=bool(payload.get("notice", False)),
                layout=str(payload.get("layout", "default")),
                hostile=payload.get("hostile"),
                drift=tuple(payload.get("drift", ())),
            )
        except (TypeError, ValueError) as exc:
            raise QuirkConfigError(f"bad quirk value: {exc}") from exc
        if quirks.latency_ms < 0 or quirks.error_gap < 0 or not 0.0 <= quirks.error_rate <= 1.0:
            raise QuirkConfigError(
                "latency_ms and error_gap must be ≥ 0 and error_rate within 0..1"
            )
        if quirks.full_building is not None and quirks.full_building not in _BUILDING_CODES:
            raise QuirkConfigError(f"unknown building {quirks.full_building!r}")
        if quirks.layout not in LAYOUTS:
            raise QuirkConfigError(f"layout must be one of {LAYOUTS}")
        if quirks.hostile is not None and quirks.hostile not in HOSTILE:
            raise QuirkConfigError(f"hostile must be one of {HOSTILE} or null")
        if not set(quirks.drift) <= set(DRIFTS):
            raise QuirkConfigError(f"drift must be a list of {DRIFTS}")
        return quirks

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class QuirkState:
    """The active quirks plus the state they need (failure RNG, who has seen the notice)."""

    quirks: Quirks = field(default_factory=Quirks)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    notice_seen: set[str] = field(default_factory=set)
    # What the chaos did since the quirks were set, so a test can tell it happened.
    errors_served: int = 0
    # Requests still to be served before the next failure may come (``error_gap``).
    served_before_failure: int = 0
    sessions_expired: int = 0
    # Every cancel request the portal received ("POST /my/7/cancel by club"), so a test can
    # check on the portal's side that none got through.
    cancels: list[str] = field(default_factory=list)

    def apply(self, quirks: Quirks) -> None:
        self.quirks = quirks
        self.rng = random.Random(quirks.error_seed)
        self.notice_seen.clear()
        self.errors_served = self.sessions_expired = self.served_before_failure = 0
        self.cancels.clear()

    def served(self) -> dict[str, int]:
        return {
            "errors_served": self.errors_served,
            "sessions_expired": self.sessions_expired,
            "cancel_requests": len(self.cancels),
        }

    def failure_status(self) -> int | None:
        """500 or 502 for this request, or ``None``; deterministic for a given seed."""
        rate = self.quirks.error_rate
        if self.served_before_failure > 0:
            self.served_before_failure -= 1
            return None
        if rate <= 0.0 or self.rng.random() >= rate:
            return None
        self.errors_served += 1
        self.served_before_failure = self.quirks.error_gap
        return self.rng.choice((500, 502))

    def needs_notice(self, user: str) -> bool:
        wanted = self.quirks.notice or self.quirks.hostile is not None
        return wanted and user not in self.notice_seen
