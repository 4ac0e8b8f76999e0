"""Every benchmark still runs: each, at its smallest size, exits cleanly and prints its
ratios. Speed is not asserted here (machines are noisy); only that the numbers come."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from bench.booking_indico_api import on_indico
from tests.support.indico_server import IndicoServer

pytestmark = pytest.mark.slow  # handed out first: tests/conftest.py
ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("bench", "arguments", "printed"),
    [
        ("bench.bot", ["--chats", "2", "--messages", "2", "--rounds", "1"], "of the echo bot"),
        ("bench.booking", ["--repeat", "1", "--users", "2"], "ratio scenario/script"),
        ("bench.booking", ["--system", "legacy", "--repeat", "1"], "ratio page path/script"),
        ("bench.booking", ["--system", "profile", "--repeat", "1"], "ratio adapter's calls/HTTP"),
        ("bench.nlu", ["--commands", "50", "--long", "512"], "long  worst"),
        ("bench.nlu", ["--corpus"], "negated commands that book or schedule: 0"),
        ("bench.flood", ["--chats", "20"], "delivered: 20"),
        ("bench.redis_pipelining", ["--commands", "100"], "pipelining"),
        ("bench.restart", ["--restarts", "1"], "kill → first reply"),
        ("bench.learn", ["--site", "refportal"], "site check"),
        ("bench.drift", ["--kind", "relabelled"], "relabelled       booked"),
        ("bench.crossings", [], "of them climbing back up a layer"),
    ],
    ids=[
        "bot",
        "booking",
        "booking-legacy",
        "booking-profile",
        "nlu",
        "nlu-corpus",
        "flood",
        "redis",
        "restart",
        "learn",
        "drift",
        "crossings",
    ],  # fmt: skip
)
def test_the_benchmark_runs_and_prints_its_numbers(
    bench: str, arguments: list[str], printed: str
) -> None:
    result = subprocess.run(
        [sys.executable, "-m", bench, *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    assert printed in result.stdout


async def test_the_indico_benchmark_runs_and_prints_its_numbers(
    indico_server: IndicoServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """``python -m bench.booking --system indico --repeat 1``, on the session's Indico."""
    with indico_server.seeded_only():  # the bench's slots must be free: earlier tests booked
        await on_indico(indico_server, repeat=1)
    printed = capsys.readouterr().out
    assert "ratio fast path/HTTP" in printed
    assert "ratio adapter's calls/script" in printed  # the page path's goal line
    assert re.findall(r"LLM calls\s+(\d+)", printed) == ["0", "0"]  # the API and the profile
    assert "   ! " not in printed  # no booking failed
