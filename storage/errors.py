"""Translation of driver errors (pymongo, Beanie, redis) into the project's errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import redis.exceptions
from beanie.exceptions import RevisionIdWasChanged
from pymongo import errors as mongo_errors

from core.errors import ConcurrencyError, DuplicateKey, StorageError, StorageUnavailable

__all__ = ["translate_errors"]


@contextmanager
def translate_errors(what: str) -> Iterator[None]:
    """Re-raise driver errors from ``what`` (e.g. "saving run abc") as ``StorageError``s."""
    try:
        yield
    except RevisionIdWasChanged as exc:
        raise ConcurrencyError(
            f"{what}: the document was changed by someone else",
            hint="reload it and apply the change again",
        ) from exc
    except (mongo_errors.ServerSelectionTimeoutError, mongo_errors.ConnectionFailure) as exc:
        raise StorageUnavailable(
            f"{what}: MongoDB is unreachable", hint="check MONGODB_URI and that the server runs"
        ) from exc
    except mongo_errors.DuplicateKeyError as exc:
        raise DuplicateKey(f"{what}: a document with the same key already exists") from exc
    except mongo_errors.PyMongoError as exc:
        raise StorageError(f"{what}: database error ({type(exc).__name__})") from exc
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        raise StorageUnavailable(
            f"{what}: Redis is unreachable", hint="check REDIS_URL and that redis-server runs"
        ) from exc
    except redis.exceptions.RedisError as exc:
        raise StorageError(f"{what}: Redis error ({type(exc).__name__})") from exc
