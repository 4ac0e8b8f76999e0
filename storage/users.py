"""Users and the preference facts learned from their history."""

from __future__ import annotations

from core.errors import DuplicateKey
from core.store.records import User, UserProfile, utcnow
from storage.documents import PreferenceDocument, UserDocument, stored
from storage.errors import translate_errors
from storage.pins import Pins
from storage.profiles import ProfileLoader
from storage.redis_client import RedisClient

__all__ = ["PreferenceRepository", "UserRepository"]

# The cached profile is replaced only if it is still the one the change was made to; any
# other (a save dropped it, a newer read cached another) is dropped for a fresh read.
_SWAP = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('SET', KEYS[1], ARGV[2], 'KEEPTTL')
end
return redis.call('DEL', KEYS[1])
"""


class UserRepository:
    """``core.store.UserStore``: users in MongoDB; their profiles also cached in Redis
    for the per-message read.

    ``save`` drops the cached profile after writing, so every process sees a change on
    its next read; the TTL bounds how long a profile cached by a read racing with a
    save can stay stale.

    A user can be pinned while this process holds their private chat's lease: the
    profile is then also kept in memory until ``unpin``. A save here drops that copy;
    a save by another process in the meantime (the user acting in a group chat another
    process serves) is seen once the lease ends.
    """

    def __init__(self, redis: RedisClient, *, prefix: str, profile_ttl: int = 600) -> None:
        self._redis = redis
        self._prefix = prefix
        self._ttl = profile_ttl
        self._pins: Pins[int, UserProfile] = Pins()
        self._swap = redis.register_script(_SWAP)
        self._loader = ProfileLoader()

    def pin(self, telegram_id: int) -> None:
        self._pins.pin(telegram_id)

    def unpin(self, telegram_id: int) -> None:
        self._pins.unpin(telegram_id)

    def _profile_key(self, telegram_id: int) -> str:
        return f"{self._prefix}{telegram_id}"

    async def profile(
        self, telegram_id: int, *, name: str = "", language: str = "ru", learned: bool = False
    ) -> UserProfile:
        """The user's profile, creating the user on their first message."""
        kept = self._pins.get(telegram_id)
        if kept is not None:
            return kept
        token = self._pins.token(telegram_id)
        profile = await self._read_profile(
            telegram_id, name=name, language=language, learned=learned
        )
        self._pins.keep(telegram_id, token, profile)
        return profile

    async def _read_profile(
        self, telegram_id: int, *, name: str, language: str, learned: bool
    ) -> UserProfile:
        key = self._profile_key(telegram_id)
        with translate_errors(f"reading the profile of user {telegram_id}"):
            cached = await self._redis.get(key)
        if cached is not None:
            return UserProfile.model_validate_json(cached)
        profile = await self._upsert_profile(
            telegram_id, name=name, language=language, learned=learned
        )
        with translate_errors(f"caching the profile of user {telegram_id}"):
            await self._redis.set(key, profile.model_dump_json(), ex=self._ttl)
        return profile

    async def _upsert_profile(
        self, telegram_id: int, *, name: str, language: str, learned: bool
    ) -> UserProfile:
        """The stored user's profile, the user created first if new (``ProfileLoader``)."""
        row = UserDocument(
            telegram_id=telegram_id, name=name, language=language, language_learned=learned
        ).model_dump(exclude={"id", "revision_id"})
        return await self._loader.load(row)

    async def learn_language(
        self, known: UserProfile, language: str, *, chosen: bool = False
    ) -> UserProfile:
        """Keep ``language`` for the user ``known`` is the profile of (learnt from what they
        wrote, or ``chosen``); the profile after it. One write, no document read: this
        runs on a new user's first message. The cached profile becomes the new one only
        if it still is ``known``; otherwise it is dropped like after ``save``."""
        changes = {
            "language": language,
            "language_learned": True,
            "language_chosen": known.language_chosen or chosen,
        }
        after = known.model_copy(update=changes)
        self._pins.wrote(known.telegram_id, lambda kept: kept.model_copy(update=changes))
        key = self._profile_key(known.telegram_id)
        with translate_errors(f"saving the language of user {known.telegram_id}"):
            await UserDocument.get_pymongo_collection().update_one(
                {"telegram_id": known.telegram_id}, {"$set": changes}
            )
            await self._swap(keys=[key], args=[known.model_dump_json(), after.model_dump_json()])
        return after

    async def get(self, telegram_id: int) -> UserDocument | None:
        with translate_errors(f"loading user {telegram_id}"):
            return await UserDocument.find_one(UserDocument.telegram_id == telegram_id)

    async def get_or_create(
        self, telegram_id: int, *, name: str = "", language: str = "ru"
    ) -> UserDocument:
        user = await self.get(telegram_id)
        if user is not None:
            return user
        try:
            with translate_errors(f"creating user {telegram_id}"):
                await UserDocument(telegram_id=telegram_id, name=name, language=language).insert()
        except DuplicateKey:
            pass  # created by a concurrent first message: read theirs
        found = await self.get(telegram_id)
        assert found is not None  # inserted by us or by the racer
        return found

    async def save(self, user: User) -> UserDocument:
        document = stored(user, UserDocument, f"user {user.telegram_id}")
        # Before and after: a read in between may still get the old cached profile.
        self._pins.wrote(user.telegram_id)
        with translate_errors(f"saving user {user.telegram_id}"):
            await document.save()
            await self._redis.delete(self._profile_key(user.telegram_id))
        self._pins.wrote(user.telegram_id)
        return document


class PreferenceRepository:
    async def bump(self, user_id: int, key: str, value: str) -> None:
        """Count one more use of ``value`` for ``key`` (e.g. building=chaikovsky)."""
        # Two concurrent first uses can both try to insert: the loser retries as an update.
        for attempt in range(2):
            try:
                with translate_errors(f"storing preference {key} of user {user_id}"):
                    await PreferenceDocument.find_one(
                        PreferenceDocument.user_id == user_id,
                        PreferenceDocument.key == key,
                        PreferenceDocument.value == value,
                    ).upsert(
                        {"$inc": {"uses": 1}, "$set": {"updated_at": utcnow()}},
                        on_insert=PreferenceDocument(user_id=user_id, key=key, value=value),
                    )
                return
            except DuplicateKey:
                if attempt:
                    raise

    async def ranked(self, user_id: int, key: str) -> list[str]:
        """Values of ``key`` the user chose, most used first (latest breaks ties)."""
        with translate_errors(f"loading preferences {key} of user {user_id}"):
            found = await (
                PreferenceDocument.find(
                    PreferenceDocument.user_id == user_id, PreferenceDocument.key == key
                )
                .sort("-uses", "-updated_at")
                .to_list()
            )
        return [pref.value for pref in found]
