"""The MCP server: every registered job's agent tools and resources, mapped onto the SDK.

Each tool's parameters are the fields of its arguments model and its output is its
answer type, so the SDK derives the input and output schemas from them and refuses
arguments that do not fit before a tool runs. A handler only finds the caller and calls
the tool.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Annotated, Any

from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceError
from mcp.types import ToolAnnotations
from pydantic import AnyHttpUrl, Field

from core.agent import AgentResource, AgentTool, ProgressFn, ToolCall, Toolkit
from core.errors import AgentError
from mcpserver.errors import tool_errors
from mcpserver.identity import Caller

__all__ = ["MCP_PATH", "build_server"]

MCP_PATH = "/mcp"


def _progress(ctx: Context) -> ProgressFn:
    """The run's steps as the call's progress notifications (none unless asked for)."""

    async def report(done: float, total: float, message: str) -> None:
        await ctx.report_progress(done, total, message)

    return report


def _handler(tool: AgentTool[Any], caller: Caller) -> Callable[..., Any]:
    """A function the SDK reads as the tool: one keyword parameter per argument field (with
    its constraints and description), the context, and the answer type."""

    async def handle(ctx: Context, **given: Any) -> Any:
        async with tool_errors(tool.name):
            call = ToolCall(
                user_id=await caller.user_id(),
                progress=_progress(ctx) if tool.reports_progress else None,
            )
            return await tool.call(call, tool.arguments.model_validate(given))

    keyword = inspect.Parameter.KEYWORD_ONLY
    parameters = [
        inspect.Parameter(
            name,
            keyword,
            annotation=Annotated[
                field.annotation, *field.metadata, Field(description=field.description)
            ],
            default=inspect.Parameter.empty if field.is_required() else field.default,
        )
        for name, field in tool.arguments.model_fields.items()
    ]
    parameters.append(inspect.Parameter("ctx", keyword, annotation=Context))
    handle.__signature__ = inspect.Signature(parameters, return_annotation=tool.answer)  # type: ignore[attr-defined]
    handle.__annotations__ = {p.name: p.annotation for p in parameters} | {"return": tool.answer}
    return handle


def _hints(tool: AgentTool[Any]) -> ToolAnnotations:
    hints = tool.hints
    return ToolAnnotations(
        read_only_hint=hints.read_only,
        destructive_hint=hints.destructive,
        idempotent_hint=hints.idempotent,
    )


def _add_resource(server: MCPServer, resource: AgentResource, caller: Caller) -> None:
    async def read() -> str:
        try:
            user_id = await caller.user_id()  # nothing is shown to a caller who is not a user
        except AgentError as exc:
            raise ResourceError(str(exc)) from exc
        return await resource.read(user_id)

    server.resource(
        resource.uri,
        name=resource.name,
        description=resource.description,
        mime_type="application/json",
    )(read)


def build_server(
    toolkits: Sequence[Toolkit],
    caller: Caller,
    *,
    verifier: TokenVerifier | None = None,
    public_url: str | None = None,
) -> MCPServer:
    """A new server with the tools and resources of ``toolkits`` (every registered job's,
    and the engine's); ``caller`` says whose request each call is. With a ``verifier``
    (HTTP) every request must bear a token it accepts, else it is a 401; ``public_url`` is
    where clients reach the server (its OAuth resource metadata)."""
    auth = None
    if verifier is not None:
        url = public_url or "http://127.0.0.1"
        # Tokens are ours, not an OAuth server's: the verifier checks them itself.
        auth = AuthSettings(
            issuer_url=AnyHttpUrl(url), resource_server_url=AnyHttpUrl(url + MCP_PATH),
            validate_token_resource=False,
        )  # fmt: skip
    instructions = "\n\n".join(kit.instructions for kit in toolkits if kit.instructions)
    server: MCPServer = MCPServer(
        "clubman", instructions=instructions, token_verifier=verifier, auth=auth
    )
    for kit in toolkits:
        for tool in kit.tools:
            server.add_tool(
                _handler(tool, caller),
                name=tool.name,
                description=tool.description,
                annotations=_hints(tool),
            )
        for resource in kit.resources:
            _add_resource(server, resource, caller)
    return server
