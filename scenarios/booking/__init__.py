"""Room booking on the portal: book, list and cancel."""

from scenarios.booking.book import BookRooms, PreferenceStore
from scenarios.booking.manage import CancelBooking, ListBookings
from scenarios.booking.slots import BookingSlots
from scenarios.booking.work import PortalAccount, PortalWork, SessionVault

__all__ = [
    "BookRooms",
    "BookingSlots",
    "CancelBooking",
    "ListBookings",
    "PortalAccount",
    "PortalWork",
    "PreferenceStore",
    "SessionVault",
]
