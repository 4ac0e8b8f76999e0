"""``Pins``: values kept in this process's memory for keys it holds the lease of.

While this process holds a chat's lease (``core.turns``) nothing else writes what the
chat owns, so a repository may keep what it read of it in memory until ``unpin``. The
one subtlety: a read that started before a write here may answer with what the write
changed, so a read's answer is kept only if the pin is the same one and no write came
in between (``token`` before the read, ``keep`` after it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

__all__ = ["Pins", "ReadToken"]

K = TypeVar("K")
V = TypeVar("V")


@dataclass
class _Pin(Generic[V]):
    value: V | None = None  # None: not read since pinned (or dropped by a write)
    writes: int = 0


@dataclass(frozen=True)
class ReadToken(Generic[V]):
    pin: _Pin[V] | None
    writes: int


class Pins(Generic[K, V]):
    def __init__(self) -> None:
        self._pins: dict[K, _Pin[V]] = {}

    def pin(self, key: K) -> None:
        self._pins.setdefault(key, _Pin())

    def unpin(self, key: K) -> None:
        self._pins.pop(key, None)

    def get(self, key: K) -> V | None:
        """The value kept for ``key``, if it is pinned and was read since."""
        pin = self._pins.get(key)
        return pin.value if pin is not None else None

    def token(self, key: K) -> ReadToken[V]:
        """Taken before a read whose answer ``keep`` may keep."""
        pin = self._pins.get(key)
        return ReadToken(pin, pin.writes if pin is not None else 0)

    def keep(self, key: K, token: ReadToken[V], value: V) -> None:
        pin = token.pin
        if pin is not None and self._pins.get(key) is pin and pin.writes == token.writes:
            pin.value = value

    def wrote(self, key: K, change: Callable[[V], V] | None = None) -> None:
        """A write of ``key`` here: reads in flight are not kept; the kept value is
        changed by ``change`` (or dropped, without one)."""
        pin = self._pins.get(key)
        if pin is not None:
            pin.writes += 1
            pin.value = change(pin.value) if change and pin.value is not None else None

    def change(self, key: K, change: Callable[[V], V]) -> None:
        """A write that a read in flight may safely miss (its answer is checked anyway)."""
        pin = self._pins.get(key)
        if pin is not None and pin.value is not None:
            pin.value = change(pin.value)

    def forget_values(self) -> None:
        """Every pinned key is read afresh next time."""
        for pin in self._pins.values():
            pin.value = None
