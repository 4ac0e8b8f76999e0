"""A site's JSON answer with one thing changed, for tests of what an answer unlike the
profile's description gives."""

from __future__ import annotations

import copy
from typing import Any

__all__ = ["changed"]


def changed(answer: dict[str, Any], path: tuple[str | int, ...], new: Any) -> dict[str, Any]:
    """A copy of ``answer`` with the value at ``path`` set to ``new`` (None: removed)."""
    copied = copy.deepcopy(answer)
    where: Any = copied
    for step in path[:-1]:
        where = where[step]
    if new is None:
        del where[path[-1]]
    else:
        where[path[-1]] = new
    return copied
