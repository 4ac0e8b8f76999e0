"""Sessions (in memory), CSRF tokens and login lockout.

Every visitor gets a session, logged in or not, so the login form has a CSRF
token too. Logging in issues a fresh session id (no session fixation).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from portal.data import USERS

__all__ = [
    "LOCKOUT_AFTER",
    "LOCKOUT_FOR",
    "SESSION_COOKIE",
    "LoginResult",
    "Session",
    "SessionStore",
    "check_password",
]

SESSION_COOKIE = "portal_session"
LOCKOUT_AFTER = 5
LOCKOUT_FOR = timedelta(minutes=5)


@dataclass(slots=True)
class Session:
    id: str
    csrf: str
    user: str | None = None
    logged_in_at: datetime | None = None

    def csrf_ok(self, token: str) -> bool:
        return hmac.compare_digest(self.csrf.encode(), token.encode())


@dataclass(slots=True)
class _Failures:
    count: int = 0
    locked_until: datetime | None = None


class LoginResult:
    OK = "ok"
    BAD_CREDENTIALS = "bad_credentials"
    LOCKED = "locked"


def check_password(username: str, password: str) -> bool:
    user = USERS.get(username)
    # Compare even for unknown users so timing does not reveal which names exist.
    expected = user.password if user else "\0" * 16
    return hmac.compare_digest(expected.encode(), password.encode()) and user is not None


@dataclass
class SessionStore:
    sessions: dict[str, Session] = field(default_factory=dict)
    failures: dict[str, _Failures] = field(default_factory=dict)

    def new(self) -> Session:
        session = Session(id=secrets.token_urlsafe(24), csrf=secrets.token_urlsafe(24))
        self.sessions[session.id] = session
        return session

    def get(self, session_id: str | None) -> Session | None:
        return self.sessions.get(session_id) if session_id else None

    def drop(self, session: Session) -> None:
        self.sessions.pop(session.id, None)

    def clear(self) -> None:
        self.sessions.clear()
        self.failures.clear()

    def login(
        self, old: Session, username: str, password: str, *, now: datetime
    ) -> tuple[str, Session | None]:
        """Check credentials with lockout; on success the old session is replaced."""
        key = username.strip().lower()
        record = self.failures.setdefault(key, _Failures())
        if record.locked_until is not None and now < record.locked_until:
            return LoginResult.LOCKED, None
        if not check_password(key, password):
            record.count += 1
            if record.count >= LOCKOUT_AFTER:
                record.count = 0
                record.locked_until = now + LOCKOUT_FOR
                return LoginResult.LOCKED, None
            return LoginResult.BAD_CREDENTIALS, None
        self.failures.pop(key, None)
        self.drop(old)
        fresh = self.new()
        fresh.user = key
        fresh.logged_in_at = now
        return LoginResult.OK, fresh

    def expired(self, session: Session, *, lifetime: float | None, now: datetime) -> bool:
        if lifetime is None or session.user is None or session.logged_in_at is None:
            return False
        return (now - session.logged_in_at).total_seconds() > lifetime
