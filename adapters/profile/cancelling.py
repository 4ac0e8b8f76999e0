"""Cancelling one booking through the profile's pages: from «my bookings», or on the
booking's own page (``cancel.at``). Repeating it is harmless, so a session retries it like
a read; what an earlier attempt pressed is remembered, so a booking gone from the list
after that press is taken as cancelled, not as one never listed."""

from __future__ import annotations

import structlog
from playwright.async_api import Page

from adapters.profile.bookingpage import cancel_on_booking_page
from adapters.profile.bookings import MyList
from adapters.profile.navigate import Navigator
from adapters.profile.recall import Recall
from scenarios.booking.errors import BookingRejected

__all__ = ["Cancelling"]

log = structlog.get_logger("clubman.portal")


def _not_listed(number: str) -> BookingRejected:
    return BookingRejected(f"Бронь № {number} не найдена среди активных броней", code="not_found")


class Cancelling:
    """The cancel of booking ``number``, one attempt per call; a booking not listed (and
    not cancelled by an earlier attempt) is ``BookingRejected``."""

    def __init__(self, nav: Navigator, recall: Recall, number: str) -> None:
        self._nav = nav
        self._recall = recall
        self._number = number
        self._pressed = False

    def _pressing(self) -> None:
        self._pressed = True

    async def _listed(self, page: Page) -> MyList | None:
        """«My bookings», opened, if it lists the booking."""
        mine = MyList(self._nav, page, self._recall)
        await mine.open()
        return mine if self._number in await mine.numbers() else None

    async def __call__(self, page: Page) -> None:
        number = self._number
        if self._nav.profile.cancel.at == "booking_page":
            # the page may offer cancelling others' bookings (an admin): ours first
            if not self._pressed and await self._listed(page) is None:
                raise _not_listed(number)
            cancelled = await cancel_on_booking_page(
                self._nav, page, number, pressing=self._pressing
            )
            if not cancelled and not self._pressed:  # an earlier attempt may have cancelled it
                raise _not_listed(number)
            return
        mine = await self._listed(page)
        if mine is None:
            if self._pressed:
                return
            raise _not_listed(number)
        self._pressed = True
        question = await mine.cancel(number)
        log.info("portal.cancelled", number=number, question=question)
