"""``clubman doctor``: checks configuration, MongoDB, Redis and Chromium, and says how to fix."""

from __future__ import annotations

import asyncio
from pathlib import Path

from pydantic import BaseModel

from core.browser import find_chromium
from core.errors import ClubError
from core.settings import Settings
from core.store import OpenStore

__all__ = ["Check", "diagnose"]


class Check(BaseModel):
    name: str
    ok: bool
    detail: str
    fix: str | None = None


def _secret(value: object) -> str | None:
    getter = getattr(value, "get_secret_value", None)
    return getter() if getter else None


async def _storage_check(settings: Settings, open_storage: OpenStore) -> list[Check]:
    mongo_uri = _secret(settings.mongodb_uri)
    redis_url = _secret(settings.redis_url)
    try:
        async with open_storage(
            mongodb_uri=mongo_uri, redis_url=redis_url, data_dir=settings.data_dir, in_memory=True
        ):
            pass
    except ClubError as exc:
        return [Check(name="storage", ok=False, detail=exc.message, fix=exc.hint)]
    mongo = "MongoDB at MONGODB_URI" if mongo_uri else "local SecantusDB (no MONGODB_URI)"
    redis = "Redis at REDIS_URL" if redis_url else "in-process fakeredis (no REDIS_URL)"
    return [
        Check(name="mongodb", ok=True, detail=f"{mongo} answers"),
        Check(name="redis", ok=True, detail=f"{redis} answers"),
    ]


def _chromium_check(settings: Settings) -> Check:
    found = find_chromium(settings.browser.executable)
    if found:
        return Check(name="chromium", ok=True, detail=f"Chromium at {found}")
    if settings.browser.executable:
        return Check(
            name="chromium",
            ok=False,
            detail=f"BROWSER__EXECUTABLE={settings.browser.executable} does not exist",
            fix="point BROWSER__EXECUTABLE at a Chromium binary, or unset it",
        )
    if list((Path.home() / ".cache" / "ms-playwright").glob("chromium*")):
        return Check(name="chromium", ok=True, detail="Playwright's own Chromium")
    return Check(
        name="chromium",
        ok=False,
        detail="no Chromium found",
        fix="apt-get install chromium (or: playwright install chromium)",
    )


def _telegram_check(settings: Settings) -> Check:
    if settings.telegram.token is None:
        return Check(
            name="telegram",
            ok=True,
            detail="no TELEGRAM__TOKEN: the bot is off, `clubman chat` works in the terminal",
        )
    if not settings.telegram.allowed_users and not settings.telegram.allow_all:
        return Check(
            name="telegram",
            ok=False,
            detail="TELEGRAM__ALLOWED_USERS is empty",
            fix="list the Telegram user ids allowed to use the bot (or TELEGRAM__ALLOW_ALL=true)",
        )
    return Check(name="telegram", ok=True, detail="token set, allow list configured")


async def diagnose(settings: Settings, *, open_storage: OpenStore) -> list[Check]:
    """Every check; storage is checked by opening it with ``open_storage`` (the caller
    gives ``storage.open_storage``: the core never imports the storage package)."""
    checks = [Check(name="config", ok=True, detail="settings are valid")]
    checks.append(_telegram_check(settings))
    checks.extend(await _storage_check(settings, open_storage))
    checks.append(await asyncio.to_thread(_chromium_check, settings))
    return checks
