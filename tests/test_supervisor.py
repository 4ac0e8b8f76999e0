"""``clubman run``'s supervisor: a dead worker is replaced, one that stops on purpose or
cannot run with its configuration is not, a stop signal stops both, and a crash loop
slows down. Real forks, in a child Python (never fork the test runner itself)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from app.supervisor import EXIT_CONFIG, CrashLoop

ROOT = Path(__file__).resolve().parent.parent


def test_one_early_death_restarts_at_once_and_a_crash_loop_slows_down() -> None:
    loop = CrashLoop(quick=5.0, longest=8.0)
    assert loop.pause_after(ran=1.0) == 0.0  # a kill soon after start is not a loop
    assert [loop.pause_after(ran=1.0) for _ in range(5)] == [1.0, 2.0, 4.0, 8.0, 8.0]
    assert loop.pause_after(ran=60.0) == 0.0  # it ran a while: the loop is over
    assert loop.pause_after(ran=1.0) == 0.0


def _supervisor(tmp_path: Path, worker_body: str) -> subprocess.Popen[str]:
    """A child Python supervising ``worker_body`` (the worker's code, run for each start;
    ``starts`` is the number of this start, counted in a file)."""
    script = textwrap.dedent(
        """
        import os, signal, sys, time
        from pathlib import Path
        from app.supervisor import EXIT_CONFIG, CrashLoop, supervise

        counter = Path(sys.argv[1])

        def work() -> int:
            starts = len(counter.read_text()) + 1 if counter.exists() else 1
            counter.write_text("x" * starts)
            Path(sys.argv[1] + ".pid").write_text(str(os.getpid()))
        {body}

        print("exit", supervise(work, crash_loop=CrashLoop(quick=0.0)), flush=True)
        """
    ).format(body=textwrap.indent(textwrap.dedent(worker_body), "    "))
    return subprocess.Popen(
        [sys.executable, "-c", script, str(tmp_path / "starts")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def _starts(tmp_path: Path) -> int:
    counter = tmp_path / "starts"
    return len(counter.read_text()) if counter.exists() else 0


def _finish(proc: subprocess.Popen[str]) -> str:
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    return out.strip().splitlines()[-1]  # after the default structlog lines


def test_a_killed_or_crashed_worker_is_replaced_until_it_stops_on_purpose(
    tmp_path: Path,
) -> None:
    proc = _supervisor(
        tmp_path,
        """
        if starts == 1:
            os.kill(os.getpid(), signal.SIGKILL)
        if starts == 2:
            raise RuntimeError("a bug")
        return 0
        """,
    )
    assert _finish(proc) == "exit 0"
    assert _starts(tmp_path) == 3


def test_a_worker_that_cannot_run_with_its_configuration_is_not_restarted(
    tmp_path: Path,
) -> None:
    proc = _supervisor(tmp_path, "return EXIT_CONFIG")
    assert _finish(proc) == f"exit {EXIT_CONFIG}"
    assert _starts(tmp_path) == 1


def _wait_for_worker(tmp_path: Path) -> int:
    pid_file = tmp_path / "starts.pid"
    for _ in range(500):
        if pid_file.exists() and pid_file.read_text():
            return int(pid_file.read_text())
        time.sleep(0.02)
    pytest.fail("the worker never started")


def _gone(pid: int) -> bool:
    for _ in range(500):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.02)
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stop_signal_stops_the_worker_and_then_the_supervisor(
    tmp_path: Path, signum: signal.Signals
) -> None:
    proc = _supervisor(tmp_path, "time.sleep(120)\nreturn 1")
    worker = _wait_for_worker(tmp_path)
    proc.send_signal(signum)
    assert _finish(proc) == "exit 0"
    assert _gone(worker)
    assert _starts(tmp_path) == 1  # stopped, not replaced


def test_a_worker_does_not_outlive_a_killed_supervisor(tmp_path: Path) -> None:
    proc = _supervisor(tmp_path, "time.sleep(120)\nreturn 1")
    worker = _wait_for_worker(tmp_path)
    proc.kill()
    proc.communicate(timeout=60)
    assert _gone(worker)
