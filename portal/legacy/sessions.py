"""Sessions in memory, their CSRF tokens, and the login lock-out.

Every visitor gets a session (so the login form has a token too); logging in issues a
fresh session id. Five wrong passwords in a row for one username lock it for 5 minutes.
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from enum import Enum

from portal.legacy.data import ACCOUNTS

__all__ = ["COOKIE", "LOCK_AFTER", "LOCK_FOR", "Login", "Session", "Sessions"]

COOKIE = "JSESSIONID"  # an old Java system's cookie name
LOCK_AFTER = 5
LOCK_FOR = timedelta(minutes=5)


@dataclass(slots=True)
class Session:
    id: str
    csrf: str
    user: str | None = None

    def csrf_ok(self, token: str) -> bool:
        return bool(token) and hmac.compare_digest(self.csrf.encode(), token.encode())


class Login(Enum):
    OK = "ok"
    WRONG = "wrong"
    LOCKED = "locked"


@dataclass(slots=True)
class _Failures:
    count: int = 0
    locked_until: datetime | None = None


def _password_ok(username: str, password: str) -> bool:
    account = ACCOUNTS.get(username)
    expected = account.password if account else "\0" * 16
    return hmac.compare_digest(expected.encode(), password.encode()) and account is not None


@dataclass
class Sessions:
    by_id: dict[str, Session] = field(default_factory=dict)
    failures: dict[str, _Failures] = field(default_factory=dict)

    def new(self) -> Session:
        session = Session(secrets.token_hex(16).upper(), secrets.token_urlsafe(24))
        self.by_id[session.id] = session
        return session

    def get(self, session_id: str | None) -> Session | None:
        return self.by_id.get(session_id) if session_id else None

    def end(self, session: Session) -> Session:
        """Drop the session and hand back a fresh anonymous one."""
        self.by_id.pop(session.id, None)
        return self.new()

    def end_all(self) -> None:
        self.by_id.clear()

    def clear(self) -> None:
        self.by_id.clear()
        self.failures.clear()

    def login(
        self, old: Session, username: str, password: str, *, now: datetime
    ) -> tuple[Login, Session | None]:
        key = username.strip().lower()
        record = self.failures.setdefault(key, _Failures())
        if record.locked_until is not None and now < record.locked_until:
            return Login.LOCKED, None
        if not _password_ok(key, password):
            record.count += 1
            if record.count >= LOCK_AFTER:
                record.count = 0
                record.locked_until = now + LOCK_FOR
                return Login.LOCKED, None
            return Login.WRONG, None
        self.failures.pop(key, None)
        fresh = self.end(old)
        fresh.user = key
        return Login.OK, fresh
