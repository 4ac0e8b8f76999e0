"""``clubman chat``: the same core in a terminal. Questions show numbered options;
type a number or your own answer. Arrow keys browse the input history."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from pathlib import Path
from typing import TextIO

import structlog

from core.commands import Answer, Command, Lang
from core.errors import ClubError, StorageError
from core.manager import NewCommandPending, NLUManager
from core.output import (
    Done,
    Failed,
    Output,
    Progress,
    Question,
    Receipt,
    Reply,
    StepState,
    receipted,
)
from core.settings import Settings
from core.texts import Bot, Run, Terminal, tr

__all__ = ["TerminalView", "run_chat"]

log = structlog.get_logger("clubman.chat")

CHAT_ID = 1  # the terminal is one private chat of one local user

_MARKS = {
    StepState.DONE: "✓",
    StepState.RUNNING: "⏳",
    StepState.FAILED: "✗",
    StepState.PENDING: "·",
}


class TerminalView:
    """Renders core output as lines of text."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self.question: Question | None = None
        # a text held back while a question waits (``NewCommandPending``): 1 starts it anew
        self.held: tuple[Command, NewCommandPending] | None = None
        self._last_progress: dict[str, str] = {}

    def _print(self, line: str) -> None:
        self._out.write(line + "\n")
        self._out.flush()

    async def deliver(self, output: Output, receipt: Receipt | None = None) -> None:
        async with receipted(receipt) as show:
            if show:
                self._show(output)

    def _show(self, output: Output) -> None:
        if isinstance(output, Question):
            self.question = output
            self._print(f"? {output.text}")
            for number, option in enumerate(output.options, 1):
                self._print(f"  {number}) {option.label}")
            self._print(f"  ({tr(Terminal.OPTION_HINT, output.lang)})")
        elif isinstance(output, Progress):
            line = f"… {output.title}: " + "  ".join(
                f"{_MARKS[s.state]} {s.label}" for s in output.steps
            )
            if self._last_progress.get(output.run_id) != line:
                self._last_progress[output.run_id] = line
                self._print(line)
        elif isinstance(output, Done):
            self._print(f"✓ {output.text}")
        elif isinstance(output, Failed):
            self._print(f"✗ {output.text}")
        elif isinstance(output, Reply):
            self._print(output.text)

    def ask_new_command(self, command: Command, pending: NewCommandPending) -> None:
        self.held = (command, pending)
        self._print(f"? {tr(Bot.NEW_COMMAND, pending.lang, question=pending.question)}")
        self._print(f"  1) {tr(Bot.NEW_COMMAND_YES, pending.lang)}")
        self._print(f"  2) {tr(Bot.NEW_COMMAND_NO, pending.lang)}")

    def answer_for(self, line: str) -> Answer | None:
        """A number typed while a question waits picks that option."""
        question = self.question
        if question is None or not line.isdigit():
            return None
        number = int(line)
        if not 1 <= number <= len(question.options):
            return None
        self.question = None
        return Answer(
            chat_id=CHAT_ID,
            user_id=CHAT_ID,
            run_id=question.run_id,
            seq=question.seq,
            option_id=question.options[number - 1].id,
        )


def _start_reader(
    queue: asyncio.Queue[str | None], loop: asyncio.AbstractEventLoop, history: Path | None
) -> None:
    # A daemon thread: a blocked input() must not keep the process alive after Ctrl-C.
    def read() -> None:
        with contextlib.suppress(ImportError):
            import readline  # noqa: F401 - line editing and history for input()

            if history is not None:
                with contextlib.suppress(OSError):
                    readline.read_history_file(history)
        while True:
            try:
                line = input("> ")
            except (EOFError, KeyboardInterrupt):
                loop.call_soon_threadsafe(queue.put_nowait, None)
                return
            if history is not None:
                with contextlib.suppress(OSError, NameError):
                    readline.write_history_file(history)
            loop.call_soon_threadsafe(queue.put_nowait, line)

    threading.Thread(target=read, name="stdin", daemon=True).start()


async def _dispatch(manager: NLUManager, view: TerminalView, line: str, lang: Lang) -> bool:
    """Handle one input line; False means quit."""
    if line in ("/quit", "/exit"):
        return False
    if line == "/help":
        await view.deliver(Reply(chat_id=CHAT_ID, text=manager.help_text(lang), lang=lang))
    elif line == "/status":
        runs = await manager.status(CHAT_ID)
        if not runs:
            view._print(tr(Terminal.NOTHING_RUNNING, lang))
        for run in runs:
            steps = "  ".join(f"{_MARKS[s.state]} {s.label}" for s in run.steps)
            view._print(f"• {run.title} [{run.status}] {steps}")
            if run.question:
                view._print(f"  ? {run.question}")
    elif line == "/cancel":
        await manager.cancel(chat_id=CHAT_ID, user_id=CHAT_ID)
    elif view.held is not None and line in ("1", "2"):
        await _new_or_answer(manager, view, start_new=line == "1")
    elif (answer := view.answer_for(line)) is not None:
        outcome = await manager.answer(answer)
        if not outcome.accepted:
            view._print(outcome.note)
    else:
        view.held = None
        command = Command(chat_id=CHAT_ID, user_id=CHAT_ID, text=line, lang=lang)
        pending = await manager.handle(command, confirm_new=True)
        if pending is not None:
            view.ask_new_command(command, pending)
    return True


async def _new_or_answer(manager: NLUManager, view: TerminalView, *, start_new: bool) -> None:
    """The answer to «Начать новое?»: start the held text anew, or show the question again."""
    assert view.held is not None
    (command, pending), view.held = view.held, None
    question = await manager.pending_question(CHAT_ID)
    if question is None or question.run_id != pending.run_id:
        view._print(tr(Run.STALE_ANSWER, pending.lang))
    elif start_new:
        await manager.start_instead(command, run_id=pending.run_id)
    else:
        await view.deliver(question)


async def run_chat(settings: Settings, *, lang: Lang = "ru", out: TextIO = sys.stdout) -> None:
    from app.compose import open_core, open_settings_storage

    view = TerminalView(out)
    queue: asyncio.Queue[str | None] = asyncio.Queue()
    history = settings.data_dir / "chat_history"
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    async with (
        open_settings_storage(settings) as storage,
        open_core(settings, storage, view) as services,
    ):
        manager = services.manager
        view._print(manager.greeting(lang, "") + "\n\n" + tr(Terminal.QUIT, lang))
        _start_reader(queue, asyncio.get_running_loop(), history)
        while (line := await queue.get()) is not None:
            line = line.strip()
            if not line:
                continue
            try:
                if not await _dispatch(manager, view, line, lang):
                    break
            except StorageError as exc:  # ours to fix: the details go to the log
                log.warning("chat.storage_error", error=exc.message)
                view._print(f"✗ {tr(Run.TEMPORARILY_DOWN, lang)}")
            except ClubError as exc:
                view._print(f"✗ {exc}")
