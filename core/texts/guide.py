"""What the bot can do: help, the greeting, examples, and the reply to a request it did not
understand."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Guide"]


class Guide:
    # Requests one can write, each language its own (they are also matched against what
    # the user wrote when nothing else understood it).
    EXAMPLES: tuple[Text, ...] = (
        Text(
            "забронируй 3 аудитории рядом в этот четверг с 18 до 20",
            "book two adjacent rooms next Friday 10-12",
        ),
        Text("нужна 301 в среду с 12:00 до 13:30", "reserve room 207 in Chaikovsky tomorrow 9-10"),
        Text("мои брони", "my bookings"),
        Text("отмени бронь на пятницу", "cancel my booking on Friday"),
        Text("каждый четверг бронируй 405 с 18 до 20", "every Thursday book 405 from 6pm to 8pm"),
        Text("какие у меня регулярные брони", "show my schedules"),
    )
    HELP = Text(
        "Я бронирую аудитории на университетском портале и слежу, чтобы брони не терялись.\n\n"
        "Что можно написать:\n{examples}\n\n"
        "Команды: /bookings — мои брони, /schedules — регулярные брони, /status — что сейчас "
        "выполняется, /cancel — отменить текущее, /settings — язык и часовой пояс.",
        "I book rooms on the university portal and make sure bookings are not lost.\n\n"
        "Things you can write:\n{examples}\n\n"
        "Commands: /bookings — my bookings, /schedules — recurring bookings, /status — what is "
        "running, /cancel — cancel the current request, /settings — language and time zone.",
    )
    GREETING = Text("Здравствуйте, {name}! ", "Hello, {name}! ")
    UNKNOWN = Text(
        "Я не понял запрос. Может быть, вы имели в виду:\n{closest}\n\nВсё, что я умею: /help",
        "I did not understand that. Perhaps you meant:\n{closest}\n\nEverything I can do: /help",
    )
    DECLINED = Text(
        "Хорошо, ничего не бронирую и ничего не меняю.",
        "All right: I'm not booking or changing anything.",
    )
    CAN_DO = Text(
        "А я умею бронировать аудитории, показывать и отменять брони, бронировать "
        "каждую неделю. Примеры: /help",
        "What I can do: book rooms, list and cancel bookings, book every week. Examples: /help",
    )
