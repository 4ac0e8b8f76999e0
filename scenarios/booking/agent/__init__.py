"""The booking job's tools for agent clients (the MCP server), on ``core.agent``.

models.py     requests and answers (the tools' input and output schemas)
ports.py      BookingDesk: the booking system read outside a run; ScheduleDesk
desk.py       PortalDesk: the desk on the configured site
schedules.py  AgentSchedules: the schedule desk on the schedule book
catalogue.py  the catalogue as agents see it
service.py    BookingAgent: the operations
tools.py      booking_toolkit: the operations as tools, the catalogue as a resource
"""

from scenarios.booking.agent.desk import PortalDesk
from scenarios.booking.agent.models import (
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
    ScheduleInfo,
    ScheduleRequest,
)
from scenarios.booking.agent.ports import BookingDesk, ScheduleDesk
from scenarios.booking.agent.schedules import AgentSchedules
from scenarios.booking.agent.service import BookingAgent
from scenarios.booking.agent.tools import CATALOGUE_URI, booking_toolkit

__all__ = [
    "CATALOGUE_URI",
    "AgentSchedules",
    "BookingAgent",
    "BookingAnswer",
    "BookingDesk",
    "BookingInfo",
    "BookingPlan",
    "BuildingInfo",
    "BuildingRooms",
    "CancelAnswer",
    "CancelRequest",
    "CatalogueView",
    "FoundRooms",
    "PortalDesk",
    "RoomInfo",
    "RoomsQuery",
    "RulesInfo",
    "ScheduleDesk",
    "ScheduleInfo",
    "ScheduleRequest",
    "booking_toolkit",
]
