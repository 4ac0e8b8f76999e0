"""The MCP server: a view of the agent API (``core.agent``: every registered job's tools
and resources), like ``bot/`` is of the chat. It imports the core and the MCP SDK only;
``app/`` composes and runs it.

    server.py    build_server: the toolkits' tools and resources, bearer auth over HTTP
    identity.py  who is calling: a bearer token (HTTP) or CLUBMAN_MCP_TOKEN (stdio)
    errors.py    our errors as tool errors
    sink.py      the core's outputs in this process (Telegram is left to the bot)
"""

from mcpserver.identity import BearerCaller, Caller, ClubTokenVerifier, EnvTokenCaller
from mcpserver.server import MCP_PATH, build_server
from mcpserver.sink import TelegramLeftToBot

__all__ = [
    "MCP_PATH",
    "BearerCaller",
    "Caller",
    "ClubTokenVerifier",
    "EnvTokenCaller",
    "TelegramLeftToBot",
    "build_server",
]
