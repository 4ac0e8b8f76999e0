"""Storage: Beanie documents on MongoDB/SecantusDB and Redis; the only package importing them.

Open everything with ``open_storage``; the repositories on ``Storage`` are the interface
the core uses.
"""

from storage.documents import (
    ACTIVE_STATUSES,
    ConversationMessage,
    Direction,
    Event,
    OptionRecord,
    PendingQuestion,
    Preference,
    RunStatus,
    ScenarioRun,
    Schedule,
    ScheduleFiring,
    ScheduleStatus,
    StepRecord,
    StepStatus,
    User,
    new_short_id,
    utcnow,
)
from storage.facade import Storage, open_storage
from storage.local_mongo import local_mongo
from storage.process import ChildProcess, find_executable, free_port, wait_for_port
from storage.users import UserProfile

__all__ = [
    "ACTIVE_STATUSES",
    "ChildProcess",
    "ConversationMessage",
    "Direction",
    "Event",
    "OptionRecord",
    "PendingQuestion",
    "Preference",
    "RunStatus",
    "ScenarioRun",
    "Schedule",
    "ScheduleFiring",
    "ScheduleStatus",
    "StepRecord",
    "StepStatus",
    "Storage",
    "User",
    "UserProfile",
    "find_executable",
    "free_port",
    "local_mongo",
    "new_short_id",
    "open_storage",
    "utcnow",
    "wait_for_port",
]
