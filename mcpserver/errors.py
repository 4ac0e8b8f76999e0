"""Our errors as the MCP client sees them: a tool error with one clear line.

The agent's own mistakes (an unknown confirm token, a rule the request breaks) and the
site's refusals are told as they are; our failures (storage, the browser) are told as
such, their details left to the log, like the bot's error router does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import structlog
from mcp.server.mcpserver.exceptions import ToolError

from core.errors import AgentError, ClubError, ConfigError, PortalError, ScenarioError

__all__ = ["tool_errors"]

log = structlog.get_logger("clubman.mcp")

_TOLD_AS_IS = (AgentError, PortalError, ScenarioError, ConfigError)


@asynccontextmanager
async def tool_errors(tool: str) -> AsyncIterator[None]:
    try:
        yield
    except _TOLD_AS_IS as exc:
        log.info("mcp.tool_refused", tool=tool, error=type(exc).__name__)
        raise ToolError(str(exc)) from exc
    except ClubError as exc:
        log.warning("mcp.tool_failed", tool=tool, error=exc.message)
        raise ToolError(f"{tool} failed on our side; try again in a minute") from exc
