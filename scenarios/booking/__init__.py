"""Room booking on the configured booking system: book, list and cancel."""

from scenarios.booking.book import BookRooms, PreferenceStore
from scenarios.booking.manage import CancelBooking, ListBookings
from scenarios.booking.slots import BookingSlots
from scenarios.booking.work import PortalAccount, PortalWork, SessionVault, read_catalogue

__all__ = [
    "BookRooms",
    "BookingSlots",
    "CancelBooking",
    "ListBookings",
    "PortalAccount",
    "PortalWork",
    "PreferenceStore",
    "SessionVault",
    "read_catalogue",
]
