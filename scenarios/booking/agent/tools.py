"""The booking job's tools and resource for agent clients (the MCP server lists them)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, Field

from core.agent import READS, AgentResource, AgentTool, NoArguments, ToolCall, ToolHints, Toolkit
from scenarios.booking.agent.models import (
    BookingAnswer,
    BookingInfo,
    CancelAnswer,
    FoundRooms,
    RoomsQuery,
    ScheduleInfo,
    ScheduleRequest,
)
from scenarios.booking.agent.service import BookingAgent

__all__ = ["CATALOGUE_URI", "booking_toolkit"]

CATALOGUE_URI = "clubman://catalogue"

_INSTRUCTIONS = """\
Books university rooms for a student club, as the club's Telegram bot does.
Read the catalogue resource for building codes and the site's rules. Changes take two
calls: book_rooms or cancel_booking without confirm_token returns the exact plan and a
token; show the plan to the user, then call again with the same arguments and the token.
Runs show in the user's /status in Telegram and their answers are sent there too."""

ConfirmToken = Annotated[
    str | None,
    Field(description="The token a previous call returned; omit it to get the plan first"),
]


class _Query(BaseModel):
    query: RoomsQuery


class _Book(BaseModel):
    query: RoomsQuery
    confirm_token: ConfirmToken = None


class _Cancel(BaseModel):
    number: str = Field(min_length=1, max_length=64, description="Booking number")
    confirm_token: ConfirmToken = None


class _Schedule(BaseModel):
    request: ScheduleRequest


def booking_toolkit(agent: BookingAgent) -> Toolkit:
    async def find_rooms(call: ToolCall, args: _Query) -> FoundRooms:
        return await agent.find_rooms(call.user_id, args.query)

    async def book_rooms(call: ToolCall, args: _Book) -> BookingAnswer:
        return await agent.book(
            call.user_id, args.query, confirm_token=args.confirm_token, progress=call.progress
        )

    async def my_bookings(call: ToolCall, args: NoArguments) -> list[BookingInfo]:
        return await agent.bookings(call.user_id)

    async def cancel_booking(call: ToolCall, args: _Cancel) -> CancelAnswer:
        return await agent.cancel(
            call.user_id, args.number, confirm_token=args.confirm_token, progress=call.progress
        )

    async def list_schedules(call: ToolCall, args: NoArguments) -> list[ScheduleInfo]:
        return await agent.schedules(call.user_id)

    async def create_schedule(call: ToolCall, args: _Schedule) -> ScheduleInfo:
        return await agent.create_schedule(call.user_id, args.request)

    async def catalogue(user_id: int) -> str:
        return agent.catalogue().model_dump_json()

    tools: list[AgentTool[Any]] = [
        AgentTool(
            name="find_rooms",
            description="Free rooms for a day and time, per building, and the rooms a "
            "booking would take (adjacent ones when asked, seating ``capacity``). Books "
            "nothing.",
            arguments=_Query, answer=FoundRooms, call=find_rooms, hints=READS,
        ),
        AgentTool(
            name="book_rooms",
            description="Book rooms in two calls. Without confirm_token: the exact plan "
            "(building, rooms) and a token valid for 10 minutes. With it and the same query: "
            "books that plan and returns the run's outcome; the same token again returns the "
            "same run (never a second booking).",
            arguments=_Book, answer=BookingAnswer, call=book_rooms,
            hints=ToolHints(destructive=False, idempotent=True), reports_progress=True,
        ),
        AgentTool(
            name="my_bookings",
            description="The user's live bookings on the site.",
            arguments=NoArguments, answer=list[BookingInfo], call=my_bookings, hints=READS,
        ),
        AgentTool(
            name="cancel_booking",
            description="Cancel one of the user's bookings in two calls, like book_rooms: "
            "first the booking and a token, then the same number with the token.",
            arguments=_Cancel, answer=CancelAnswer, call=cancel_booking,
            hints=ToolHints(destructive=True, idempotent=True), reports_progress=True,
        ),
        AgentTool(
            name="list_schedules",
            description="The user's weekly bookings (active and paused).",
            arguments=NoArguments, answer=list[ScheduleInfo], call=list_schedules, hints=READS,
        ),
        AgentTool(
            name="create_schedule",
            description="A weekly booking: the rooms are booked on each weekday as its date "
            "enters the site's booking window; the user is told in Telegram each time.",
            arguments=_Schedule, answer=ScheduleInfo, call=create_schedule,
            hints=ToolHints(destructive=False),
        ),
    ]  # fmt: skip
    resource = AgentResource(
        uri=CATALOGUE_URI,
        name="catalogue",
        description="Buildings (codes, names), rooms (floor, capacity) and the site's "
        "booking rules.",
        read=catalogue,
    )
    return Toolkit(instructions=_INSTRUCTIONS, tools=tools, resources=[resource])
