"""``KnownList``: «my bookings» as last read stand for the site's only a few seconds, and
not once the session may have changed the site (the live cases:
``tests/adapters/refportal/test_profile_known_list.py``)."""

from __future__ import annotations

from adapters.profile.known import KEPT_SECONDS, KnownList


def test_a_list_stands_for_the_site_only_so_long_and_until_forgotten() -> None:
    now = [100.0]
    known = KnownList(clock=lambda: now[0])
    assert known.bookings() is None  # never read
    known.keep([])
    now[0] += KEPT_SECONDS - 1
    assert known.bookings() == []
    now[0] += 1
    assert known.bookings() is None  # read too long ago
    known.keep([])
    known.forget()
    assert known.bookings() is None
