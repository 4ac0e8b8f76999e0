"""Personal portal accounts: ``/login`` checks a user's own portal username and password
on the portal and keeps them encrypted; ``/logout`` forgets them, and bookings go back to
the club's account (``PORTAL__USERNAME``/``PORTAL__PASSWORD``).

Passwords travel as ``SecretStr`` and are never logged, not even the username: log lines
carry the user id and the outcome only.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

import structlog
from pydantic import SecretStr

from core.errors import BrowserError, ConfigError, PortalError

if TYPE_CHECKING:
    from core.vault import CredentialVault

__all__ = ["AccountService", "LoginChecker", "LoginOutcome", "LoginVerdict"]

log = structlog.get_logger("clubman.accounts")


class LoginVerdict(StrEnum):
    """What the portal said to a username and password."""

    ACCEPTED = "accepted"
    REJECTED = "rejected"  # wrong username or password
    LOCKED = "locked"  # too many failed logins: blocked for a while


class LoginOutcome(StrEnum):
    """What ``AccountService.login`` did."""

    SAVED = "saved"
    REJECTED = "rejected"
    LOCKED = "locked"
    UNAVAILABLE = "unavailable"  # the portal (or the browser) could not be asked


class LoginChecker(Protocol):
    """Tries a login on the portal (``scenarios.booking.PortalWork``); an unreachable portal
    or a broken browser raise ``PortalError`` / ``BrowserError``."""

    async def check_login(self, username: str, password: SecretStr) -> LoginVerdict: ...


class AccountService:
    def __init__(self, *, vault: CredentialVault, checker: LoginChecker, can_save: bool) -> None:
        self._vault = vault
        self._checker = checker
        self._can_save = can_save

    @property
    def can_save(self) -> bool:
        """False without ``SECURITY__ENCRYPTION_KEY``: personal logins cannot be kept."""
        return self._can_save

    def require_key(self) -> None:
        if not self._can_save:
            raise ConfigError(
                "personal portal logins need an encryption key",
                hint="set SECURITY__ENCRYPTION_KEY (`clubman keygen` prints one)",
            )

    async def login(self, user_id: int, username: str, password: SecretStr) -> LoginOutcome:
        """Check the credentials on the portal; store them (encrypted) only if accepted."""
        self.require_key()
        try:
            verdict = await self._checker.check_login(username, password)
        except (PortalError, BrowserError) as exc:
            log.warning("accounts.check_failed", user_id=user_id, error=type(exc).__name__)
            return LoginOutcome.UNAVAILABLE
        if verdict is not LoginVerdict.ACCEPTED:
            log.info("accounts.login_refused", user_id=user_id, verdict=verdict.value)
            return LoginOutcome(verdict.value)
        await self._vault.save_credentials(user_id, username, password)
        log.info("accounts.login_saved", user_id=user_id)
        return LoginOutcome.SAVED

    async def username(self, user_id: int) -> str | None:
        """The portal username the user's bookings are made as, if they logged in."""
        personal = await self._vault.credentials(user_id)
        return personal.username if personal is not None else None

    async def logout(self, user_id: int) -> bool:
        """Forget the user's credentials and portal session; False if there were none."""
        if not await self._vault.forget_credentials(user_id):
            return False
        log.info("accounts.logout", user_id=user_id)
        return True
