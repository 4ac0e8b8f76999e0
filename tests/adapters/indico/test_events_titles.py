"""A new event's title is checked the same whichever way it arrives (issue 65): quoted in
the command or typed as the answer, through the real bot on a real Indico 3.2.9. Control
characters (bell, escape, backspace, delete, NUL), a newline and titles of 2,504 and 4,004
characters reached the site from a command (the 250-character limit held only for an
answer), and a NUL gave the user a raw «HTTP 400 for POST /event/create/lecture». Each
is asked again with a plain reason in the user's language; nothing reaches the site, and
nothing is changed silently.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import timedelta

import pytest

from bot.factory import BotApp
from tests.fakes.telegram import FakeTelegram, StoredMessage
from tests.support.indico_server import IndicoServer

WAIT = 120.0  # Chromium and Indico on a busy two-core machine
ASK = "Как назвать мероприятие?"


def has(text: str) -> Callable[[StoredMessage], bool]:
    return lambda m: text in (m.text or "")


def _control(code: str) -> str:
    return f"В названии есть невидимый управляющий символ ({code}), напишите его обычными знаками"


@pytest.mark.parametrize(
    ("title", "reason"),
    [
        pytest.param("Блиц\x07турнир", _control("U+0007"), id="bell"),
        pytest.param("\x1b[31mБлиц-турнир", _control("U+001B"), id="escape"),
        pytest.param("Блиц-турнир\x08\x08", _control("U+0008"), id="backspace"),
        pytest.param("Блиц\x7f-турнир", _control("U+007F"), id="delete"),
        pytest.param("Блиц\x00турнир", _control("U+0000"), id="nul"),
        pytest.param(
            "Блиц-турнир\nсбор в 17:30",
            "Название должно быть одной строкой, без переносов",
            id="newline",
        ),
        pytest.param(
            "Б" * 2504,
            "Название слишком длинное (символов: 2504, можно не больше 250)",
            id="2504",
        ),
        pytest.param(
            "Б" * 4004,
            "Название слишком длинное (символов: 4004, можно не больше 250)",
            id="4004",
        ),
    ],
)
async def test_a_bad_title_is_asked_again_from_the_command_and_as_an_answer(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer, title: str, reason: str
) -> None:
    made = len(await asyncio.to_thread(indico_server.events))
    day = indico_server.today() + timedelta(days=3)
    user = tg.user(71, "Лев", language_code="ru")

    await user.send(f"создай мероприятие «{title}» {day:%d.%m} с 10 до 11 в 7-706")
    asked = await user.wait_for_message(has(ASK), timeout=WAIT)
    assert asked.text == f"{reason}. {ASK}"
    # Typed as the answer, the same title gets the same answer.
    await user.send(title)
    again = await user.wait_for_message(lambda m: m.message_id > asked.message_id and has(ASK)(m))
    assert again.text == f"{reason}. {ASK}"
    assert len(await asyncio.to_thread(indico_server.events)) == made  # nothing reached Indico


async def test_a_title_with_a_nul_is_answered_politely_in_english_and_then_made_as_typed(
    app: BotApp, tg: FakeTelegram, indico_server: IndicoServer
) -> None:
    """A NUL gave the user a raw «HTTP 400 for POST /event/create/lecture»."""
    day = indico_server.today() + timedelta(days=4)
    user = tg.user(72, "Leo", language_code="en")
    await user.send(f'create an event "Chess\x00 night" on {day:%d.%m} 18-20 in 7-706')
    asked = await user.wait_for_message(has("What is the event called?"), timeout=WAIT)
    assert asked.text == (
        "The title has an invisible control character (U+0000); please use plain characters. "
        "What is the event called?"
    )
    title = f"Chess  night {day:%d.%m}"  # two spaces, kept as typed
    await user.send(f"«{title}»")
    created = await user.wait_for_message(has("Created the event"), timeout=WAIT)
    assert f"“{title}”" in (created.text or "")
    rows = await asyncio.to_thread(indico_server.events)
    assert [e.title for e in rows if e.title.startswith("Chess") and not e.is_deleted] == [title]
