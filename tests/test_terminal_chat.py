"""``clubman chat`` as a person uses it, driven through tmux: help, a clarification
question with numbered options, answered by typing a number."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

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


@pytest.fixture
def chat(tmp_path: Path) -> Iterator[Tmux]:
    assert shutil.which("tmux"), "tmux is installed by `make test` / .ci/run"
    session = f"clubman-{uuid.uuid4().hex[:8]}"
    env = f"DATA_DIR={tmp_path} LOG_LEVEL=WARNING"
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
            f"env {env} {CLUBMAN} chat 2>{tmp_path}/stderr.log",
        ],
        check=True,
    )
    try:
        yield Tmux(session)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", session], check=False)


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
