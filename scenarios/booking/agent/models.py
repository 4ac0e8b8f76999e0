"""What the booking job's agent tools take and give: typed requests and answers, no site
types.

Each tool of the MCP server takes one of the requests and returns one of the answers
(their JSON schemas are the tools' input and output schemas), so every field carries a
description an LLM client reads.
"""

from __future__ import annotations

import datetime as dt
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from core.agent import RunOutcome
from core.nlu import MAX_ROOMS

__all__ = [
    "BookingAnswer",
    "BookingInfo",
    "BookingPlan",
    "BuildingInfo",
    "BuildingRooms",
    "CancelAnswer",
    "CancelRequest",
    "CatalogueView",
    "FoundRooms",
    "RoomInfo",
    "RoomsQuery",
    "RulesInfo",
    "ScheduleInfo",
    "ScheduleRequest",
    "Weekday",
]

Weekday = Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
# What a client may name: short, and no text that could pass for an instruction in a label.
RoomNumber = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=16, pattern=r"^[\w./-]+$"),
]
BuildingCode = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=64, pattern=r"^[\w.-]+$")
]
_MOST_PEOPLE = 10_000


class _Request(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt field is an error, not ignored


class RoomsQuery(_Request):
    """Rooms wanted: where, when, how many."""

    date: dt.date = Field(description="The day, YYYY-MM-DD")
    start: dt.time = Field(description="Start time, HH:MM (on the site's time grid)")
    end: dt.time = Field(description="End time, HH:MM")
    building: BuildingCode | None = Field(
        None, description="A building code from the catalogue resource; omit for any building"
    )
    rooms: int = Field(1, ge=1, le=MAX_ROOMS, description="How many rooms")
    adjacent: bool = Field(False, description="The rooms must stand side by side")
    capacity: int | None = Field(
        None, ge=1, le=_MOST_PEOPLE, description="People each room must seat"
    )
    room_numbers: list[RoomNumber] | None = Field(
        None, max_length=MAX_ROOMS, description="Exactly these room numbers (in one building)"
    )


class RoomInfo(BaseModel):
    number: str
    building: str = Field(description="Building code")
    floor: int | None = None
    capacity: int | None = None


class BuildingRooms(BaseModel):
    building: str = Field(description="Building code")
    building_name: str
    free: list[RoomInfo] = Field(description="Rooms free for the whole time asked")
    suggested: list[str] = Field(
        description="The room numbers a booking would take here; empty if it cannot be met"
    )


class FoundRooms(BaseModel):
    date: dt.date
    start: dt.time
    end: dt.time
    buildings: list[BuildingRooms]


class BookingPlan(BaseModel):
    """Exactly what a confirmed booking will book."""

    building: str
    building_name: str
    date: dt.date
    start: dt.time
    end: dt.time
    rooms: list[str] = Field(description="Room numbers")
    capacity: int | None = None


class BookingAnswer(BaseModel):
    """Without a confirm token: the plan and the token that confirms it. With one: the
    plan and the run booking it."""

    plan: BookingPlan
    confirm_token: str | None = Field(
        None, description="Call again with the same query and this token to book the plan"
    )
    expires_at: dt.datetime | None = None
    run: RunOutcome | None = None


class BookingInfo(BaseModel):
    number: str = Field(description="The booking's number on the site")
    building: str
    building_name: str
    room: str
    date: dt.date
    start: dt.time
    end: dt.time
    status: str = Field(description="active or pending (awaiting approval)")


class CancelRequest(_Request):
    number: str = Field(min_length=1, max_length=64, description="The booking's number")


class CancelAnswer(BaseModel):
    booking: BookingInfo
    confirm_token: str | None = Field(
        None, description="Call again with the same number and this token to cancel"
    )
    expires_at: dt.datetime | None = None
    run: RunOutcome | None = None


class ScheduleRequest(_Request):
    """A weekly booking: the same rooms and times on the given weekdays, booked as each
    date enters the site's booking window."""

    weekdays: list[Weekday] = Field(min_length=1, max_length=7)
    start: dt.time
    end: dt.time
    building: BuildingCode | None = Field(
        None, description="A building code; omit for any building"
    )
    rooms: int = Field(1, ge=1, le=MAX_ROOMS)
    adjacent: bool = False
    capacity: int | None = Field(None, ge=1, le=_MOST_PEOPLE)
    room_numbers: list[RoomNumber] | None = Field(None, max_length=MAX_ROOMS)


class ScheduleInfo(BaseModel):
    id: str
    weekdays: list[str]
    start: str | None
    end: str | None
    building: str | None
    rooms: int
    adjacent: bool
    room_numbers: list[str] | None
    status: str
    label: str = Field(description="As the bot shows it")


class RulesInfo(BaseModel):
    opens: dt.time
    closes: dt.time
    step_minutes: int
    longest_minutes: int
    horizon_days: int


class BuildingInfo(BaseModel):
    code: str
    name: str
    name_en: str
    rooms: list[RoomInfo]


class CatalogueView(BaseModel):
    system: str
    buildings: list[BuildingInfo]
    rules: RulesInfo
