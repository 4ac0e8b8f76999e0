"""What a user reads when a step fails (issue 16): their language, no settings, no
internals. A site's or scenario's refusal is passed on; our own failures are told as ours."""

from __future__ import annotations

import pytest

from core.commands import Command
from core.errors import BrowserError, ConfigError, PortalError, StorageError
from core.output import Failed
from scenarios.help import HelpScenario, UnknownScenario
from tests.core.conftest import CoreFactory
from tests.support.scenarios import TrackedScenario
from tests.support.sinks import CollectingSink

COMMANDS = {"ru": "забронируй аудиторию завтра с 10 до 12", "en": "book a room tomorrow 10-12"}
INTERNALS = ("BROWSER__", "PORTAL__", "REDIS", "Mongo", "chromium", "Traceback", "planted")


@pytest.mark.parametrize(
    ("failure", "lang", "told"),
    [
        (
            BrowserError("the browser failed", hint="install chromium or set BROWSER__EXECUTABLE"),
            "ru",
            "Не получилось: у меня не сработал браузер, которым я работаю с порталом. "
            "Попробуйте ещё раз чуть позже",
        ),
        (
            StorageError("saving run x: Redis error (ResponseError)"),
            "en",
            "Sorry, something went wrong on my side. Please try again a bit later.",
        ),
        (
            ConfigError("PORTAL__URL is not set"),
            "ru",
            "Простите, что-то пошло не так на моей стороне. Попробуйте ещё раз чуть позже.",
        ),
        (RuntimeError("planted"), "ru", "Простите, что-то пошло не так на моей стороне. "
         "Попробуйте ещё раз чуть позже."),
        (PortalError("аудитория 301 уже занята"), "ru", "Не получилось: аудитория 301 уже занята"),
    ],
)  # fmt: skip
async def test_a_failed_step_is_told_in_the_users_language_without_internals(
    make_core: CoreFactory, sink: CollectingSink, failure: Exception, lang: str, told: str
) -> None:
    scenario = TrackedScenario()
    scenario.fail_at, scenario.failure = "prepare", failure
    text = (
        "забронируй аудиторию завтра с 10 до 12" if lang == "ru" else "book a room tomorrow 10-12"
    )
    async with make_core(scenario, HelpScenario(), UnknownScenario()) as core:
        await core.handle(Command(chat_id=100, user_id=100, text=text))
        failed = await sink.wait_for(Failed)
    assert failed.text == told
    assert failed.lang == lang
    assert not any(word in failed.text for word in INTERNALS)
