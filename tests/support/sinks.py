"""An output sink that records what the core says, with waiting helpers."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

from core.output import Output, Receipt, receipted

__all__ = ["CollectingSink"]

OutputT = TypeVar("OutputT", bound=Output)


class CollectingSink:
    def __init__(self) -> None:
        self.outputs: list[Output] = []
        self._changed = asyncio.Condition()

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        async with receipted(receipt) as show, self._changed:
            if show:
                self.outputs.append(output)
                self._changed.notify_all()

    async def wait_for(
        self,
        kind: type[OutputT],
        predicate: Callable[[OutputT], bool] = lambda _: True,
        *,
        timeout: float = 10.0,
        after: int = 0,
    ) -> OutputT:
        """The first ``kind`` output at index >= ``after`` that matches, waiting if needed."""

        def found() -> OutputT | None:
            return next(
                (o for o in self.outputs[after:] if isinstance(o, kind) and predicate(o)), None
            )

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: found() is not None), timeout)
        result = found()
        assert result is not None
        return result

    def last(self, kind: type[OutputT]) -> OutputT:
        """The newest output, which must be a ``kind``."""
        output = self.outputs[-1]
        assert isinstance(output, kind), output
        return output

    def of_kind(self, kind: type[OutputT]) -> list[OutputT]:
        return [o for o in self.outputs if isinstance(o, kind)]
