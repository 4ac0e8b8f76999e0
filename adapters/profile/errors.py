"""What the profile adapter raises beyond the port's errors.

UnexpectedPage (core.site.errors)
└── ProfileMismatch   the page does not match the profile: names the profile line,
                      the locators tried and what the page showed instead
"""

from __future__ import annotations

from core.site import PageSummary, UnexpectedPage

__all__ = ["ProfileMismatch"]


class ProfileMismatch(UnexpectedPage):
    """A step found nothing the profile describes: ``where`` is «file:line», ``tried``
    the locators in the order they were tried."""

    def __init__(self, what: str, *, where: str, tried: str, summary: PageSummary) -> None:
        # The user reads the message: what is missing, in words; the profile's line and
        # locators are for the operator (the log, ``clubman site check``).
        super().__init__(
            f"Сайт бронирования выглядит не так, как ожидалось: {what[:1].lower()}{what[1:]}",
            summary,
            hint="администратор клуба может проверить профиль сайта",
        )
        self.what = what
        self.where = where
        self.tried = tried
