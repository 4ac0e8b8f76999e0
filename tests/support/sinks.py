"""An output sink that records what the core says, with waiting helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from core.output import Output

__all__ = ["CollectingSink"]


class CollectingSink:
    def __init__(self) -> None:
        self.outputs: list[Output] = []
        self._changed = asyncio.Condition()

    async def deliver(self, output: Output) -> None:
        async with self._changed:
            self.outputs.append(output)
            self._changed.notify_all()

    async def wait_for(
        self, predicate: Callable[[Output], bool], *, timeout: float = 10.0, after: int = 0
    ) -> Output:
        """The first output at index >= ``after`` that matches, waiting for it if needed."""

        def found() -> Output | None:
            return next((o for o in self.outputs[after:] if predicate(o)), None)

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: found() is not None), timeout)
        result = found()
        assert result is not None
        return result

    def of_kind(self, kind: str) -> list[Output]:
        return [o for o in self.outputs if o.kind == kind]
