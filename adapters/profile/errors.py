"""What the profile adapter raises: its own errors under one base, and the port's.

    ClubError (core.errors)
    └── ProfileError        anything the profile adapter itself refuses
        ├── ProfileInvalid      a profile the interpreter cannot run: names «file:line»;
        │   │                   also a ``ConfigError`` (a bad profile is bad configuration)
        │   └── SlowPattern     a profile's regular expression ran past its time limit on
        │                       a site's text (``adapters.profile.patterns``)
        ├── TemplateError       a template it cannot take (``adapters.profile.template``);
        │                       met while a profile loads, so told as a ``ProfileInvalid``
        ├── DraftError          ``clubman learn``: the demonstration lacks what a part needs
        └── LearnStopped        ``clubman learn``: the operator stopped the demonstration

    UnexpectedPage (core.site.errors: the booking port's, for the scenario's brain)
    └── ProfileMismatch     the page does not match the profile: names the profile line,
        │                   the locators tried and what the page showed instead
        ├── ControlRenamed  the control found is named otherwise than the step names it, or
        │                   deletes or cancels: nothing was pressed
        └── SentElsewhere   a press sent a change where the profile's part may not: the
                            network guard stopped it, nothing was changed

Every other failure on a site is the port's own error (``core.site``'s, the booking
port's ``SlotTaken``/``BookingRejected``), raised as such.
"""

from __future__ import annotations

from core.errors import ClubError, ConfigError
from core.site import PageSummary, UnexpectedPage

__all__ = [
    "ControlRenamed",
    "DraftError",
    "LearnStopped",
    "ProfileError",
    "ProfileInvalid",
    "ProfileMismatch",
    "SentElsewhere",
    "SlowPattern",
    "TemplateError",
]


class ProfileError(ClubError):
    """Anything the profile adapter refuses of its own (not a site's failure)."""


class ProfileInvalid(ProfileError, ConfigError):
    """A profile the interpreter cannot run: ``where`` is «file:line»."""

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where}: {problem}")
        self.where = where
        self.problem = problem


class SlowPattern(ProfileInvalid):
    """A profile's regex took longer than its limit on a site's text: a profile fault
    (nested repeats backtracking), never a reading of the page. ``where`` names the
    regex, as the text it was run on has no line in the profile."""

    def __init__(self, pattern: str, *, seconds: float, length: int) -> None:
        shown = pattern if len(pattern) <= 80 else pattern[:79] + "…"
        super().__init__(
            f"the regular expression «{shown}»",
            f"took longer than {seconds:g} s on {length} characters of the site's text "
            "(nested repeats such as (a+)+ backtrack without end): rewrite it",
        )
        self.pattern = pattern
        self.hint = "администратор клуба может проверить профиль сайта"  # for the bot's user


class TemplateError(ProfileError):
    """A template the interpreter cannot take (unknown format, bad braces)."""


class DraftError(ProfileError):
    """The demonstration lacks what a part needs (the step is to be shown again)."""


class LearnStopped(ProfileError):
    """The operator stopped the demonstration (their input ended)."""


class ProfileMismatch(UnexpectedPage):
    """A step found nothing the profile describes: ``where`` is «file:line», ``path`` the
    part and its field («my_bookings.start»), ``tried`` the locators in the order they
    were tried."""

    def __init__(
        self, what: str, *, where: str, tried: str, summary: PageSummary, path: str = ""
    ) -> None:
        # The user reads the message: what is missing, in words; the profile's line and
        # locators are for the operator (the log, ``clubman site check``).
        super().__init__(
            f"Сайт бронирования выглядит не так, как ожидалось: {what[:1].lower()}{what[1:]}",
            summary,
            hint="администратор клуба может проверить профиль сайта",
        )
        self.what = what
        self.where = where
        self.path = path
        self.tried = tried
        part = f" ({path})" if path else ""
        self.for_admins = f"профиль {where}{part}: {what}" + (f"; искал: {tried}" if tried else "")


class ControlRenamed(ProfileMismatch):
    """What the profile's candidates found for a control is not it: ``said`` is its name
    on the page, ``names`` the step's (as the user reads them)."""

    def __init__(
        self, what: str, *, names: str, said: str, destructive: bool, where: str, tried: str,
        summary: PageSummary, path: str = "",
    ) -> None:  # fmt: skip
        if destructive:
            told = f"вместо {what} на странице «{said}», а это удаление или отмена"
        else:
            told = f"нет {what} {names}".rstrip() + f" (вместо этого на странице «{said}»)"
        super().__init__(
            f"{told}; ничего не нажато", where=where, tried=tried, summary=summary, path=path
        )
        self.said = said
        self.destructive = destructive


class SentElsewhere(ProfileMismatch):
    """Pressing ``what`` sent a change to an address the profile does not declare for
    its part (``blocked``: "POST http://…"); the network guard stopped it."""

    def __init__(
        self, what: str, *, blocked: tuple[str, ...], where: str, summary: PageSummary,
        where_part: str = "",
    ) -> None:  # fmt: skip
        super().__init__(
            f"нажатие {what} отправило изменение не туда, куда разрешает профиль "
            f"({', '.join(blocked)}); запрос остановлен, на сайте ничего не изменено",
            where=where,
            tried="",
            summary=summary,
            path=where_part,
        )
        self.blocked = blocked
