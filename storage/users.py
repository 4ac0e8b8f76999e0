"""Users and the preference facts learned from their history."""

from __future__ import annotations

from core.errors import DuplicateKey
from storage.documents import Preference, User, utcnow
from storage.errors import translate_errors

__all__ = ["PreferenceRepository", "UserRepository"]


class UserRepository:
    async def get(self, telegram_id: int) -> User | None:
        with translate_errors(f"loading user {telegram_id}"):
            return await User.find_one(User.telegram_id == telegram_id)

    async def get_or_create(
        self, telegram_id: int, *, name: str = "", language: str = "ru"
    ) -> User:
        user = await self.get(telegram_id)
        if user is not None:
            return user
        try:
            with translate_errors(f"creating user {telegram_id}"):
                await User(telegram_id=telegram_id, name=name, language=language).insert()
        except DuplicateKey:
            pass  # created by a concurrent first message: read theirs
        found = await self.get(telegram_id)
        assert found is not None  # inserted by us or by the racer
        return found

    async def save(self, user: User) -> User:
        with translate_errors(f"saving user {user.telegram_id}"):
            await user.save()
        return user


class PreferenceRepository:
    async def bump(self, user_id: int, key: str, value: str) -> None:
        """Count one more use of ``value`` for ``key`` (e.g. building=chaikovsky)."""
        # Two concurrent first uses can both try to insert: the loser retries as an update.
        for attempt in range(2):
            try:
                with translate_errors(f"storing preference {key} of user {user_id}"):
                    await Preference.find_one(
                        Preference.user_id == user_id,
                        Preference.key == key,
                        Preference.value == value,
                    ).upsert(
                        {"$inc": {"uses": 1}, "$set": {"updated_at": utcnow()}},
                        on_insert=Preference(user_id=user_id, key=key, value=value),
                    )
                return
            except DuplicateKey:
                if attempt:
                    raise

    async def ranked(self, user_id: int, key: str) -> list[str]:
        """Values of ``key`` the user chose, most used first (latest breaks ties)."""
        with translate_errors(f"loading preferences {key} of user {user_id}"):
            found = await (
                Preference.find(Preference.user_id == user_id, Preference.key == key)
                .sort("-uses", "-updated_at")
                .to_list()
            )
        return [pref.value for pref in found]
