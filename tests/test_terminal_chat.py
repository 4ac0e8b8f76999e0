"""``clubman chat`` as a person uses it, driven through tmux: help, a clarification
question with numbered options answered by typing a number, and the flagship booking
on a reference portal started here (real clock) with its test API."""

from __future__ import annotations

import json
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from storage.process import die_with_parent, free_port

CLUBMAN = str(Path(sys.executable).parent / "clubman")


class Tmux:
    def __init__(self, session: str) -> None:
        self.session = session

    def send(self, text: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.session, "-l", text], check=True)
        subprocess.run(["tmux", "send-keys", "-t", self.session, "Enter"], check=True)

    def screen(self) -> str:
        result = subprocess.run(
            ["tmux", "capture-pane", "-p", "-J", "-S", "-200", "-t", self.session],
            capture_output=True,
            text=True,
            check=True,
        )
        return result.stdout

    def wait_for(self, found: Callable[[str], bool], *, timeout: float = 90) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if found(screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"not on screen in {timeout} s:\n{self.screen()}")


def _chat(tmp_path: Path, env: str = "", *, stderr: bool = False) -> Iterator[Tmux]:
    """``clubman chat`` in tmux; its stderr goes to a file unless ``stderr`` shows it too."""
    assert shutil.which("tmux"), "tmux is installed by `make test` / .ci/run"
    session = f"clubman-{uuid.uuid4().hex[:8]}"
    env = f"DATA_DIR={tmp_path} {env}".strip()
    redirect = "" if stderr else f" 2>{tmp_path}/stderr.log"
    subprocess.run(
        [
            "tmux",
            "new-session",
            "-d",
            "-s",
            session,
            "-x",
            "200",
            "-y",
            "50",
            f"env {env} {CLUBMAN} chat{redirect}",
        ],
        check=True,
    )
    try:
        yield Tmux(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


@pytest.fixture
def chat(tmp_path: Path) -> Iterator[Tmux]:
    """The zero-config demo: the reference portal runs inside the chat process."""
    yield from _chat(tmp_path, "LOG_LEVEL=WARNING")


@pytest.fixture
def portal_url(tmp_path: Path) -> Iterator[str]:
    """The reference portal in its own process on the real clock, with its test API."""
    port = free_port()
    with (tmp_path / "portal.log").open("wb") as log:
        proc = subprocess.Popen(
            [CLUBMAN, "portal", "--port", str(port), "--test-api", "--seed", "1"],
            stdout=log,
            stderr=subprocess.STDOUT,
            preexec_fn=die_with_parent,
        )
        try:
            deadline = time.monotonic() + 60
            while True:
                assert proc.poll() is None, "the portal exited"
                try:
                    socket.create_connection(("127.0.0.1", port), 0.2).close()
                    break
                except OSError:
                    assert time.monotonic() < deadline, "the portal did not start"
                    time.sleep(0.1)
            yield f"http://127.0.0.1:{port}"
        finally:
            proc.terminate()
            proc.wait(10)


@pytest.fixture
def portal_chat(tmp_path: Path, portal_url: str) -> Iterator[Tmux]:
    """``clubman chat`` configured for the portal started above, on the club's account."""
    env = f"PORTAL__URL={portal_url} PORTAL__USERNAME=club PORTAL__PASSWORD=club-demo"
    yield from _chat(tmp_path, env, stderr=True)  # logs at INFO: they must not reach the screen


LOG_LINE = re.compile(r"\[(debug|info|warning|error|critical)\s*\]|^\d{4}-\d\d-\d\dT", re.MULTILINE)


def portal_bookings(url: str, *, user: str) -> list[dict[str, Any]]:
    with urllib.request.urlopen(f"{url}/_test/bookings", timeout=30) as response:
        found: list[dict[str, Any]] = json.load(response)
    return [b for b in found if b["status"] == "active" and b["user"] == user]


def option_number(screen: str, label: str) -> str:
    """The number printed before ``label`` in the last numbered list on the screen."""
    numbers = re.findall(rf"^  (\d+)\) {re.escape(label)}$", screen, flags=re.MULTILINE)
    assert numbers, f"no option {label!r} on screen:\n{screen}"
    return str(numbers[-1])


def test_help_then_a_question_answered_by_number(chat: Tmux) -> None:
    chat.wait_for(lambda s: "/quit" in s)
    chat.send("помощь")
    chat.wait_for(lambda s: s.count("Я бронирую аудитории") >= 2)  # greeting + reply
    chat.send("забронируй аудиторию в главном")
    screen = chat.wait_for(lambda s: "? На какую дату?" in s)
    assert "  2) " in screen and "номер варианта или свой ответ" in screen
    chat.send("2")
    chat.wait_for(lambda s: "? Во сколько начать?" in s)
    chat.send("/status")
    chat.wait_for(lambda s: "Бронирование аудиторий [collecting]" in s)
    chat.send("/quit")


def test_a_new_request_while_a_question_waits_is_asked_about(chat: Tmux) -> None:
    chat.wait_for(lambda s: "/quit" in s)
    chat.send("забронируй аудиторию в главном")
    chat.wait_for(lambda s: "? На какую дату?" in s)
    new = "забронируй 2 аудитории в лабораторном завтра с 10 до 12"
    chat.send(new)
    asked = "? Я жду ответа на вопрос «На какую дату?». Начать новое?"
    screen = chat.wait_for(lambda s: asked in s)
    assert "  1) Да, новое" in screen and "  2) Нет, ответить на вопрос" in screen
    chat.send("2")  # the question again, the held text dropped
    chat.wait_for(lambda s: s.count("? На какую дату?") == 2)
    chat.send(new)
    chat.wait_for(lambda s: s.count(asked) == 2)
    chat.send("1")  # the waiting request goes, the new one starts
    chat.wait_for(lambda s: "Отменено: Бронирование аудиторий." in s)
    chat.send("/status")
    screen = chat.wait_for(lambda s: "Бронирование аудиторий [" in s)
    assert "[collecting]" not in screen.split("/status")[-1]  # nothing left asking a date
    chat.send("/quit")


def test_flagship_booking_answered_by_number(
    portal_chat: Tmux, portal_url: str, tmp_path: Path
) -> None:
    # «послезавтра»: on the real clock it is always within the portal's 14 days and never
    # in the past (unlike «в этот четверг» on a Thursday evening).
    portal_chat.wait_for(lambda s: "/quit" in s)
    portal_chat.send("забронируй 3 аудитории рядом послезавтра с 18 до 20")
    screen = portal_chat.wait_for(lambda s: "? В каком корпусе?" in s)
    portal_chat.send(option_number(screen, "Главный корпус"))
    screen = portal_chat.wait_for(lambda s: "✓ Забронированы " in s or "✗ " in s, timeout=180)
    summary = next(line for line in screen.splitlines() if line.startswith(("✓ Забр", "✗ ")))
    found = re.fullmatch(r"✓ Забронированы (\d+), (\d+), (\d+) \(Главный корпус, .+\)", summary)
    assert found, summary
    shown = sorted(int(n) for n in found.groups())
    assert shown == list(range(shown[0], shown[0] + 3))

    assert not LOG_LINE.search(screen), screen  # the conversation only, logs in their file
    assert f"Журнал работы: {tmp_path}/logs/clubman.log" in screen
    assert "step.succeeded" in (tmp_path / "logs" / "clubman.log").read_text()

    booked = portal_bookings(portal_url, user="club")
    assert sorted(int(b["room_number"]) for b in booked) == shown
    assert {(b["building"], b["start"], b["end"]) for b in booked} == {("main", "18:00", "20:00")}
    assert len({b["date"] for b in booked}) == 1

    # /bookings, the booking job's own command, lists them without reading the text
    portal_chat.send("/bookings")
    screen = portal_chat.wait_for(lambda s: "Ваши брони:" in s)
    assert f"Главный корпус: {', '.join(str(n) for n in shown)}" in screen

    # The three rooms are one request: cancelled together, with one confirmation.
    portal_chat.send("отмени бронь послезавтра")
    screen = portal_chat.wait_for(lambda s: "? Отменить все аудитории этой брони" in s)
    portal_chat.send(option_number(screen, "Отменить все три"))
    every = ", ".join(str(n) for n in shown)
    screen = portal_chat.wait_for(lambda s: f"? Отменить {every}, Главный корпус, " in s)
    portal_chat.send(option_number(screen, "Да"))
    screen = portal_chat.wait_for(lambda s: "✓ Отменены брони: " in s, timeout=180)
    assert portal_bookings(portal_url, user="club") == []
    assert not LOG_LINE.search(screen), screen
    portal_chat.send("/quit")
