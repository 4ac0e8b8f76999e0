"""The storage contract: the records the core keeps and the stores it keeps them in.

The core imports these, never ``storage``; ``storage`` implements them (its documents
are subclasses of the records) and imports nothing else of the core but ``core.errors``.
"""

from core.store.access import (
    AccessTokenRecord,
    AccessTokenStore,
    ConfirmAction,
    ConfirmationRecord,
    ConfirmationStore,
)
from core.store.ports import (
    Claims,
    ConversationLog,
    EventLog,
    Locks,
    OpenStore,
    RunStore,
    Store,
    UserStore,
)
from core.store.records import (
    ACTIVE_STATUSES,
    ClickRole,
    ClickTarget,
    ConversationMessage,
    Direction,
    Event,
    OptionRecord,
    OwedReply,
    PendingQuestion,
    ReplyKind,
    ReplyState,
    RunStatus,
    ScenarioRun,
    StepRecord,
    StepStatus,
    User,
    UserProfile,
    new_short_id,
    utcnow,
)

__all__ = [
    "ACTIVE_STATUSES",
    "AccessTokenRecord",
    "AccessTokenStore",
    "ConfirmAction",
    "ConfirmationRecord",
    "ConfirmationStore",
    "Claims",
    "ClickRole",
    "ClickTarget",
    "ConversationLog",
    "ConversationMessage",
    "Direction",
    "Event",
    "EventLog",
    "Locks",
    "OpenStore",
    "OptionRecord",
    "OwedReply",
    "PendingQuestion",
    "ReplyKind",
    "ReplyState",
    "RunStatus",
    "RunStore",
    "ScenarioRun",
    "StepRecord",
    "StepStatus",
    "Store",
    "User",
    "UserProfile",
    "UserStore",
    "new_short_id",
    "utcnow",
]
