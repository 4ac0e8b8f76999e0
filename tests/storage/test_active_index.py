"""The Redis index of active runs and the cached user profiles stay true to MongoDB."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.store import RunStatus, UserProfile
from core.user_settings import UserSettings
from storage import ScenarioRunDocument, Storage, UserDocument
from storage import profiles as profiles_module


def _run(chat_id: int, **fields: object) -> ScenarioRunDocument:
    return ScenarioRunDocument(chat_id=chat_id, user_id=chat_id, scenario="book_rooms", **fields)


async def _ids(storage: Storage, chat_id: int) -> list[str]:
    return [r.short_id for r in await storage.runs.active_for_chat(chat_id)]


async def test_runs_enter_and_leave_the_index_with_their_status(storage: Storage) -> None:
    first = await storage.runs.create(_run(7))
    second = await storage.runs.create(_run(7, status=RunStatus.RUNNING))
    await storage.runs.create(_run(8))
    assert await _ids(storage, 7) == [first.short_id, second.short_id]
    first.status = RunStatus.DONE
    await storage.runs.save(first)
    assert await _ids(storage, 7) == [second.short_id]
    assert await _ids(storage, 9) == []


async def test_a_lost_index_is_rebuilt_from_mongodb(storage: Storage) -> None:
    waiting = await storage.runs.create(_run(7, status=RunStatus.WAITING))
    await storage.redis.flushdb()  # Redis restarted without persistence
    assert await _ids(storage, 7) == [waiting.short_id]
    await storage.runs.create(_run(8))
    assert len(await _ids(storage, 8)) == 1
    assert await _ids(storage, 7) == [waiting.short_id]  # rebuilt, not just this chat


async def test_chats_finding_the_index_lost_together_rebuild_it_once(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    waiting = await storage.runs.create(_run(7, status=RunStatus.WAITING))
    await storage.redis.flushdb()
    rebuilds: list[None] = []
    rebuild = storage.runs.rebuild_index

    async def counted() -> None:
        rebuilds.append(None)
        await rebuild()

    monkeypatch.setattr(storage.runs, "rebuild_index", counted)
    found = await asyncio.gather(*(_ids(storage, chat) for chat in (7, *range(100, 120))))
    assert found == [[waiting.short_id]] + [[]] * 20
    assert len(rebuilds) == 1


async def test_an_id_left_by_a_crash_between_the_writes_is_dropped(storage: Storage) -> None:
    run = await storage.runs.create(_run(7))
    assert await _ids(storage, 7) == [run.short_id]
    run.status = RunStatus.CANCELLED
    await ScenarioRunDocument.replace(run)  # stored finished; the process died before unindexing
    assert await _ids(storage, 7) == []
    keys = [k async for k in storage.redis.scan_iter(match="*active:7")]
    assert keys == [] or await storage.redis.smembers(keys[0]) == set()


async def test_a_run_indexed_but_not_yet_stored_keeps_its_id(storage: Storage) -> None:
    stored = await storage.runs.create(_run(7))
    pending = _run(7)
    index = storage.runs._index  # the creation below is cut between its two writes
    await index.add(7, pending.short_id)
    assert await _ids(storage, 7) == [stored.short_id]
    await pending.insert()
    assert await _ids(storage, 7) == [stored.short_id, pending.short_id]


async def test_profile_follows_saved_changes(storage: Storage) -> None:
    profile = await storage.users.profile(42, name="Анна", language="ru")
    assert (profile.name, profile.language, profile.timezone) == ("Анна", "ru", None)
    user = await storage.users.get(42)
    assert user is not None
    user.language, user.timezone = "en", "Asia/Tokyo"
    await storage.users.save(user)
    again = await storage.users.profile(42)
    assert (again.language, again.timezone) == ("en", "Asia/Tokyo")


async def test_profile_holds_no_credentials(storage: Storage) -> None:
    user = await storage.users.get_or_create(43)
    user.portal_username, user.portal_password_encrypted = "club", b"gAAAA-secret"
    await storage.users.save(user)
    await storage.users.profile(43)
    keys = [k async for k in storage.redis.scan_iter(match="*user:43")]
    cached = [str(await storage.redis.get(k)) for k in keys]
    assert cached and all("secret" not in value and "club" not in value for value in cached)


async def test_first_messages_racing_create_one_user(storage: Storage) -> None:
    profiles = await asyncio.gather(
        *(storage.users.profile(44, name="Борис", language="ru") for _ in range(10))
    )
    assert {p.name for p in profiles} == {"Борис"}
    assert len(await UserDocument.find(UserDocument.telegram_id == 44).to_list()) == 1


async def test_a_run_added_during_a_pinned_read_is_not_lost(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    await storage.runs.rebuild_index()  # the fixture flushed Redis
    index = storage.runs._index
    index.pin(7)
    original = index._members
    late = _run(7)

    async def read_then_add(**kwargs: Any) -> Any:
        found = await original(**kwargs)  # the reply predates the add below
        await storage.runs.create(late)
        return found

    monkeypatch.setattr(index, "_members", read_then_add)
    assert await _ids(storage, 7) == []
    monkeypatch.setattr(index, "_members", original)
    assert await _ids(storage, 7) == [late.short_id]
    await storage.redis.flushdb()  # now it is held in memory: the next read needs no Redis
    assert await _ids(storage, 7) == [late.short_id]
    index.unpin(7)


async def test_a_save_during_a_pinned_profile_read_is_not_hidden(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    users = storage.users
    await users.profile(45, name="Вера")
    users.pin(45)
    original = users._read_profile

    async def read_then_save(telegram_id: int, **kwargs: Any) -> Any:
        found = await original(telegram_id, **kwargs)  # the old profile
        user = await users.get(telegram_id)
        assert user is not None
        user.timezone = "Asia/Tokyo"
        await users.save(user)
        return found

    monkeypatch.setattr(users, "_read_profile", read_then_save)
    assert (await users.profile(45)).timezone is None
    monkeypatch.setattr(users, "_read_profile", original)
    assert (await users.profile(45)).timezone == "Asia/Tokyo"
    users.unpin(45)


async def test_a_returning_users_expired_profile_is_read_not_recreated(storage: Storage) -> None:
    await storage.users.profile(46, name="Глеб", language="ru")
    user = await storage.users.get(46)
    assert user is not None
    user.timezone = "Asia/Yekaterinburg"
    await storage.users.save(user)
    await storage.redis.flushdb()  # the cached profile expired
    again = await storage.users.profile(46, name="Gleb", language="en")
    assert (again.name, again.language, again.timezone) == ("Глеб", "ru", "Asia/Yekaterinburg")
    assert len(await UserDocument.find(UserDocument.telegram_id == 46).to_list()) == 1


async def test_a_learnt_language_is_stored_and_cached_at_once(storage: Storage) -> None:
    known = await storage.users.profile(47, name="Дина", language="en")
    after = await storage.users.learn_language(known, "ru")
    assert (after.language, after.language_learned, after.language_chosen) == ("ru", True, False)
    cached = await storage.redis.get(storage.users._profile_key(47))
    assert cached is not None and UserProfile.model_validate_json(cached) == after
    stored = await storage.users.get(47)
    assert stored is not None and (stored.language, stored.language_learned) == ("ru", True)
    assert await storage.users.profile(47) == after


async def test_a_learnt_language_drops_a_cached_profile_that_changed_meanwhile(
    storage: Storage,
) -> None:
    known = await storage.users.profile(48, name="Ефим", language="ru")
    user = await storage.users.get(48)
    assert user is not None
    user.timezone = "Asia/Tokyo"
    await storage.users.save(user)  # another writer: the cache no longer holds ``known``
    await storage.users.profile(48)  # and a fresh read cached the new profile
    await storage.users.learn_language(known, "en")
    again = await storage.users.profile(48)  # read afresh, not ``known`` patched
    assert (again.language, again.timezone, again.language_learned) == ("en", "Asia/Tokyo", True)


async def test_a_new_user_is_created_in_the_language_of_their_first_message(
    storage: Storage,
) -> None:
    """One insert, no learning write after it: the language sticks from the first word."""
    settings = UserSettings(storage.users, default_timezone="Europe/Moscow")
    assert await settings.language(49, client="ru", name="Jane", text="book room 301") == "en"
    created = await storage.users.get(49)
    assert created is not None and (created.language, created.language_learned) == ("en", True)
    # A command says nothing of the language: a new user is their client's, not learnt.
    assert await settings.language(50, client="en", name="Ян", text="/start") == "en"
    unlearnt = await storage.users.get(50)
    assert unlearnt is not None and not unlearnt.language_learned


async def test_profiles_missing_from_the_cache_are_loaded_together(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """New users are created as their first message says; a returning user keeps what is
    stored; one bulk write and one read for all of them, the same user asked twice once."""
    await storage.users.profile(60, name="Старый", language="ru")
    returning = await storage.users.get(60)
    assert returning is not None
    returning.timezone = "Asia/Tokyo"
    await storage.users.save(returning)
    await storage.redis.flushdb()  # every cached profile expired
    batches: list[int] = []
    upsert_all = profiles_module._upsert_all

    async def counted(rows: list[dict[str, Any]]) -> dict[int, UserProfile]:
        batches.append(len(rows))
        return await upsert_all(rows)

    monkeypatch.setattr(profiles_module, "_upsert_all", counted)
    loaded = await asyncio.gather(
        storage.users.profile(60, name="Other", language="en"),
        *(storage.users.profile(61 + n, name=f"Новый {n}", language="en") for n in range(20)),
        storage.users.profile(61, name="Again", language="ru"),
    )
    assert batches == [21]
    assert (loaded[0].name, loaded[0].language, loaded[0].timezone) == (
        "Старый",
        "ru",
        "Asia/Tokyo",
    )
    assert [p.name for p in loaded[1:21]] == [f"Новый {n}" for n in range(20)]
    assert loaded[21] == loaded[1]
    assert len(await UserDocument.find(UserDocument.telegram_id == 61).to_list()) == 1
    stored = await storage.users.get(80)
    assert stored is not None and (stored.name, stored.language) == ("Новый 19", "en")
