"""``FileCache``: bytes by key in files under one folder, with a time to live.

For what must survive a restart even in the zero-config setup, where Redis is an
in-process fakeredis (the booking system's catalogue: a restart while the site is down
still knows its buildings)."""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from pathlib import Path

from core.errors import StorageError

__all__ = ["FileCache"]


class FileCache:
    def __init__(self, directory: Path) -> None:
        self._dir = directory

    def _path(self, key: str) -> Path:
        return self._dir / (hashlib.sha256(key.encode()).hexdigest()[:32] + ".bin")

    async def get(self, key: str) -> bytes | None:
        path = self._path(key)
        try:
            if path.stat().st_mtime < time.time():
                return None  # expired: the file's time is when it stops being valid
            return path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StorageError(f"cannot read the cache file {path}: {exc.strerror}") from exc

    async def set(self, key: str, value: bytes, ttl_seconds: int) -> None:
        path = self._path(key)
        try:
            self._dir.mkdir(parents=True, exist_ok=True)
            # Written aside and renamed, so a reader never sees half a file.
            fd, temporary = tempfile.mkstemp(dir=self._dir, prefix=".", suffix=".tmp")
            with os.fdopen(fd, "wb") as out:
                out.write(value)
            expires = time.time() + ttl_seconds
            os.utime(temporary, (expires, expires))
            os.replace(temporary, path)
        except OSError as exc:
            raise StorageError(f"cannot write the cache file {path}: {exc.strerror}") from exc
