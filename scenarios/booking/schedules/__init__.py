"""Recurring bookings, part of the booking job: weekly schedules booked as their dates
enter the portal's window.

times        pure: window openings and due dates per weekday and time zone (DST-correct)
history      pure: which firings block a date, which are retried
firing       ScheduleFirer: claim, record, start the booking run, settle the status
service      BookingScheduler: the APScheduler timer, rebuilt from the documents (it
             also sends due reminders of bookings, ``scenarios.booking.reminders``)
book         ScheduleBook: what the schedule scenarios are given (publishes ScheduleChanged)
lead         how early a date is booked (``scenarios.booking.settings``: the job's section)
texts        what the schedules say
scenarios    the chat's schedule scenarios: create, list (pause, resume, delete), cancel
"""

from scenarios.booking.schedules.book import ScheduleBook, ScheduleChanged, entry_of
from scenarios.booking.schedules.entry import ScheduleEntry, ScheduleState, entry_label
from scenarios.booking.schedules.history import FiringStatus
from scenarios.booking.schedules.service import REMIND_JOB, TICK_JOB, BookingScheduler

__all__ = [
    "REMIND_JOB",
    "TICK_JOB",
    "BookingScheduler",
    "FiringStatus",
    "ScheduleBook",
    "ScheduleChanged",
    "ScheduleEntry",
    "ScheduleState",
    "entry_label",
    "entry_of",
]
