"""What a job offers agent clients: tools and resources, declared on the engine's terms.

A job builds its ``Toolkit`` (``scenarios/<job>/agent``); the MCP view maps every tool of
every registered job onto the SDK, with the tool's arguments model as its input schema
and its answer type as its output schema. Nothing here names a job.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, Field

from core.agent.outcome import RunOutcome
from core.agent.runs import AgentRuns
from core.agent.watch import ProgressFn

__all__ = [
    "READS",
    "AgentResource",
    "AgentTool",
    "NoArguments",
    "ToolCall",
    "ToolHints",
    "Toolkit",
    "run_status_tool",
]

Args = TypeVar("Args", bound=BaseModel)


class NoArguments(BaseModel):
    """The arguments of a tool that takes none."""


class ToolHints(BaseModel, frozen=True):
    """What a client may assume of a tool (MCP's tool annotations); None: not said."""

    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None


READS = ToolHints(read_only=True, destructive=False)


@dataclass(frozen=True)
class ToolCall:
    """Who calls a tool, and where its run's steps go as progress (when the client asked)."""

    user_id: int
    progress: ProgressFn | None = None


@dataclass(frozen=True)
class AgentTool(Generic[Args]):
    """One tool: its name and description as clients read them, its arguments (the model's
    fields are the tool's parameters), the type of its answer, and what it does."""

    name: str
    description: str
    arguments: type[Args]
    answer: Any  # a type expression: a model, or a list of one
    call: Callable[[ToolCall, Args], Awaitable[Any]]
    hints: ToolHints = field(default_factory=ToolHints)
    reports_progress: bool = False


@dataclass(frozen=True)
class AgentResource:
    """A read-only document for agent clients: ``read`` gives its JSON to the caller."""

    uri: str
    name: str
    description: str
    read: Callable[[int], Awaitable[str]]


@dataclass(frozen=True)
class Toolkit:
    """A job's tools and resources, and a line for the server's instructions."""

    instructions: str
    tools: Sequence[AgentTool[Any]]
    resources: Sequence[AgentResource] = ()


class _RunId(BaseModel):
    run_id: str = Field(min_length=1, max_length=32)


def run_status_tool(runs: AgentRuns) -> AgentTool[_RunId]:
    """The engine's own tool: where a run of the caller's stands, whatever its job."""

    async def status(call: ToolCall, args: _RunId) -> RunOutcome:
        return await runs.status(call.user_id, args.run_id)

    return AgentTool(
        name="run_status",
        description="Where a run of the user's stands (one a confirmed call started).",
        arguments=_RunId,
        answer=RunOutcome,
        call=status,
        hints=READS,
    )
