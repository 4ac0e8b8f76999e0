"""Hold some of a real Indico's new bookings at its database, so a crash test kills the bot
at a point it chose, not at whatever point a poll happened to see.

A trigger makes each matching ``INSERT`` into Indico's reservations wait for an advisory
lock that a psql session of the test holds. The request stays in Indico, unanswered; once
the hold ends (the lock released), Indico finishes it as if the network had been slow.
Polling the database alone is a race: on a loaded machine the bot may finish its whole run
between two looks.
"""

from __future__ import annotations

import itertools
import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date

from scripts.indico.stack import IndicoStack

__all__ = ["holding_bookings"]

_KEY = 7_246_513  # the advisory lock's key: any number no one else uses
_names = itertools.count()


@contextmanager
def holding_bookings(
    stack: IndicoStack, *, booked_for: int, day: date, after: int = 0
) -> Iterator[None]:
    """Hold each booking for ``booked_for`` starting on ``day`` that is made once ``after``
    such bookings were made inside the block, until the block ends."""
    name = f"clubman_hold_{os.getpid()}_{next(_names)}"
    # Only bookings made from now on count: earlier tests' (cancelled) ones stay in the table.
    last = int(stack.psql("SELECT coalesce(max(id), 0) FROM roombooking.reservations").strip())

    def theirs(row: str) -> str:
        return f"{row}booked_for_id = {int(booked_for)} AND {row}start_dt::date = '{day}'"

    holder = subprocess.Popen(
        [str(stack.psql_bin), "-h", "127.0.0.1", "-p", str(stack.pg_port), "-U", "indico"]
        + ["-d", "indico", "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdin is not None and holder.stdout is not None
    try:
        holder.stdin.write(f"SELECT pg_advisory_lock({_KEY});\n\\echo held\n")
        holder.stdin.flush()
        held = any(line.strip() == "held" for line in holder.stdout)
        assert held, "psql could not take the advisory lock"
        stack.psql(
            f"CREATE FUNCTION public.{name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            f" IF (SELECT count(*) FROM roombooking.reservations"
            f" WHERE {theirs('')} AND id > {last}) >= {int(after)}"
            f" THEN PERFORM pg_advisory_lock({_KEY}); PERFORM pg_advisory_unlock({_KEY});"
            " END IF; RETURN NEW; END $$;"
            f" CREATE TRIGGER {name} BEFORE INSERT ON roombooking.reservations FOR EACH ROW"
            f" WHEN ({theirs('NEW.')})"
            f" EXECUTE FUNCTION public.{name}();"
        )
        yield
    finally:
        holder.stdin.close()  # the session ends: the lock is released, held requests go on
        try:
            holder.wait(timeout=30)
        except subprocess.TimeoutExpired:
            holder.kill()  # its connection closes, and the lock with it
            holder.wait()
        # Dropping the trigger waits for the held inserts' transactions: they are let go.
        stack.psql(
            f"DROP TRIGGER IF EXISTS {name} ON roombooking.reservations;"
            f" DROP FUNCTION IF EXISTS public.{name}();"
        )
