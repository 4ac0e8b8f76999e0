"""The doctor checks storage by opening it with the opener it is given (no storage import)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, cast

from core.doctor import diagnose
from core.errors import StorageUnavailable
from core.settings import load_settings
from core.store import OpenStore, Store


def _opener(*, fails: bool, seen: list[dict[str, Any]]) -> OpenStore:
    @asynccontextmanager
    async def open_store(
        *, mongodb_uri: str | None, redis_url: str | None, data_dir: Path, in_memory: bool = False
    ) -> AsyncIterator[Store]:
        seen.append({"mongodb_uri": mongodb_uri, "redis_url": redis_url, "in_memory": in_memory})
        if fails:
            raise StorageUnavailable("cannot reach MongoDB at db:27017", hint="start it")
        yield cast(Store, object())  # the doctor only opens and closes it

    return open_store


async def test_storage_answering_passes(tmp_path: Path) -> None:
    seen: list[dict[str, Any]] = []
    settings = load_settings(data_dir=tmp_path)
    checks = await diagnose(settings, open_storage=_opener(fails=False, seen=seen))
    by_name = {c.name: c for c in checks}
    assert by_name["mongodb"].ok and "local SecantusDB" in by_name["mongodb"].detail
    assert by_name["redis"].ok
    assert seen == [{"mongodb_uri": None, "redis_url": None, "in_memory": True}]


async def test_storage_failing_says_how_to_fix(tmp_path: Path) -> None:
    settings = load_settings(data_dir=tmp_path)
    checks = await diagnose(settings, open_storage=_opener(fails=True, seen=[]))
    failed = next(c for c in checks if c.name == "storage")
    assert not failed.ok and failed.detail.startswith("cannot reach MongoDB")
    assert failed.fix == "start it"
