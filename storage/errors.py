"""Translation of driver errors (pymongo, Beanie, redis) into the project's errors."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager

import redis.exceptions
from beanie.exceptions import RevisionIdWasChanged
from pymongo import errors as mongo_errors

from core.errors import ConcurrencyError, DuplicateKey, StorageError, StorageUnavailable

__all__ = ["translate_errors"]


def _cancel_behind(exc: BaseException) -> None:
    """A cancel that tears a driver's connection down can come out as a lost connection.
    While the task is being cancelled that error is the cancel, not an outage: a loop that
    retried on it would never end, and neither would whoever waits for the loop."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no event loop: a synchronous caller
        return
    if task is not None and task.cancelling():
        raise asyncio.CancelledError from exc


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
        _cancel_behind(exc)
        raise StorageUnavailable(
            f"{what}: MongoDB is unreachable", hint="check MONGODB_URI and that the server runs"
        ) from exc
    except mongo_errors.DuplicateKeyError as exc:
        raise DuplicateKey(f"{what}: a document with the same key already exists") from exc
    except mongo_errors.PyMongoError as exc:
        raise StorageError(f"{what}: database error ({type(exc).__name__})") from exc
    except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError) as exc:
        _cancel_behind(exc)
        raise StorageUnavailable(
            f"{what}: Redis is unreachable", hint="check REDIS_URL and that redis-server runs"
        ) from exc
    except redis.exceptions.RedisError as exc:
        raise StorageError(f"{what}: Redis error ({type(exc).__name__})") from exc
