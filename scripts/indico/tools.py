"""One long-lived ``seed.py serve`` per test Indico, for the pokes tests make between runs.

Each ``seed.py`` process imports Indico and builds its app (~5 s); a test session books
someone else's rooms, cancels the club's bookings and registers people dozens of times.
Standard library only, like the rest of ``scripts/indico``.
"""

from __future__ import annotations

import json
import subprocess
import threading
from typing import Any

from scripts.indico.services import die_with_parent, stop
from scripts.indico.stack import HERE, IndicoStack

__all__ = ["IndicoTools"]


class IndicoTools:
    """Sends ``book``, ``cancel`` and ``register`` to one ``seed.py serve``, started on the
    first call and again if it died; thread-safe (tests call it through ``to_thread``)."""

    def __init__(self, stack: IndicoStack) -> None:
        self._stack = stack
        self._log = stack.workdir / "logs" / "tools.log"
        self._proc: subprocess.Popen[str] | None = None
        self._lock = threading.Lock()

    def call(self, command: str, spec: dict[str, Any]) -> Any:
        """The command's result; its failure (a refused booking, say) raises RuntimeError."""
        with self._lock:
            proc = self._running()
            assert proc.stdin is not None and proc.stdout is not None
            proc.stdin.write(json.dumps({"command": command, "spec": spec}) + "\n")
            proc.stdin.flush()
            line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"seed.py serve stopped; its output is in {self._log}")
        answer = json.loads(line)
        if "error" in answer:
            raise RuntimeError(f"seed.py {command} failed: {answer['error']}")
        return answer["result"]

    def close(self) -> None:
        with self._lock:
            if self._proc is not None:
                assert self._proc.stdin is not None
                self._proc.stdin.close()
                stop(self._proc)  # stdin closed: it ends on its own
                if self._proc.stdout is not None:
                    self._proc.stdout.close()
                self._proc = None

    def _running(self) -> subprocess.Popen[str]:
        if self._proc is None or self._proc.poll() is not None:
            with self._log.open("a") as log:
                self._proc = subprocess.Popen(
                    [str(self._stack.python), str(HERE / "seed.py"), "serve"],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=log,
                    text=True,
                    env=self._stack.env(),
                    start_new_session=True,
                    preexec_fn=die_with_parent,
                )
        return self._proc
