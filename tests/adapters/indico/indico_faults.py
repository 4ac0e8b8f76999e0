"""Make a real Indico fail where a test wants it to, at its database: a trigger raises on
the rows a test names, so Indico's own request fails inside Indico (an HTTP 500 from its
real code path), not in a stand-in of it.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager

from scripts.indico.stack import IndicoStack

__all__ = ["failing_bookings", "failing_deletes"]

_names = itertools.count()


def _like(text: str) -> str:
    """``text`` as a LIKE pattern inside an SQL string literal (no wildcard of its own)."""
    escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    return escaped.replace("'", "''")


@contextmanager
def _raising(stack: IndicoStack, *, table: str, when: str, event: str) -> Iterator[None]:
    name = f"clubman_fail_{os.getpid()}_{next(_names)}"
    stack.psql(
        f"CREATE FUNCTION public.{name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
        f" RAISE EXCEPTION 'refused by the test trigger {name}'; END $$;"
        f" CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW WHEN ({when})"
        f" EXECUTE FUNCTION public.{name}();"
    )
    try:
        yield
    finally:
        stack.psql(
            f"DROP TRIGGER IF EXISTS {name} ON {table}; DROP FUNCTION IF EXISTS public.{name}();"
        )


def failing_bookings(stack: IndicoStack, *, reason_with: str) -> AbstractContextManager[None]:
    """Inside the block, Indico fails (HTTP 500) to make a booking whose reason holds
    ``reason_with``."""
    return _raising(
        stack,
        table="roombooking.reservations",
        when=f"NEW.booking_reason LIKE '%{_like(reason_with)}%'",
        event="INSERT",
    )


def failing_deletes(stack: IndicoStack, *, title_with: str) -> AbstractContextManager[None]:
    """Inside the block, Indico fails (HTTP 500) to delete an event whose title holds
    ``title_with``."""
    return _raising(
        stack,
        table="events.events",
        when=f"NEW.is_deleted AND NOT OLD.is_deleted AND NEW.title LIKE '%{_like(title_with)}%'",
        event="UPDATE",
    )
