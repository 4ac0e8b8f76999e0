"""What a user sets in /settings: language, time zone and reminders, on their record."""

from __future__ import annotations

from pydantic import BaseModel

from core.commands import Lang, as_lang
from core.language import known_language, written_in
from core.store import UserProfile, UserStore
from core.zones import canonical_zone

__all__ = ["UserSettings", "UserSettingsView"]


class UserSettingsView(BaseModel):
    language: Lang
    timezone: str
    reminders: bool  # «напоминать за 1 час»


class UserSettings:
    def __init__(self, users: UserStore, *, default_timezone: str) -> None:
        self._users = users
        self._default_tz = default_timezone

    async def view(self, user_id: int) -> UserSettingsView:
        user = await self._users.get_or_create(user_id)
        return UserSettingsView(
            language=as_lang(user.language),
            timezone=user.timezone or self._default_tz,
            reminders=user.reminders,
        )

    async def language(
        self, user_id: int, *, client: Lang | None, name: str = "", text: str = ""
    ) -> Lang:
        """The language a user is answered in (``core.language``). A new user's is the one
        ``text``, their first message, is written in, else their client's: created so, it
        needs no second write to be learnt."""
        written = written_in(text)
        profile = await self._users.profile(
            user_id, name=name, language=written or client or "ru", learned=written is not None
        )
        return known_language(profile, client=client)

    async def learn_language(self, known: UserProfile, lang: Lang) -> None:
        """What the user wrote teaches their language (``core.language.learnt_language``):
        kept unless they chose one in /settings. ``known``: their profile as last read."""
        await self._users.learn_language(known, lang)

    async def set_language(self, user_id: int, lang: Lang, *, chosen: bool = True) -> None:
        """``chosen``: picked in /settings, so what they write no longer changes it; else
        learnt from what they wrote."""
        user = await self._users.get_or_create(user_id)
        user.language = lang
        user.language_chosen = user.language_chosen or chosen
        user.language_learned = True
        await self._users.save(user)

    async def set_timezone(self, user_id: int, tz: str) -> str | None:
        """Store the canonical zone ``tz`` names (``core.zones``) and return it; ``None``,
        storing nothing, for anything else (a forged button's «posixrules» too)."""
        zone = canonical_zone(tz)
        if zone is None:
            return None
        user = await self._users.get_or_create(user_id)
        user.timezone = zone
        await self._users.save(user)
        return zone

    async def set_reminders(self, user_id: int, on: bool) -> None:
        user = await self._users.get_or_create(user_id)
        user.reminders = on
        await self._users.save(user)
