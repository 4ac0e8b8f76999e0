"""Recurring bookings: weekly schedules booked as their dates enter the portal's window.

times        pure: window openings and due dates per weekday and time zone (DST-correct)
history      pure: which firings block a date, which are retried
firing       ScheduleFirer: claim, record, start the booking run, settle the status
service      BookingScheduler: the APScheduler timer, rebuilt from the documents (it
             also sends due reminders of bookings, ``core.reminders``)
book         ScheduleBook: what the schedule scenarios are given (publishes ScheduleChanged)
settings     SchedulerSettings
"""

from core.scheduler.book import ScheduleBook, ScheduleChanged, entry_of
from core.scheduler.entry import ScheduleEntry, ScheduleState, entry_label
from core.scheduler.history import FiringStatus
from core.scheduler.service import REMIND_JOB, TICK_JOB, BookingScheduler
from core.scheduler.settings import SchedulerSettings

__all__ = [
    "REMIND_JOB",
    "TICK_JOB",
    "BookingScheduler",
    "FiringStatus",
    "ScheduleBook",
    "ScheduleChanged",
    "ScheduleEntry",
    "ScheduleState",
    "SchedulerSettings",
    "entry_label",
    "entry_of",
]
