"""How ``make test`` splits the suite between its pytest-xdist workers.

A test file runs whole on one worker, so its module-scoped site and browser start once.
Every file that needs the test Indico runs on the same worker, so one Indico (~40 s to
start, with its PostgreSQL) serves the run. Files are handed out in collection order, not
by their number of tests: some of the longest files hold one or two tests (the Telegram
fuzz, the crash tests), and last in the queue they would leave one worker running alone.
"""

from __future__ import annotations

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadFileScheduling

__all__ = ["ByFileOneIndico"]

# Where the tests that use the session's `indico_server` live. A file elsewhere that uses it
# starts a second Indico on its worker: slower, still right.
_INDICO_TESTS = ("tests/adapters/indico/", "tests/indico/", "tests/test_benches.py")


class ByFileOneIndico(LoadFileScheduling):
    def __init__(self, config: pytest.Config, log: Producer | None = None) -> None:
        config.option.loadscopereorder = False
        super().__init__(config, log)

    def _split_scope(self, nodeid: str) -> str:
        """The unit handed to a worker (xdist's extension point for its file scheduler)."""
        if nodeid.startswith(_INDICO_TESTS):
            return "indico"
        return super()._split_scope(nodeid)
