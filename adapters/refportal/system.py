"""``RefPortal``: the reference portal as a booking system."""

from __future__ import annotations

from pathlib import Path

from adapters.refportal.session import PortalSession
from core.browser import BrowserContext
from core.browser.retry import RetryPolicy
from core.site.retry import OnRetry

__all__ = ["PROFILE", "RefPortal"]

# English names and the local words for the portal's buildings (the site has neither).
PROFILE = Path(__file__).with_name("profile.toml")


class RefPortal:
    kind = "refportal"

    def __init__(self, url: str, *, retry: RetryPolicy | None = None) -> None:
        self.url = url.rstrip("/")
        self._retry = retry

    def __repr__(self) -> str:
        return f"RefPortal({self.url!r})"

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> PortalSession:
        return PortalSession(
            context, base_url=self.url, username=username, password=password,
            retry=self._retry, on_retry=on_retry,
        )  # fmt: skip
