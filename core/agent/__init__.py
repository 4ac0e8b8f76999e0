"""The agent API: typed operations for an agent client (the MCP server) on the same core
the Telegram bot uses.

    models.py     requests and answers (the MCP tools' input and output schemas)
    access.py     bearer tokens, issued per Telegram user, stored hashed
    confirm.py    two-step changes: a plan, then a token that confirms exactly it
    ports.py      BookingDesk: the booking system read outside a run; ScheduleDesk: the
                  recurring bookings (scenarios implement both)
    watch.py      following a run from storage, its steps as progress
    catalogue.py  the catalogue as agents see it
    service.py    AgentService: the operations
"""

from core.agent.access import AccessTokens, token_hash
from core.agent.confirm import Confirmations
from core.agent.models import (
    BookingAnswer,
    BookingInfo,
    BookingPlan,
    BuildingInfo,
    BuildingRooms,
    CancelAnswer,
    CancelRequest,
    CatalogueView,
    FoundRooms,
    RoomInfo,
    RoomsQuery,
    RulesInfo,
    RunOutcome,
    ScheduleInfo,
    ScheduleRequest,
)
from core.agent.ports import BookingDesk, RunRequest, ScheduleDesk
from core.agent.service import AgentService
from core.agent.watch import ProgressFn

__all__ = [
    "AccessTokens",
    "AgentService",
    "BookingAnswer",
    "BookingDesk",
    "BookingInfo",
    "BookingPlan",
    "BuildingInfo",
    "BuildingRooms",
    "CancelAnswer",
    "CancelRequest",
    "CatalogueView",
    "Confirmations",
    "FoundRooms",
    "ProgressFn",
    "RoomInfo",
    "RoomsQuery",
    "RulesInfo",
    "RunOutcome",
    "RunRequest",
    "ScheduleDesk",
    "ScheduleInfo",
    "ScheduleRequest",
    "token_hash",
]
