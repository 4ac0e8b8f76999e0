"""Portal credentials and browser sessions per user, encrypted with the configured key.

Passwords are stored only encrypted (Fernet, key from ``SECURITY__ENCRYPTION_KEY``)
and never logged. Without a key, /login is refused with a clear error, and saved
browser sessions are kept in this process only.
"""

from __future__ import annotations

import json
from typing import Any

from cryptography.fernet import Fernet, InvalidToken
from pydantic import BaseModel, SecretStr

from core.errors import ConfigError
from core.store import Store

__all__ = ["CredentialVault", "PortalCredentials"]


class PortalCredentials(BaseModel):
    username: str
    password: SecretStr


class CredentialVault:
    def __init__(self, storage: Store, key: SecretStr | None) -> None:
        self._storage = storage
        self._fernet = Fernet(key.get_secret_value().encode()) if key else None
        self._sessions_in_memory: dict[int, dict[str, Any]] = {}

    def _require_key(self) -> Fernet:
        if self._fernet is None:
            raise ConfigError(
                "personal portal logins need an encryption key",
                hint="set SECURITY__ENCRYPTION_KEY (`clubman keygen` prints one)",
            )
        return self._fernet

    async def save_credentials(self, user_id: int, username: str, password: SecretStr) -> None:
        fernet = self._require_key()
        user = await self._storage.users.get_or_create(user_id)
        user.portal_username = username
        user.portal_password_encrypted = fernet.encrypt(password.get_secret_value().encode())
        user.portal_session_encrypted = None  # a new account starts a new session
        await self._storage.users.save(user)

    async def credentials(self, user_id: int) -> PortalCredentials | None:
        user = await self._storage.users.get(user_id)
        if user is None or not user.portal_username or not user.portal_password_encrypted:
            return None
        if self._fernet is None:
            return None
        try:
            password = self._fernet.decrypt(user.portal_password_encrypted).decode()
        except InvalidToken:
            return None  # encrypted with another key: the user has to /login again
        return PortalCredentials(username=user.portal_username, password=SecretStr(password))

    async def forget_credentials(self, user_id: int) -> bool:
        """Drop the user's login and saved session; False if they had no login."""
        self._sessions_in_memory.pop(user_id, None)
        user = await self._storage.users.get(user_id)
        if user is None or (
            user.portal_username is None and user.portal_password_encrypted is None
        ):
            return False
        user.portal_username = None
        user.portal_password_encrypted = None
        user.portal_session_encrypted = None
        await self._storage.users.save(user)
        return True

    async def save_session(self, user_id: int, state: dict[str, Any]) -> None:
        if self._fernet is None:
            self._sessions_in_memory[user_id] = state
            return
        user = await self._storage.users.get_or_create(user_id)
        user.portal_session_encrypted = self._fernet.encrypt(json.dumps(state).encode())
        await self._storage.users.save(user)

    async def session(self, user_id: int) -> dict[str, Any] | None:
        if self._fernet is None:
            return self._sessions_in_memory.get(user_id)
        user = await self._storage.users.get(user_id)
        if user is None or user.portal_session_encrypted is None:
            return None
        try:
            state: dict[str, Any] = json.loads(self._fernet.decrypt(user.portal_session_encrypted))
        except (InvalidToken, ValueError):
            return None
        return state

    async def forget_session(self, user_id: int) -> None:
        self._sessions_in_memory.pop(user_id, None)
        user = await self._storage.users.get(user_id)
        if user is not None and user.portal_session_encrypted is not None:
            user.portal_session_encrypted = None
            await self._storage.users.save(user)
