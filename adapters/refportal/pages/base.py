"""Where a navigation ended: error page, login page, the rules notice, or the page we wanted."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.async_api import Page, Response

from core.browser.retry import Bounced, Transient
from core.browser.summary import summarize
from core.site.errors import UnexpectedPage

__all__ = ["LOGIN_PATH", "NOTICE_PATH", "alert_text", "land", "path_of"]

LOGIN_PATH = "/login"
NOTICE_PATH = "/notice"
NOTICE_HEADING = "Правила бронирования изменились"


def path_of(page: Page) -> str:
    return urlsplit(page.url).path


async def alert_text(page: Page) -> str:
    """The text of the page's first visible alert, or ''."""
    alerts = page.get_by_role("alert")
    if await alerts.count() == 0:
        return ""
    return " ".join((await alerts.first.inner_text()).split())


async def land(page: Page, response: Response | None, *, login_ok: bool = False) -> int:
    """Check the page a navigation ended on and return its HTTP status.

    5xx → ``Transient``; the login page (unless ``login_ok``) → ``Bounced``; the
    rules notice → ``UnexpectedPage`` with the page's summary.
    """
    status = response.status if response is not None else 200
    if status >= 500:
        raise Transient(f"HTTP {status} at {path_of(page)}")
    path = path_of(page)
    if path == LOGIN_PATH and not login_ok:
        raise Bounced()
    if path == NOTICE_PATH:
        raise UnexpectedPage(
            f"Портал показал страницу «{NOTICE_HEADING}»",
            await summarize(page),
            hint="отметьте, что ознакомились с правилами, и нажмите «Продолжить»",
        )
    return status
