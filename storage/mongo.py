"""The one place that connects to MongoDB (or SecantusDB) and initialises Beanie."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from beanie import init_beanie
from pymongo import AsyncMongoClient
from pymongo import errors as mongo_errors
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.uri_parser import parse_uri

from core.errors import ConfigError, StorageUnavailable
from storage.documents import ALL_DOCUMENTS

__all__ = ["DEFAULT_DB_NAME", "open_mongo"]

DEFAULT_DB_NAME = "clubman"
# Indexes earlier versions created and nothing reads any more; every insert still paid
# for them, so they are dropped where found.
_RETIRED_INDEXES = {"events": ("run_id_1_at_1", "kind_1_at_1")}


def _database_name(uri: str) -> str:
    try:
        parsed = parse_uri(uri)
    except (mongo_errors.InvalidURI, mongo_errors.ConfigurationError, ValueError) as exc:
        raise ConfigError(
            "MONGODB_URI is malformed", hint="use mongodb://user:pass@host:27017/clubman"
        ) from exc
    return parsed.get("database") or DEFAULT_DB_NAME


@asynccontextmanager
async def open_mongo(
    uri: str, *, db_name: str | None = None, timeout_ms: int = 5000
) -> AsyncIterator[AsyncMongoClient[dict[str, object]]]:
    """Connect, check the server answers, create indexes; close on exit."""
    name = db_name or _database_name(uri)
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(
        uri, tz_aware=True, serverSelectionTimeoutMS=timeout_ms, connectTimeoutMS=timeout_ms
    )
    try:
        try:
            await client.admin.command("ping")
            await init_beanie(database=client[name], document_models=ALL_DOCUMENTS)
            await _drop_retired_indexes(client[name])
        except mongo_errors.PyMongoError as exc:
            host = ",".join(f"{h}:{p}" for h, p in parse_uri(uri)["nodelist"])
            raise StorageUnavailable(
                f"cannot reach MongoDB at {host} ({type(exc).__name__})",
                hint="start the server or fix MONGODB_URI; unset it to use the local SecantusDB",
            ) from exc
        yield client
    finally:
        await client.close()


async def _drop_retired_indexes(database: AsyncDatabase[dict[str, object]]) -> None:
    for collection, names in _RETIRED_INDEXES.items():
        present = await database[collection].index_information()
        for name in names:
            if name in present:
                await database[collection].drop_index(name)
