"""Commands and the error router end to end: /settings, /bookings, polite errors, apologies."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import structlog
from typer.testing import CliRunner

from app.cli import app as cli
from app.run import serve
from bot.factory import check_access
from core.commands import Command
from core.errors import ConfigError
from core.nlu import Decision
from scenarios.help import HelpScenario
from storage import Storage
from tests.bot.support import EchoScenario, running_bot, settings_for
from tests.fakes.telegram import FakeTelegram


class CrashingScenario(EchoScenario):
    async def respond(self, command: Command, decision: Decision) -> str:
        raise RuntimeError("boom")


async def test_settings_show_and_change_language_and_zone(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send("/settings")
        panel = await user.wait_for_message(lambda m: "Настройки" in (m.text or ""))
        assert "Часовой пояс: Europe/Moscow" in (panel.text or "")
        await user.wait_for_answer(await user.tap("English"))
        await user.wait_for_message(lambda m: "• English" in m.labels)
        await user.wait_for_answer(await user.tap("Novosibirsk"))
        await user.wait_for_message(lambda m: "• Novosibirsk" in m.labels)
        await user.send("/settings Europe/Berlin")  # answered in the language just chosen
        await user.wait_for_message(lambda m: "Time zone: Europe/Berlin." in (m.text or ""))
    settings = await storage.users.get(user.id)
    assert settings is not None
    assert (settings.language, settings.timezone) == ("en", "Europe/Berlin")


async def test_a_forged_time_zone_button_changes_nothing_and_is_refused_in_the_users_language(
    tg: FakeTelegram, storage: Storage
) -> None:
    """Our buttons carry canonical zones only; forged ones — unknown, or names zoneinfo
    would open but no person lives in (posixrules: New York's rules) — store nothing."""
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send("/settings")
        panel = await user.wait_for_message(lambda m: "Настройки" in (m.text or ""))
        for forged in ("Mars/Phobos", "posixrules", "Factory", "right/UTC", "posix/Asia/Tokyo"):
            query = user.press(f"t:{forged}", message_id=panel.message_id)
            answer = await user.wait_for_answer(query)
            assert answer.show_alert and answer.text == (
                "Такого часового пояса нет, ничего не изменено."
            ), forged
        query = user.press("t:europe/kiev", message_id=panel.message_id)  # a link: its zone
        assert (await user.wait_for_answer(query)).text == "Часовой пояс: Europe/Kyiv."
    settings = await storage.users.get(user.id)
    assert settings is not None and settings.timezone == "Europe/Kyiv"


async def test_unexpected_error_is_logged_with_context_and_apologised_for(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "John", language_code="en")
    with structlog.testing.capture_logs() as logs:
        async with running_bot(tg, storage, scenarios=[CrashingScenario(), HelpScenario()]):
            await user.send("do the thing")
            reply = await user.wait_for_message()
    assert reply.text == "Sorry, something went wrong on my side. Please try again a bit later."
    assert "Traceback" not in (reply.text or "")
    event = next(e for e in logs if e["event"] == "bot.unexpected_error")
    assert event["chat_id"] == 1 and event["update_id"] > 0 and "run_id" in event
    assert isinstance(event["exc_info"], RuntimeError)


async def test_bookings_and_schedules_go_to_the_core_as_intents(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send("/bookings")
        first = await user.wait_for_message()
        await user.send("/schedules")
        second = await user.wait_for_message()
    # No list scenarios are registered in this test: the core says so, by intent name.
    assert "list_bookings" in (first.text or "")
    assert "list_schedules" in (second.text or "")


def test_an_empty_allow_list_refuses_to_start(tg: FakeTelegram) -> None:
    with pytest.raises(ConfigError, match="TELEGRAM__ALLOWED_USERS is empty"):
        check_access(settings_for(tg))
    check_access(settings_for(tg, allow_all=True))
    check_access(settings_for(tg, allowed=[1]))


def test_clubman_run_says_why_it_will_not_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TELEGRAM__TOKEN", "1:x")
    # The CLI configures logging onto CliRunner's stderr, which is closed afterwards.
    monkeypatch.setattr("app.cli.configure_logging", lambda *args, **kwargs: None)
    result = CliRunner().invoke(cli, ["run"])
    assert result.exit_code == 2
    assert "TELEGRAM__ALLOWED_USERS is empty" in result.output
    assert "TELEGRAM__ALLOW_ALL=true" in result.output


async def test_serve_runs_the_bot_as_clubman_run_does(
    tg: FakeTelegram, secantus_uri: str, redis_url: str, tmp_path: Path
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    settings = settings_for(
        tg, allowed=[1], mongodb_uri=secantus_uri, redis_url=redis_url, data_dir=tmp_path
    )
    task = asyncio.create_task(serve(settings))
    try:
        await user.send("/help")
        reply = await user.wait_for_message(timeout=30)
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
    assert "Я бронирую аудитории" in (reply.text or "")
    assert tg.calls_of("deleteWebhook") and tg.calls_of("getUpdates")
