"""``clubman chat``: the same core in a terminal. Questions show numbered options;
type a number or your own answer. Arrow keys browse the input history.

On a terminal, prompt_toolkit reads the input: what the bot says while you type is printed
above the prompt, which is redrawn below it, and a run's progress is one line at the
bottom, updated in place. Piped input is read line by line and progress printed as lines.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

import structlog

from core.commands import MAX_TEXT, Answer, Command, Lang, too_long
from core.dispatcher import ChatDispatcher, NewCommandPending
from core.errors import ClubError, StorageError
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
from core.texts import Bot, Common, Run, Terminal, tr

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
    """Renders core output as lines of text; with ``live``, progress is kept in
    ``progress_line`` (one line drawn in place by the prompt) instead of printed."""

    def __init__(self, out: TextIO | None = None, *, live: bool = False) -> None:
        self._out = out
        self._live = live
        self.question: Question | None = None
        # a text held back while a question waits (``NewCommandPending``): 1 starts it anew
        self.held: tuple[Command, NewCommandPending] | None = None
        self._last_progress: dict[str, str] = {}

    @property
    def progress_line(self) -> str:
        return "   ".join(self._last_progress.values())

    def _print(self, line: str) -> None:
        out = self._out or sys.stdout  # read when used: prompt_toolkit patches sys.stdout
        out.write(line + "\n")
        out.flush()

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
                if not self._live:
                    self._print(line)
        elif isinstance(output, Done):
            self._last_progress.pop(output.run_id, None)
            self._print(f"✓ {output.text}")
        elif isinstance(output, Failed):
            self._last_progress.pop(output.run_id, None)
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
    """Piped input: a daemon thread (a blocked input() must not keep the process alive
    after Ctrl-C)."""

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


async def _prompt(queue: asyncio.Queue[str | None], view: TerminalView, history: Path) -> None:
    """A terminal: prompt_toolkit, with the progress line as the prompt's bottom toolbar."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory

    session: PromptSession[str] = PromptSession(
        history=FileHistory(str(history)),
        bottom_toolbar=lambda: view.progress_line or None,
        refresh_interval=0.2,  # the toolbar follows progress without a redraw per step
    )
    while True:
        try:
            line = await session.prompt_async("> ")
        except (EOFError, KeyboardInterrupt):
            await queue.put(None)
            return
        await queue.put(line)


def _shortcut(manager: ChatDispatcher, line: str) -> str | None:
    """The intent a registered job's command names («/bookings»), if ``line`` is one."""
    return next((s.intent for s in manager.shortcuts if line == f"/{s.command}"), None)


async def _dispatch(manager: ChatDispatcher, view: TerminalView, line: str, lang: Lang) -> bool:
    """Handle one input line; False means quit."""
    if line in ("/quit", "/exit"):
        return False
    if line == "/help":
        await view.deliver(Reply(chat_id=CHAT_ID, text=manager.help_text(lang), lang=lang))
    elif line == "/status":
        runs = await manager.control.status(CHAT_ID)
        if not runs:
            view._print(tr(Terminal.NOTHING_RUNNING, lang))
        for run in runs:
            steps = "  ".join(f"{_MARKS[s.state]} {s.label}" for s in run.steps)
            view._print(f"• {run.title} [{run.status}] {steps}")
            if run.question:
                view._print(f"  ? {run.question}")
    elif line == "/cancel":
        await manager.control.cancel(chat_id=CHAT_ID, user_id=CHAT_ID)
    elif (intent := _shortcut(manager, line)) is not None:  # a job's own: /bookings
        await manager.handle(
            Command(chat_id=CHAT_ID, user_id=CHAT_ID, text=line, lang=lang, intent=intent)
        )
    elif too_long(line):
        view._print(tr(Common.TOO_LONG, lang, length=len(line), limit=MAX_TEXT))
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


async def _new_or_answer(manager: ChatDispatcher, view: TerminalView, *, start_new: bool) -> None:
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


async def run_chat(
    settings: Settings,
    *,
    lang: Lang = "ru",
    out: TextIO | None = None,
    log_path: Path | None = None,
) -> None:
    from app.compose import open_core, open_settings_storage

    live = out is None and sys.stdin.isatty() and sys.stdout.isatty()
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    with _patched_stdout(live):
        view = TerminalView(out, live=live)
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        async with (
            open_settings_storage(settings) as storage,
            open_core(settings, storage, view, reminders=False) as services,
        ):
            manager = services.manager
            view._print(manager.greeting(lang, "") + "\n\n" + tr(Terminal.QUIT, lang))
            if log_path is not None:
                view._print(tr(Terminal.LOG_FILE, lang, path=log_path))
            history = settings.data_dir / "chat_history"  # readline's format
            # prompt_toolkit keeps its history in its own format, in a file of its own
            prompt = _prompt(queue, view, history.with_suffix(".pt")) if live else None
            reader = asyncio.create_task(prompt) if prompt else None
            if reader is None:
                _start_reader(queue, asyncio.get_running_loop(), history)
            try:
                await _converse(manager, view, queue, lang)
            finally:
                if reader is not None:
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)


@contextlib.contextmanager
def _patched_stdout(live: bool) -> Iterator[None]:
    """On a terminal, what is printed goes above the prompt, which is redrawn below."""
    if not live:
        yield
        return
    from prompt_toolkit.patch_stdout import patch_stdout

    with patch_stdout(raw=True):
        yield


async def _converse(
    manager: ChatDispatcher, view: TerminalView, queue: asyncio.Queue[str | None], lang: Lang
) -> None:
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
