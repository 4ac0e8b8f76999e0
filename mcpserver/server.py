"""The MCP server: the agent API's operations as tools, the catalogue as a resource.

Handlers only find the caller, call ``AgentService`` and return its typed answer; the
SDK derives each tool's input and output schema from those types and refuses arguments
that do not fit them before a handler runs.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import ToolAnnotations
from pydantic import AnyHttpUrl, Field

from core.agent import (
    AgentService,
    BookingAnswer,
    BookingInfo,
    CancelAnswer,
    FoundRooms,
    ProgressFn,
    RoomsQuery,
    RunOutcome,
    ScheduleInfo,
    ScheduleRequest,
)
from core.errors import AgentError
from mcpserver.errors import tool_errors
from mcpserver.identity import Caller

__all__ = ["CATALOGUE_URI", "MCP_PATH", "build_server"]

CATALOGUE_URI = "clubman://catalogue"
MCP_PATH = "/mcp"

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
_READS = ToolAnnotations(read_only_hint=True, destructive_hint=False)


def _progress(ctx: Context) -> ProgressFn:
    """The run's steps as the call's progress notifications (none unless asked for)."""

    async def report(done: float, total: float, message: str) -> None:
        await ctx.report_progress(done, total, message)

    return report


def build_server(
    agent: AgentService,
    caller: Caller,
    *,
    verifier: TokenVerifier | None = None,
    public_url: str | None = None,
) -> MCPServer:
    """A new server on ``agent``; ``caller`` says whose request each call is. With a
    ``verifier`` (HTTP) every request must bear a token it accepts, else it is a 401;
    ``public_url`` is where clients reach the server (its OAuth resource metadata)."""
    auth = None
    if verifier is not None:
        url = public_url or "http://127.0.0.1"
        # Tokens are ours, not an OAuth server's: the verifier checks them itself.
        auth = AuthSettings(
            issuer_url=AnyHttpUrl(url), resource_server_url=AnyHttpUrl(url + MCP_PATH),
            validate_token_resource=False,
        )  # fmt: skip
    server: MCPServer = MCPServer(
        "clubman", instructions=_INSTRUCTIONS, token_verifier=verifier, auth=auth
    )

    @server.tool(annotations=_READS)
    async def find_rooms(query: RoomsQuery) -> FoundRooms:
        """Free rooms for a day and time, per building, and the rooms a booking would take
        (adjacent ones when asked, seating ``capacity``). Books nothing."""
        async with tool_errors("find_rooms"):
            return await agent.find_rooms(await caller.user_id(), query)

    @server.tool(annotations=ToolAnnotations(destructive_hint=False, idempotent_hint=True))
    async def book_rooms(
        query: RoomsQuery, ctx: Context, confirm_token: ConfirmToken = None
    ) -> BookingAnswer:
        """Book rooms in two calls. Without confirm_token: the exact plan (building, rooms)
        and a token valid for 10 minutes. With it and the same query: books that plan and
        returns the run's outcome; the same token again returns the same run (never a
        second booking)."""
        async with tool_errors("book_rooms"):
            return await agent.book(
                await caller.user_id(), query, confirm_token=confirm_token,
                progress=_progress(ctx),
            )  # fmt: skip

    @server.tool(annotations=_READS)
    async def my_bookings() -> list[BookingInfo]:
        """The user's live bookings on the site."""
        async with tool_errors("my_bookings"):
            return await agent.bookings(await caller.user_id())

    @server.tool(annotations=ToolAnnotations(destructive_hint=True, idempotent_hint=True))
    async def cancel_booking(
        number: Annotated[str, Field(min_length=1, max_length=64, description="Booking number")],
        ctx: Context,
        confirm_token: ConfirmToken = None,
    ) -> CancelAnswer:
        """Cancel one of the user's bookings in two calls, like book_rooms: first the
        booking and a token, then the same number with the token."""
        async with tool_errors("cancel_booking"):
            return await agent.cancel(
                await caller.user_id(), number, confirm_token=confirm_token,
                progress=_progress(ctx),
            )  # fmt: skip

    @server.tool(annotations=_READS)
    async def run_status(
        run_id: Annotated[str, Field(min_length=1, max_length=32)],
    ) -> RunOutcome:
        """Where a run of the user's stands (one a confirmed call started)."""
        async with tool_errors("run_status"):
            return await agent.run_status(await caller.user_id(), run_id)

    @server.tool(annotations=_READS)
    async def list_schedules() -> list[ScheduleInfo]:
        """The user's weekly bookings (active and paused)."""
        async with tool_errors("list_schedules"):
            return await agent.schedules(await caller.user_id())

    @server.tool(annotations=ToolAnnotations(destructive_hint=False))
    async def create_schedule(request: ScheduleRequest) -> ScheduleInfo:
        """A weekly booking: the rooms are booked on each weekday as its date enters the
        site's booking window; the user is told in Telegram each time."""
        async with tool_errors("create_schedule"):
            return await agent.create_schedule(await caller.user_id(), request)

    @server.resource(CATALOGUE_URI, name="catalogue", mime_type="application/json")
    async def catalogue() -> str:
        """Buildings (codes, names), rooms (floor, capacity) and the site's booking rules."""
        try:
            await caller.user_id()  # nothing is shown to a caller who is not a user
        except AgentError as exc:
            raise ResourceError(str(exc)) from exc
        return agent.catalogue().model_dump_json()

    return server
