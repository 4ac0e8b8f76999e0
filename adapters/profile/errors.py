"""What the profile adapter raises beyond the port's errors.

UnexpectedPage (core.booking.errors)
└── ProfileMismatch   the page does not match the profile: names the profile line,
                      the locators tried and what the page showed instead
"""

from __future__ import annotations

from core.booking.errors import UnexpectedPage
from core.booking.models import PageSummary

__all__ = ["ProfileMismatch"]


class ProfileMismatch(UnexpectedPage):
    """A step found nothing the profile describes: ``where`` is «file:line», ``tried``
    the locators in the order they were tried."""

    def __init__(self, what: str, *, where: str, tried: str, summary: PageSummary) -> None:
        super().__init__(
            f"{what} ({where}: {tried})",
            summary,
            hint="сайт изменился или профиль сайта неверен; проверьте его: clubman site check",
        )
        self.what = what
        self.where = where
        self.tried = tried
