"""The booking job's manifest: booking, listing and cancelling rooms, recurring bookings
and reminders, on the site's booking system (offered as ``PortalWork``)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from core.agent import AgentRuns, Toolkit
from core.authz import Roles
from core.dispatcher import ChatDispatcher
from core.jobs import Job, JobManifest, JobParts
from core.vault import CredentialVault
from scenarios.booking.agent import AgentSchedules, BookingAgent, PortalDesk, booking_toolkit
from scenarios.booking.book import BookRooms, PreferenceStore
from scenarios.booking.free_rooms import FreeRoomsNearby
from scenarios.booking.manage import CancelBooking, ListBookings
from scenarios.booking.owners import BookingOwners
from scenarios.booking.records import BookingStore
from scenarios.booking.reminders import Reminders
from scenarios.booking.schedules import BookingScheduler, ScheduleBook
from scenarios.booking.schedules.scenarios import CancelSchedule, ListSchedules, ScheduleBooking
from scenarios.booking.settings import SchedulerSettings
from scenarios.booking.still_booked import StillBooked
from scenarios.booking.vocabulary import BookingReader
from scenarios.booking.work import PortalWork

__all__ = ["MANIFEST"]

_JOB = "booking"
_SECTION = "scheduler"  # SCHEDULER__LEAD_DAYS and so on


@runtime_checkable
class _Stores(BookingStore, Protocol):
    """The stores the job keeps: the core's, its schedules and reminders, and what each
    user books most (``storage.Storage`` has them all)."""

    @property
    def preferences(self) -> PreferenceStore: ...


def _setup(parts: JobParts) -> Job:
    work = parts.offers.need(PortalWork, job=_JOB)
    vault = parts.offers.need(CredentialVault, job=_JOB)
    stores = parts.store_as(_Stores, job=_JOB)  # type: ignore[type-abstract]  # mypy#4717
    catalogues = parts.catalogues
    # Reminders are planned by the bookings and sent by the scheduler (where this process
    # delivers); a cancel takes its bookings out of them (BookingsCancelled on the bus).
    reminders = Reminders(
        stores.reminders, stores.users, parts.sink, clock=parts.clock,
        live=StillBooked(work=work, vault=vault), bus=parts.bus,
    )  # fmt: skip
    parts.bus.subscribe(reminders.on_event)
    schedules = ScheduleBook(stores, bus=parts.bus, clock=parts.clock)
    book = BookRooms(
        work=work, preferences=stores.preferences, catalogues=catalogues, reminders=reminders
    )
    owners = BookingOwners(runs=stores.runs, work=work)

    def scheduler(manager: ChatDispatcher) -> BookingScheduler:
        return BookingScheduler(
            storage=stores, manager=manager, clock=parts.clock,
            settings=parts.section(_SECTION, SchedulerSettings),
            owner_id=stores.locks.holder, bus=parts.bus, catalogues=catalogues,
            reminders=reminders if parts.delivers else None,
        )  # fmt: skip

    def toolkit(runs: AgentRuns) -> Toolkit:
        desk = PortalDesk(
            work=work, catalogues=catalogues, preferences=stores.preferences, owners=owners
        )
        agent = BookingAgent(
            runs=runs, desk=desk, schedules=AgentSchedules(schedules, catalogues),
            catalogues=catalogues, roles=Roles(parts.settings.telegram.admins),
        )  # fmt: skip
        return booking_toolkit(agent)

    return Job(
        scenarios=[
            book,
            ListBookings(work=work, catalogues=catalogues, owners=owners),
            CancelBooking(work=work, catalogues=catalogues, owners=owners),
            ScheduleBooking(store=schedules, catalogues=catalogues, booking=book),
            ListSchedules(store=schedules, catalogues=catalogues),
            CancelSchedule(store=schedules, catalogues=catalogues),
        ],
        offers=[FreeRoomsNearby(work)],
        services=[scheduler],
        toolkit=toolkit,
    )


MANIFEST = JobManifest(
    name=_JOB, order=10, setup=_setup, reader=BookingReader,
    settings=(_SECTION, SchedulerSettings),
)  # fmt: skip
