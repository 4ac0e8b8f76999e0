"""``help`` and ``unknown``: what the bot can do, with examples, in Russian and English."""

from __future__ import annotations

from typing import ClassVar

from rapidfuzz import fuzz, process

from core.assist.answerer import UnknownAnswerer
from core.commands import Command, Lang
from core.nlu import Decision, Intent
from core.scenario import GuideScenario, InstantScenario

__all__ = ["HelpScenario", "UnknownScenario", "greeting", "help_text"]

EXAMPLES: dict[Lang, list[str]] = {
    "ru": [
        "забронируй 3 аудитории рядом в этот четверг с 18 до 20",
        "нужна 301 в среду с 12:00 до 13:30",
        "мои брони",
        "отмени бронь на пятницу",
        "каждый четверг бронируй 405 с 18 до 20",
        "какие у меня регулярные брони",
    ],
    "en": [
        "book two adjacent rooms next Friday 10-12",
        "reserve room 207 in Chaikovsky tomorrow 9-10",
        "my bookings",
        "cancel my booking on Friday",
        "every Thursday book 405 from 6pm to 8pm",
        "show my schedules",
    ],
}

_HELP: dict[Lang, str] = {
    "ru": (
        "Я бронирую аудитории на университетском портале и слежу, чтобы брони не терялись.\n\n"
        "Что можно написать:\n{examples}\n\n"
        "Команды: /bookings — мои брони, /schedules — регулярные брони, /status — что сейчас "
        "выполняется, /cancel — отменить текущее, /settings — язык и часовой пояс."
    ),
    "en": (
        "I book rooms on the university portal and make sure bookings are not lost.\n\n"
        "Things you can write:\n{examples}\n\n"
        "Commands: /bookings — my bookings, /schedules — recurring bookings, /status — what is "
        "running, /cancel — cancel the current request, /settings — language and time zone."
    ),
}

_GREETING: dict[Lang, str] = {
    "ru": "Здравствуйте, {name}! ",
    "en": "Hello, {name}! ",
}

_UNKNOWN: dict[Lang, str] = {
    "ru": "Я не понял запрос. Может быть, вы имели в виду:\n{closest}\n\nВсё, что я умею: /help",
    "en": "I did not understand that. Perhaps you meant:\n{closest}\n\nEverything I can do: /help",
}


_CAN_DO: dict[Lang, str] = {
    "ru": "А я умею бронировать аудитории, показывать и отменять брони, бронировать "
    "каждую неделю. Примеры: /help",
    "en": "What I can do: book rooms, list and cancel bookings, book every week. Examples: /help",
}


def _bullets(lines: list[str]) -> str:
    return "\n".join(f"• {line}" for line in lines)


def help_text(lang: Lang) -> str:
    return _HELP[lang].format(examples=_bullets(EXAMPLES[lang]))


def greeting(lang: Lang, name: str) -> str:
    hello = _GREETING[lang].format(name=name) if name else ""
    return hello + help_text(lang)


def closest_examples(text: str, lang: Lang, *, limit: int = 2) -> list[str]:
    found = process.extract(text.lower(), EXAMPLES[lang], scorer=fuzz.token_set_ratio, limit=limit)
    return [example for example, _, _ in found]


class HelpScenario(GuideScenario):
    name = "help"
    intents: ClassVar[frozenset[Intent]] = frozenset({Intent.HELP})

    async def respond(self, command: Command, decision: Decision) -> str:
        return help_text(decision.lang)

    def greeting(self, lang: Lang, name: str) -> str:
        return greeting(lang, name)

    def help_text(self, lang: Lang) -> str:
        return help_text(lang)


class UnknownScenario(InstantScenario):
    """The fallback: scores low on purpose so it never beats a real scenario.

    With an ``answerer`` (an LLM) it answers the message briefly, then says what it can do.
    """

    name = "unknown"
    intents: ClassVar[frozenset[Intent]] = frozenset({Intent.UNKNOWN})

    def __init__(self, *, answerer: UnknownAnswerer | None = None) -> None:
        self._answerer = answerer

    def score(self, decision: Decision) -> float:
        return 0.1 if decision.intent is Intent.UNKNOWN else 0.0

    async def respond(self, command: Command, decision: Decision) -> str:
        if self._answerer is not None:
            said = await self._answerer.answer(
                command.text, lang=decision.lang, user_id=command.user_id
            )
            if said:
                return f"{said}\n\n{_CAN_DO[decision.lang]}"
        closest = closest_examples(command.text, decision.lang)
        return _UNKNOWN[decision.lang].format(closest=_bullets(closest))
