"""``IndicoSystem``: a real Indico's room booking as a ``scenarios.booking.port.BookingSystem``."""

from __future__ import annotations

from adapters.indico.api import login
from adapters.indico.session import IndicoSession, LoginFlow
from core.browser import BrowserContext
from core.browser.retry import RetryPolicy
from core.site.retry import OnRetry

__all__ = ["IndicoSystem"]


class IndicoSystem:
    """``login_flow`` is Indico's local login form unless a site needs another (SSO)."""

    kind = "indico"

    def __init__(
        self,
        url: str,
        *,
        retry: RetryPolicy | None = None,
        login_flow: LoginFlow = login,
        timeout_s: float = 30,
    ) -> None:
        self.url = url.rstrip("/")
        self._retry = retry
        self._login_flow = login_flow
        self._timeout_s = timeout_s

    def __repr__(self) -> str:
        return f"IndicoSystem({self.url!r})"

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> IndicoSession:
        return IndicoSession(
            context,
            base_url=self.url,
            username=username,
            password=password,
            login_flow=self._login_flow,
            retry=self._retry,
            on_retry=on_retry,
            timeout_s=self._timeout_s,
        )
