"""``clubman site check`` and ``site show`` as an operator runs them: real processes against
the reference portal in its own process. A check killed outright (SIGKILL) after it
booked leaves its booking behind; the next check cancels it first. A bad profile is one
clear line naming the file and the line, before anything runs."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from adapters.profile.check import CHECK_MARK
from storage.process import die_with_parent, free_port

CLUBMAN = str(Path(sys.executable).parent / "clubman")
PROFILE = Path(__file__).parents[1] / "profiles" / "refportal.yaml"


@pytest.fixture(scope="module")
def portal_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    log = (tmp_path_factory.mktemp("portal") / "portal.log").open("wb")
    proc = subprocess.Popen(
        [CLUBMAN, "portal", "--port", str(port), "--test-api", "--seed", "1"],
        stdout=log, stderr=subprocess.STDOUT, preexec_fn=die_with_parent,
    )  # fmt: skip
    try:
        for _ in range(400):
            assert proc.poll() is None, "the portal exited"
            try:
                socket.create_connection(("127.0.0.1", port), 0.2).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(10)
        log.close()


def _env(url: str, data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "REDIS_URL")}
    return env | {
        "PORTAL__URL": url, "PORTAL__USERNAME": "club", "PORTAL__PASSWORD": "club-demo",
        "DATA_DIR": str(data), "LOG_LEVEL": "WARNING",
    }  # fmt: skip


async def _marked(url: str) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/bookings") as got:
        rows: list[dict[str, Any]] = await got.json()
    return [r for r in rows if r["status"] == "active" and str(r["purpose"]).startswith(CHECK_MARK)]


async def _quirks(url: str, **quirks: int) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{url}/_test/quirks", json=quirks) as got,
    ):
        assert got.status == 200


async def test_a_rerun_cancels_what_a_killed_check_left(portal_url: str, tmp_path: Path) -> None:
    await _quirks(portal_url, latency_ms=150)  # time to kill it between booking and cancelling
    check = subprocess.Popen(
        [CLUBMAN, "site", "check", str(PROFILE)],
        env=_env(portal_url, tmp_path), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        preexec_fn=die_with_parent,
    )  # fmt: skip
    try:
        async with asyncio.timeout(120):
            while not await _marked(portal_url):
                assert check.poll() is None, check.stdout.read() if check.stdout else ""
                await asyncio.sleep(0.02)
        check.send_signal(signal.SIGKILL)
        check.wait()
    finally:
        check.kill()
    assert len(await _marked(portal_url)) == 1  # killed: nothing cleaned up

    await _quirks(portal_url, latency_ms=0)
    rerun = await asyncio.to_thread(
        subprocess.run, [CLUBMAN, "site", "check", str(PROFILE)],
        env=_env(portal_url, tmp_path), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert rerun.returncode == 0, rerun.stdout + rerun.stderr
    assert "отменено оставшихся от прерванной проверки: 1" in rerun.stdout
    assert "итог: профиль подходит" in rerun.stdout
    assert await _marked(portal_url) == []


def test_show_prints_the_catalogue_and_books_nothing(portal_url: str, tmp_path: Path) -> None:
    shown = subprocess.run(
        [CLUBMAN, "site", "show", str(PROFILE)],
        env=_env(portal_url, tmp_path), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert shown.returncode == 0, shown.stdout + shown.stderr
    assert "✓ каталог: корпусов: 3, аудиторий: 52" in shown.stdout
    assert "main: «Главный корпус» — 30 ауд.: 201, 202" in shown.stdout


def test_a_bad_profile_is_one_line_naming_the_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(PROFILE.read_text(encoding="utf-8").replace("  booked:", "  bookedd:"))
    line = next(n for n, text in enumerate(bad.read_text().splitlines(), 1) if "bookedd:" in text)
    result = subprocess.run(
        [CLUBMAN, "site", "check", str(bad)],
        env=_env("http://127.0.0.1:9", tmp_path), capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"clubman: {bad}:{line}: book.bookedd: unknown key «bookedd»"
    ), result.stderr


def test_a_check_writes_what_healed_and_says_so(portal_url: str, tmp_path: Path) -> None:
    """The booking's button listed second (the first is not on the page): the check's
    booking through the form passes with it, so it is moved first — written as a version
    and named in the report, not used silently."""
    submit = "  submit:\n    - role: button\n      name: Забронировать\n"
    text = PROFILE.read_text(encoding="utf-8")
    assert text.count(submit) == 1
    path = tmp_path / "site.yaml"
    path.write_text(
        text.replace(submit, "  submit:\n    - role: button\n      name: Отправить заявку\n"
                     "    - role: button\n      name: Забронировать\n"),
        encoding="utf-8",
    )  # fmt: skip
    check = subprocess.run(
        [CLUBMAN, "site", "check", str(path)],
        env=_env(portal_url, tmp_path / "data"), capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert check.returncode == 0, check.stdout + check.stderr
    assert (
        "✓ исправления: book.submit: кандидат 2 стал первым — записано в профиль как версия 2"
        in check.stdout
    )
    assert path.read_text(encoding="utf-8").count(submit) == 1  # first again
