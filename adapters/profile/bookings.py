"""«My bookings», by the profile; cancelling from the list.

A row the profile cannot read (a booking made by hand on the site in a form of its own)
is left out and reported once (``MyList.unread``, and a log line the first time the
account's list shows it): the bot's own bookings are still read. Rows and not one of them
read is the site changed (``ProfileMismatch``), never an empty list. A row another person
made (a list that is a search naming the login: ``adapters.profile.owner``) is no row of
the account's: not listed, not numbered, never cancelled."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Awaitable, Callable
from time import monotonic
from urllib.parse import unquote

import structlog
from playwright.async_api import Locator, Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from adapters.profile.bookingpage import confirming_dialogs, read_booking_page
from adapters.profile.model import MyBookings
from adapters.profile.navigate import Navigator
from adapters.profile.owner import Whose, no_owner_read, whose
from adapters.profile.parts import Find, Pick, sought
from adapters.profile.patterns import Match, Pattern, compiled
from adapters.profile.reading import (
    Item,
    Table,
    cell_probes_of,
    first_group,
    groups_of,
    probes_of,
    read_items,
    read_table,
    value,
)
from adapters.profile.recall import Recall
from adapters.profile.rows import (
    RowPicks,
    Shown,
    columns_of,
    list_picks,
    row_picks,
    rows_of,
    shown_in_row,
)
from core.browser.retry import Transient
from core.site import UnexpectedPage
from scenarios.booking.models import Booking

__all__ = ["MyList"]

log = structlog.get_logger("clubman.portal")

_WHAT = {
    "date": "даты",
    "time": "даты и времени",
    "start": "времени начала",
    "end": "времени окончания",
    "number": "номера брони",
    "owner": "владельца брони",
}

# How long a click on a booking may take to change the page's address before it is
# clicked again (the change is the click's own: no request comes first).
_CLICK_TAKEN_MS = 3000


def _known_as(item: Item) -> str:
    probed = "\x1f".join(f"{name}={found}" for name, found in sorted(item.probes.items()))
    return f"{item.text}\x1f{probed}"


class MyList:
    """«My bookings» as shown on the page: its table and the booking in each row."""

    def __init__(self, nav: Navigator, page: Page, recall: Recall) -> None:
        self._nav = nav
        self._page = page
        # The account's memory: a site that shows a booking's number only in its address
        # would cost a click per booking at every read.
        self._recall = recall
        self._table: Table | None = None
        self._items: list[Item] | None = None
        self._located: Locator | None = None
        self._picks: RowPicks | None = None  # each pick's alternative that reads the list
        # The rows read and left out (``unread``).
        self._unread: list[str] = []

    @property
    def spec(self) -> MyBookings:
        return self._nav.profile.my_bookings

    @property
    def _find(self) -> Find:
        find = self.spec.table or self.spec.items
        assert find is not None  # the model takes one of the two
        return find

    async def open(self) -> None:
        await self._nav.open(self._page, self.spec.open, {}, path="my_bookings.open")
        await self._read()

    async def read(self) -> None:
        """Read the list shown on the page (``ProfileMismatch`` when there is no table;
        items may be none)."""
        await self._drawn()
        await self._read()

    async def open_drawn(self) -> None:
        """Open a list its scripts draw and read it as soon as they drew it, though they
        may still be fetching the rest of it (for the check after booking: ``known``)."""
        spec = self.spec
        assert spec.open.url is not None and spec.open.wait is not None
        await self._nav.goto(self._page, self._nav.url(spec.open.url, {}))
        await self._nav.wait_for(self._page, spec.open.wait, path="my_bookings.open.wait")
        await self._read(whole=False)

    async def _drawn(self) -> None:
        """A list its scripts draw: until it is drawn (it may be fetching again)."""
        wait = self.spec.open.wait
        if wait is not None:
            await self._nav.settle(self._page)
            await self._nav.wait_for(self._page, wait, path="my_bookings.open.wait")

    async def _read(self, *, whole: bool = True) -> None:
        spec = self.spec
        picks = list_picks(spec)
        if spec.items is not None:
            # No item at all is a list with no booking: the first candidate, empty.
            self._located = await self._nav.finder.every_shown(
                self._page, spec.items, path="my_bookings.items"
            ) or self._nav.finder.any_of(self._page, spec.items)
            if spec.open.wait is not None and whole:
                await self._load_more(self._located)
            self._items = await read_items(
                self._located, probes=probes_of(picks), groups=groups_of(picks)
            )
            if whole:  # a part says nothing of the items it does not show
                self._recall.shown({_known_as(item) for item in self._items})
        else:
            assert spec.table is not None  # the model takes one of the two
            if await self._shown_empty():
                self._located, self._table = None, None
            else:
                self._located = await self._nav.finder.first(
                    self._page, spec.table, path="my_bookings.table",
                    what="таблицы «мои брони»",
                )  # fmt: skip
                self._table = await read_table(
                    self._located, probes=cell_probes_of(picks), line_probes=probes_of(picks)
                )
        rows = [(line, cells) for _, line, cells in self._listed_rows()]
        self._picks = row_picks(spec, rows, self._columns(), told=self._nav.finder)
        if no_owner_read([self._whose(line, cells) for line, cells in rows]):
            tried, called = sought(spec.owner)
            raise await self._nav.finder.mismatch(
                self._page, self._find, path="my_bookings.owner", tried=tried,
                what=f"{_WHAT['owner']}{called} в «моих бронях»: {rows[0][0].text[:80]}",
            )  # fmt: skip

    async def _shown_empty(self) -> bool:
        """The page shows what an empty list shows (``empty``), and no table."""
        spec, finder, page = self.spec, self._nav.finder, self._page
        if spec.empty is None or spec.table is None:
            return False
        if await finder.maybe(page, spec.table, path="my_bookings.table") is not None:
            return False
        return await finder.maybe(page, spec.empty, path="my_bookings.empty") is not None

    @property
    def unread(self) -> tuple[str, ...]:
        """The rows of the last read the profile could not read, each said in a line (for
        a caller to show): left out of the bookings."""
        return tuple(self._unread)

    def _left_out(self, r: int, line: Item, unread: str) -> None:
        said = f"строка {r}: нет {_WHAT.get(unread, unread)}: {line.text[:80]}"
        self._unread.append(said)
        if self._recall.unread_first_seen(f"{unread}\x1f{line.text}"):
            log.warning("profile.my_bookings.row_unread", row=r, unread=unread,
                        text=line.text[:200])  # fmt: skip

    def _page_unread(self, number: str, exc: UnexpectedPage) -> None:
        self._unread.append(f"бронь № {number}: {exc.message}")
        if self._recall.unread_first_seen(f"page\x1f{number}"):
            log.warning("profile.my_bookings.page_unread", number=number, reason=exc.message)

    async def _load_more(self, items: Locator) -> None:
        """A list its scripts draw may show the first bookings only and fetch more when
        scrolled to its end: scroll until no more come (a booking never read is a
        booking sent twice). A last item in full view is not scrolled to: with the page
        settled, nothing more comes of it (nor did it of Playwright's own scroll)."""
        shown = -1
        while (count := await items.count()) != shown and count:
            shown = count
            if not await self._nav.scroll_to(self._page, items.nth(count - 1)):
                return

    def _rows(self) -> list[tuple[int, Item, list[Item]]]:
        if self._items is not None:
            return [(index, item, [item]) for index, item in enumerate(self._items)]
        return [] if self._table is None else rows_of(self._table)

    def _columns(self) -> list[str]:
        return [] if self._table is None else columns_of(self._table)

    async def numbers(self) -> dict[str, int]:
        """Booking number → its row's index in the table (or its item's)."""
        found = {}
        for r, line, cells in self._own_rows():
            number = await self._number(r, line, cells, None)
            if number:
                found[number] = r
        return found

    async def _number(
        self,
        r: int,
        line: Item,
        cells: list[Item],
        shown: Booking | None,
        *,
        click: bool = True,
        missing: frozenset[str] = frozenset(),
    ) -> str:
        assert self._picks is not None  # chosen as the list was read
        pick = self._picks.number
        if pick.of == "address":
            return await self._address(r, pick, shown, click=click, missing=missing)
        return value(pick, line, columns=self._columns(), row=cells)

    async def _address(
        self,
        index: int,
        pick: Pick,
        row: Booking | None,
        *,
        click: bool,
        missing: frozenset[str] = frozenset(),
    ) -> str:
        """Click item ``index`` (or its ``css`` element), read the address it leads to,
        and come back (a site that shows a booking's number only there). Not when the
        item was read before, or (for a read, ``row``: what the item shows) it is a
        booking read from its own page; without a ``click`` the number is then unknown
        (empty)."""
        assert self._located is not None and self._items is not None and pick.regex
        page, wanted = self._page, compiled(pick.regex)
        # Only an item unlike every other is known by what it shows (two alike: click each).
        # Known: paired with the item as read, nothing on the page is looked at.
        key = _known_as(self._items[index])
        unique = sum(_known_as(other) == key for other in self._items) == 1
        known = self._recall.numbers
        if unique and key in known:
            return known[key]
        pages = self._recall.pages
        if unique and row is not None and (number := pages.number_of(row, unshown=missing)):
            if click:  # not from a part of the list: an item alone there may have a twin
                self._recall.learn(key, number)
            return number
        if not click:
            return ""
        item = await self._as_read(index)
        target = item.locator(pick.css[0]).first if pick.css else item
        before = page.url
        found = await self._clicked_to(target, wanted)
        await page.go_back()
        await page.wait_for_url(before, timeout=self._nav.timeout_ms)
        await self._drawn()  # drawn again; the next click checks it is the same list
        number = first_group(found)
        if unique:
            self._recall.learn(key, number)
        return number

    async def _as_read(self, index: int) -> Locator:
        """Item ``index`` on the page, which must still be the item read: a list drawn
        again in between (a booking made or cancelled meanwhile) would pair one booking
        with another's number, or press another's control."""
        assert self._located is not None and self._items is not None
        item = self._located.nth(index)
        shown = " ".join((await item.inner_text()).split())
        if shown != self._items[index].text:
            raise Transient(f"«my bookings» changed while it was read (item {index})")
        return item

    async def _clicked_to(self, target: Locator, wanted: Pattern) -> Match:
        """Click ``target`` until the page's address is one ``wanted`` matches. On a busy
        machine a page its scripts draw may take a click and do nothing (seen on Indico's
        list, drawn and still, at its first card); clicking again only opens the same
        booking's details, a read."""
        page, before = self._page, self._page.url
        deadline = monotonic() + self._nav.timeout_ms / 1000
        while (left_ms := (deadline - monotonic()) * 1000) > 0:
            with contextlib.suppress(PlaywrightTimeoutError):
                await target.click(timeout=left_ms)
                await page.wait_for_url(
                    lambda url: url != before and wanted.search(unquote(url)) is not None,
                    timeout=min(_CLICK_TAKEN_MS, left_ms),
                )
            if page.url != before and (found := wanted.search(unquote(page.url))):
                return found
        raise Transient(f"a click on a booking in «my bookings» led nowhere ({page.url})")

    def _listed_rows(self) -> list[tuple[int, Item, list[Item]]]:
        """The rows that list a booking: a row of one cell («Нет броней») is left out."""
        return [
            (r, line, cells)
            for r, line, cells in self._rows()
            if self._items is not None or len({id(cell) for cell in cells}) > 1
        ]

    def _whose(self, line: Item, cells: list[Item]) -> Whose:
        assert self._picks is not None  # chosen as the list was read
        account = self._recall.account
        return whose(self._picks, line, cells, self._columns(), account=account)

    def _own_rows(self) -> list[tuple[int, Item, list[Item]]]:
        """The rows of the account's own bookings (``owner``)."""
        return [row for row in self._listed_rows() if self._whose(row[1], row[2]) == "account"]

    def _shown_rows(self) -> list[tuple[int, Item, list[Item], Shown]]:
        """Each row with what it shows, another's left out; one whose owner does not
        read shows nothing (``unread``: owner)."""
        assert self._picks is not None  # chosen as the list was read
        picks, columns = self._picks, self._columns()
        shown = []
        for r, line, cells in self._listed_rows():
            owner = self._whose(line, cells)
            if owner == "account":
                shown.append((r, line, cells, shown_in_row(picks, line, cells, columns)))
            elif owner == "unread":
                shown.append((r, line, cells, Shown(None, unread="owner")))
        return shown

    def _reads_in_anothers(self) -> bool:
        """Whether a row another person made reads (its date and times): the list is as
        the profile says, though no row of the account's reads (one made by hand)."""
        assert self._picks is not None  # chosen as the list was read
        picks, columns = self._picks, self._columns()
        return any(
            shown_in_row(picks, line, cells, columns).booking is not None
            for _, line, cells in self._listed_rows()
            if self._whose(line, cells) == "another"
        )

    async def bookings(self) -> list[tuple[Booking, frozenset[str]]]:
        """The listed bookings (buildings by the name shown), each with what is still to
        be read from its own page (the list does not show it: building, room, end). A row
        of one cell («Нет броней») or (in a table) with no number is not a booking; a row
        that does not read is left out (``unread``) while another row reads."""
        found = []
        unnumbered = []
        unread: list[tuple[int, Item, str]] = []
        self._unread = []
        for r, line, cells, shown in self._shown_rows():
            if shown.booking is None:
                unread.append((r, line, shown.unread))
                continue
            number = await self._number(r, line, cells, shown.booking, missing=shown.missing)
            if not number and self._items is not None:  # every item is a booking
                unread.append((r, line, "number"))
            elif not number:
                unnumbered.append(line.text)
            else:
                found.append((shown.booking.model_copy(update={"number": number}), shown.missing))
        read_elsewhere = not found and self._reads_in_anothers()
        if not found and unnumbered and not read_elsewhere:
            # Rows, and not one number among them: the number's column no longer reads
            # (renamed, moved), never an empty list.
            tried, called = sought(self.spec.number)
            raise await self._nav.finder.mismatch(
                self._page, self._find, path="my_bookings.number", tried=tried,
                what=f"номеров броней{called} в «моих бронях»: {unnumbered[0][:80]}",
            )  # fmt: skip
        if not found and unread and not read_elsewhere:  # no row reads: the site changed
            r, line, what = unread[0]
            # The value's own column named (the table was found): the line is its.
            tried, called = sought(getattr(self.spec, what, None))
            raise await self._nav.finder.mismatch(
                self._page, self._find, path=f"my_bookings.{what}", tried=tried,
                what=f"{_WHAT[what]}{called} в строке {r} «моих броней»: {line.text[:80]}",
            )  # fmt: skip
        for r, line, what in unread:
            self._left_out(r, line, what)
        return found

    async def known(self) -> list[Booking]:
        """The bookings read whose number and place need no click: shown in their row,
        or known from before (an item read earlier, a booking read on its own page).
        Others are left out: for the check after booking, which looks for bookings the
        session just made and read on their pages."""
        found = []
        for r, line, cells, row in self._shown_rows():
            if row.booking is None:
                continue
            number = await self._number(
                r, line, cells, row.booking, click=False, missing=row.missing
            )
            listed = row.booking.model_copy(update={"number": number})
            pages = self._recall.pages
            booking = pages.complete(listed, unshown=row.missing) if row.partial else listed
            if number and booking is not None:
                found.append(booking)
        return found

    async def in_full(
        self, codes: Callable[[set[str]], Awaitable[dict[str, str]]]
    ) -> list[Booking]:
        """The listed bookings, buildings by the site's codes (``codes``: the names shown →
        name → code); a row lacking its room, building or end is completed from the
        booking's own page, as read before or now. A booking whose page does not read (one
        made by hand over two days, say) is left out and reported (``unread``) while
        another reads, as a row that does not read is: left out, it is never taken for
        not made (a booking sent is looked for on the day's grid before it is sent
        again, ``adapters.sending``). None reading is the site changed."""
        read = []
        listed = await self.bookings()
        failed: UnexpectedPage | None = None
        for booking, missing in listed:
            if missing:
                pages = self._recall.pages
                # Buildings by the name shown: coded below, with the list's.
                completed = pages.complete(booking, unshown=missing)
                if completed is None:
                    try:
                        completed = await read_booking_page(
                            self._nav, self._page, booking.number, {}
                        )
                    except UnexpectedPage as exc:
                        failed = exc
                        self._page_unread(booking.number, exc)
                        continue
                pages.remember(completed)
                booking = completed
            read.append(booking)
        if failed is not None and not read:
            raise failed
        names = {b.building_name for b in read if b.building_name}
        known = await codes(names) if read else {}
        return [
            b.model_copy(update={"building": known.get(b.building_name, b.building)}) for b in read
        ]

    async def cancel(self, number: str) -> str | None:
        """Press the cancel control in the row of ``number`` and confirm; the question
        asked, or None when the row is not listed. ``Transient`` if it is still listed."""
        row_index = (await self.numbers()).get(number)
        if row_index is None or self._located is None:
            return None
        nav, page = self._nav, self._page
        cancel = nav.profile.cancel
        if self._items is not None:
            row = await self._as_read(row_index)
        else:
            # The very row the reader numbered (``table.rows``: thead, tbodies, tfoot),
            # marked: counting «tr» elements would also count a nested table's rows.
            mark = secrets.token_hex(4)
            await self._located.evaluate(
                "(table, [index, mark]) => table.rows[index].setAttribute('data-clubman-row',"
                " mark)",
                [row_index, mark],
            )
            row = self._located.locator(f"tr[data-clubman-row='{mark}']")
        control = await nav.finder.control(
            page, cancel.control, path="cancel.control", what="кнопки отмены", scope=row
        )
        async with confirming_dialogs(page, native=cancel.confirm == "native") as asked:
            if isinstance(cancel.confirm, tuple):
                await control.click()
                await nav.click_and_wait(
                    page, cancel.confirm, path="cancel.confirm", what="подтверждения отмены"
                )
            else:
                async with page.expect_navigation() as navigation:
                    await control.click()
                nav.land(page, await navigation.value)
        await self.open()
        if number in await self.numbers():
            raise Transient(f"booking {number} is still listed after cancelling ({asked})")
        return asked[0] if asked else ""
