"""``clubman mcp`` and ``clubman mcp-token``: the MCP server composed on the product's
core, and the bearer tokens it accepts."""

from __future__ import annotations

import os

import structlog
import uvicorn
from mcp.server.mcpserver import MCPServer

from app.compose import open_agent, open_settings_storage
from core.agent import AccessTokens
from core.clock import SystemClock
from core.errors import ConfigError
from core.settings import Settings
from mcpserver import (
    MCP_PATH,
    BearerCaller,
    ClubTokenVerifier,
    EnvTokenCaller,
    TelegramLeftToBot,
    build_server,
)

__all__ = ["TOKEN_ENV", "issue_token", "parse_listen", "revoke_tokens", "serve_mcp"]

log = structlog.get_logger("clubman.mcp")

TOKEN_ENV = "CLUBMAN_MCP_TOKEN"  # the stdio server's caller (desktop clients set env)


def parse_listen(value: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:8800`` for IPv6)."""
    host, _, port = value.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ConfigError(f"bad --http {value!r}", hint="give HOST:PORT, e.g. 127.0.0.1:8800")
    return host.strip("[]"), int(port)


async def serve_mcp(settings: Settings, *, http: tuple[str, int] | None) -> None:
    """Serve until stopped: on stdio (the caller's token from ``CLUBMAN_MCP_TOKEN``), or
    on streamable HTTP at ``http``, path ``/mcp``, every request with a bearer token."""
    if settings.mongodb_uri is None or settings.redis_url is None:
        # Its runs are the bot's chats' runs: the same MongoDB and Redis, or a local
        # SecantusDB and fakeredis of its own that the bot never sees (and a second
        # SecantusDB on the bot's data directory).
        raise ConfigError(
            "the MCP server needs the bot's MongoDB and Redis",
            hint="set MONGODB_URI and REDIS_URL as for `clubman run`",
        )
    token = os.environ.get(TOKEN_ENV, "")
    async with open_settings_storage(settings) as storage:
        tokens = AccessTokens(storage.access_tokens, clock=SystemClock())
        if http is None and await tokens.user_of(token) is None:
            raise ConfigError(
                f"{TOKEN_ENV} is missing, unknown or revoked",
                hint="the bot's owner prints one with `clubman mcp-token USER_ID`",
            )
        async with open_agent(settings, storage, TelegramLeftToBot()) as toolkits:
            if http is None:
                log.info("mcp.serving", transport="stdio")
                await build_server(toolkits, EnvTokenCaller(tokens, token)).run_stdio_async()
                return
            host, port = http
            url_host = f"[{host}]" if ":" in host else host
            server = build_server(
                toolkits,
                BearerCaller(),
                verifier=ClubTokenVerifier(tokens),
                public_url=f"http://{url_host}:{port}",
            )
            await _serve_http(server, host=host, port=port)


async def _serve_http(server: MCPServer, *, host: str, port: int) -> None:
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, host=host)
    log.info("mcp.serving", transport="streamable-http", host=host, port=port, path=MCP_PATH)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", access_log=False)
    await uvicorn.Server(config).serve()


async def issue_token(settings: Settings, user_id: int) -> str:
    async with open_settings_storage(settings) as storage:
        return await AccessTokens(storage.access_tokens, clock=SystemClock()).issue(user_id)


async def revoke_tokens(settings: Settings, user_id: int) -> int:
    async with open_settings_storage(settings) as storage:
        return await AccessTokens(storage.access_tokens, clock=SystemClock()).revoke(user_id)
