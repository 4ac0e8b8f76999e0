"""``clubman run`` as a pre-forking supervisor: a crashed bot is back in well under a second.

Almost all of a cold start is Python importing the stack (aiogram alone builds the
pydantic schemas of ~450 Telegram types at import: about 3 s of CPU here; opening
storage, the core and polling is ~0.4 s). The supervisor imports everything once and
forks the bot as a worker; when the worker dies (a crash, the OOM killer, a SIGKILL) a new
one is forked from the already-imported supervisor and only the cheap part is redone.
Its runs resume and its chat locks are taken over at once (``storage.liveness``).

- SIGTERM / SIGINT to the supervisor stop the worker (SIGTERM: it finishes its update,
  closes storage) and then the supervisor, with the worker's exit code.
- A worker that exits 0 stopped on purpose; one that exits ``EXIT_CONFIG`` cannot work
  with this configuration: neither is restarted.
- A worker that keeps dying right after start is restarted with a growing pause
  (1, 2, 4 … 30 s), so a crash loop does not spin the CPU or hammer the services.
- The worker gets ``PR_SET_PDEATHSIG``: if the supervisor is SIGKILLed, its worker goes too.

Nothing before the fork may start a thread or an event loop: a forked child keeps only
the forking thread, so the supervisor only imports.
"""

from __future__ import annotations

import os
import signal
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from types import FrameType

import structlog

from storage.process import die_with_parent

__all__ = ["EXIT_CONFIG", "CrashLoop", "supervise"]

log = structlog.get_logger("clubman.supervisor")

EXIT_CONFIG = 2  # the worker cannot run with this configuration: restarting cannot help
_STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


@dataclass
class CrashLoop:
    """How long to wait before the next start: nothing after a worker that ran a while;
    1, 2, 4 … ``longest`` s while workers keep dying within ``quick`` s of their start."""

    quick: float = 5.0
    longest: float = 30.0
    _quick_deaths: int = field(default=0, init=False)

    def pause_after(self, ran: float) -> float:
        self._quick_deaths = self._quick_deaths + 1 if ran < self.quick else 0
        if self._quick_deaths < 2:  # one early death is a kill, not a loop
            return 0.0
        return min(2.0 ** (self._quick_deaths - 2), self.longest)


def _run_worker(work: Callable[[], int]) -> int:  # pragma: no cover - runs in the child
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the supervisor's handlers are not ours
    signal.signal(signal.SIGINT, signal.default_int_handler)
    die_with_parent()
    try:
        return work()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    except BaseException:
        traceback.print_exc()
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()


def _fork(work: Callable[[], int]) -> int:
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child never returns from here
        os._exit(_run_worker(work))
    return pid


def supervise(
    work: Callable[[], int],
    *,
    crash_loop: CrashLoop | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Run ``work`` in a forked worker until it exits on purpose or we are told to stop;
    return the exit code to exit with."""
    pauses = crash_loop or CrashLoop()
    worker = 0
    stopping = False

    def stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True
        if worker:
            os.kill(worker, signal.SIGTERM)

    previous = {signum: signal.signal(signum, stop) for signum in _STOP_SIGNALS}
    try:
        while True:
            started = clock()
            worker = _fork(work)
            if stopping:  # told to stop before it had a pid to pass on
                os.kill(worker, signal.SIGTERM)
            log.info("supervisor.worker_started", pid=worker)
            _, status = os.waitpid(worker, 0)  # retried after our handler (PEP 475)
            worker = 0
            code = os.waitstatus_to_exitcode(status)
            if stopping or code in (0, EXIT_CONFIG):
                return max(code, 0)
            pause = pauses.pause_after(clock() - started)
            # A negative code is the signal that killed it.
            log.warning("supervisor.worker_died", code=code, restart_in=pause)
            deadline = clock() + pause
            while not stopping and clock() < deadline:
                time.sleep(min(0.1, deadline - clock()))
            if stopping:
                return 0
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
