"""The agent API's engine: what any job's tools for agent clients (the MCP server) stand on,
the same core the Telegram bot uses. Each job declares its own tools
(``scenarios/<job>/agent``).

    tools.py      AgentTool, AgentResource, Toolkit: what a job declares; run_status
    runs.py       AgentRuns: the caller's language and zone, confirmed runs started once
    confirm.py    two-step changes: a plan, then a token that confirms exactly it
    access.py     bearer tokens, issued per Telegram user, stored hashed
    watch.py      following a run from storage, its steps as progress
    outcome.py    RunOutcome: where a run stands
"""

from core.agent.access import AccessTokens, token_hash
from core.agent.confirm import Confirmations
from core.agent.outcome import RunOutcome, RunState
from core.agent.runs import AgentRuns, RunRequest
from core.agent.tools import (
    READS,
    AgentResource,
    AgentTool,
    NoArguments,
    ToolCall,
    ToolHints,
    Toolkit,
    run_status_tool,
)
from core.agent.watch import ProgressFn

__all__ = [
    "READS",
    "AccessTokens",
    "AgentResource",
    "AgentRuns",
    "AgentTool",
    "Confirmations",
    "NoArguments",
    "ProgressFn",
    "RunOutcome",
    "RunRequest",
    "RunState",
    "ToolCall",
    "ToolHints",
    "Toolkit",
    "run_status_tool",
    "token_hash",
]
