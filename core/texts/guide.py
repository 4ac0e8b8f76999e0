"""What the bot can do: help, the greeting, examples, and the reply to a request it did not
understand."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Guide"]


class Guide:
    EXAMPLES = Text("Что можно написать:\n{examples}", "Things you can write:\n{examples}")
    COMMANDS = Text(
        "Команды: /status — что сейчас выполняется, /cancel — отменить текущее, "
        "/settings — язык и часовой пояс.",
        "Commands: /status — what is running, /cancel — cancel the current request, "
        "/settings — language and time zone.",
    )
    GREETING = Text("Здравствуйте, {name}! ", "Hello, {name}! ")
    UNKNOWN = Text(
        "Я не понял запрос. Может быть, вы имели в виду:\n{closest}\n\nВсё, что я умею: /help",
        "I did not understand that. Perhaps you meant:\n{closest}\n\nEverything I can do: /help",
    )
    NOT_UNDERSTOOD = Text(
        "Я не понял запрос. Всё, что я умею: /help",
        "I did not understand that. Everything I can do: /help",
    )
    DECLINED = Text(
        "Хорошо, ничего не бронирую и ничего не меняю.",
        "All right: I'm not booking or changing anything.",
    )
    CAN_DO = Text("Всё, что я умею, с примерами: /help", "All I can do, with examples: /help")
