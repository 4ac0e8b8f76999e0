"""Chaos for tests, set through ``POST /_test/quirks`` (off by default).

JSON fields (each optional; a POST replaces the whole set, ``{}`` turns it off):
``error_rate`` (0..1: that share of requests other than ``/_test/*`` answer HTTP 500),
``error_seed`` (int: the seed of those failures, so a run is repeatable) and ``drift`` (a
list of ``DRIFTS``: how the site changed under a saved replay — the login's «Войти» and
the form's «Сохранить» reworded to «Вход» and «Записать», the «Comment» field relabelled
«Примечание», «my bookings» with its columns in another order, dates written 2026-11-27
instead of 27.11.2026 in «my bookings» and on a reservation's page; the form answered in
place, «Заявка принята» with no number; «my bookings» listing only today's and tomorrow's).
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["DRIFTS", "BadQuirks", "QuirkState", "Quirks"]

DRIFTS = ("reworded", "relabelled", "columns", "date_format", "in_place", "short_list")


class BadQuirks(ValueError):
    """A ``/_test/quirks`` payload that cannot be applied."""


@dataclass(frozen=True, slots=True)
class Quirks:
    error_rate: float = 0.0
    error_seed: int = 0
    drift: tuple[str, ...] = ()

    @classmethod
    def from_json(cls, payload: Any) -> Quirks:
        if not isinstance(payload, dict):
            raise BadQuirks("quirks must be a JSON object")
        unknown = set(payload) - set(cls.__dataclass_fields__)
        if unknown:
            raise BadQuirks(f"unknown quirks: {sorted(unknown)}")
        try:
            quirks = cls(
                error_rate=float(payload.get("error_rate", 0.0)),
                error_seed=int(payload.get("error_seed", 0)),
                drift=tuple(payload.get("drift", ())),
            )
        except (TypeError, ValueError) as exc:
            raise BadQuirks(f"bad quirk value: {exc}") from exc
        if not 0.0 <= quirks.error_rate <= 1.0:
            raise BadQuirks("error_rate must be within 0..1")
        if not set(quirks.drift) <= set(DRIFTS):
            raise BadQuirks(f"drift must be a list of {DRIFTS}")
        return quirks

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class QuirkState:
    quirks: Quirks = field(default_factory=Quirks)
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    errors_served: int = 0

    def apply(self, quirks: Quirks) -> None:
        self.quirks = quirks
        self.rng = random.Random(quirks.error_seed)
        self.errors_served = 0

    def fails(self) -> bool:
        """Whether this request answers HTTP 500; deterministic for a given seed."""
        rate = self.quirks.error_rate
        if rate <= 0.0 or self.rng.random() >= rate:
            return False
        self.errors_served += 1
        return True
