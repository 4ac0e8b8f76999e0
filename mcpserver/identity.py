"""Who is calling: the Telegram user a bearer token was issued to.

Over HTTP the SDK's bearer middleware has checked the token on this very request (a
revoked token is a 401 before any tool runs). Over stdio there is no request to carry
one, so the token comes from the environment (``CLUBMAN_MCP_TOKEN``) and is checked on
every call: revoking it stops a desktop client that is already running too.
"""

from __future__ import annotations

from typing import Protocol

from mcp.server.auth.middleware.auth_context import get_access_token
from mcp.server.auth.provider import AccessToken, TokenVerifier

from core.agent import AccessTokens
from core.errors import AgentError

__all__ = ["BearerCaller", "Caller", "ClubTokenVerifier", "EnvTokenCaller"]

_SUBJECT = "telegram:"


class Caller(Protocol):
    async def user_id(self) -> int: ...


class ClubTokenVerifier(TokenVerifier):
    """The SDK's bearer check on our access tokens."""

    def __init__(self, tokens: AccessTokens) -> None:
        self._tokens = tokens

    async def verify_token(self, token: str) -> AccessToken | None:
        user_id = await self._tokens.user_of(token)
        if user_id is None:
            return None
        subject = f"{_SUBJECT}{user_id}"
        return AccessToken(token=token, client_id=subject, scopes=[], subject=subject)


class BearerCaller:
    async def user_id(self) -> int:
        token = get_access_token()
        if token is None or not (token.subject or "").startswith(_SUBJECT):
            raise AgentError("not authenticated")
        return int((token.subject or "")[len(_SUBJECT) :])


class EnvTokenCaller:
    def __init__(self, tokens: AccessTokens, token: str) -> None:
        self._tokens = tokens
        self._token = token

    async def user_id(self) -> int:
        user_id = await self._tokens.user_of(self._token)
        if user_id is None:
            raise AgentError("the access token is unknown or revoked", hint="ask the bot's owner")
        return user_id
