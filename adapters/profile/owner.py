"""Whose a booking «my bookings» lists is (``my_bookings.owner``): only the account's own
are the account's bookings.

A site's «my bookings» may be a text search rather than the account's list: MRBS's
banner button searches the upcoming bookings for the login, and lists every booking
whose creator, name or description holds it, so another person's «club meeting» shows in
the club's list. Taken as the club's, the bot would show it to the user, let them cancel
it, or take it for a booking of its own it looks for before sending one again (a
``SlotTaken`` on that person's booking answered as «booked»). Where the list shows who
made each booking, the profile's ``owner`` pick reads it, and a row is the account's
only when that reads as the login the session logged in with: whole, in any case,
spacing aside (sites take logins in any case). Every reader of the list keeps only those
rows: the page (``bookings.MyList``), its HTML (``listhtml``) and its call (``listcall``).

A row whose owner does not read is nobody's: left out and reported, as a row whose date
does not read. Rows and not one owner read is the site changed (the column renamed),
never a list of no booking: the account's bookings would be hidden, and sent again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from adapters.profile.reading import Item, value
from adapters.profile.rows import RowPicks

__all__ = ["Whose", "no_owner_read", "same_account", "whose"]

# The account's; someone else's; not read (no owner shown where the profile says).
Whose = Literal["account", "another", "unread"]


def _said(text: str) -> str:
    return " ".join(text.split()).casefold()


def same_account(shown: str, account: str) -> bool:
    """Whether ``shown`` (an owner as the list writes it, its pick's regex applied) is
    ``account``, the login the session logged in with."""
    return bool(shown.strip()) and _said(shown) == _said(account)


def whose(
    picks: RowPicks,
    line: Item,
    cells: Sequence[Item],
    columns: Sequence[str],
    *,
    account: str,
) -> Whose:
    """Whose the row's booking is; a list showing no owner (no ``owner`` pick) is the
    account's own, every row of it."""
    if picks.owner is None:
        return "account"
    shown = value(picks.owner, line, columns=columns, row=cells)
    if not shown:
        return "unread"
    return "account" if same_account(shown, account) else "another"


def no_owner_read(owners: Sequence[Whose]) -> bool:
    """Rows, and not one whose owner reads: the list no longer shows it where the
    profile says (a list without ``owner`` has every row the account's)."""
    return bool(owners) and all(owner == "unread" for owner in owners)
