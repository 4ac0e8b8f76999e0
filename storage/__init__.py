"""Storage: Beanie documents on MongoDB/SecantusDB and Redis; the only package importing them.

It implements the core's storage contract (``core.store``): its documents are the
core's records, its repositories the core's stores. Open everything with
``open_storage``.
"""

from storage.documents import (
    ConversationMessageDocument,
    EventDocument,
    PreferenceDocument,
    ScenarioRunDocument,
    ScheduleDocument,
    UserDocument,
)
from storage.facade import Storage, open_storage
from storage.local_mongo import local_mongo
from storage.process import ChildProcess, find_executable, free_port, wait_for_port

__all__ = [
    "ChildProcess",
    "ConversationMessageDocument",
    "EventDocument",
    "PreferenceDocument",
    "ScenarioRunDocument",
    "ScheduleDocument",
    "Storage",
    "UserDocument",
    "find_executable",
    "free_port",
    "local_mongo",
    "open_storage",
    "wait_for_port",
]
