"""The bot's own sentences (buttons, refusals, status, settings), in Russian and English.

The core writes its own texts (``core.texts``); these are only what the Telegram view adds.
"""

from __future__ import annotations

from core.commands import Lang

__all__ = ["COMMANDS", "lang_of", "t"]

_TEXTS: dict[str, tuple[str, str]] = {
    "other": ("Другое…", "Other…"),
    "cancel": ("Отмена", "Cancel"),
    "write_answer": ("Напишите ответ сообщением", "Type your answer as a message"),
    "chosen": ("{question}\n\n→ {label}", "{question}\n\n→ {label}"),
    "stale": ("Этот вопрос уже закрыт.", "This question is already closed."),
    "cancelling": ("Отменяю…", "Cancelling…"),
    "queued": ("в очереди", "queued"),
    "refusal": (
        "Простите, этот бот работает только для участников клуба. Если вы из клуба, попросите "
        "администратора добавить ваш Telegram id ({user_id}).",
        "Sorry, this bot only serves club members. If you are one, ask the admin to add your "
        "Telegram id ({user_id}).",
    ),
    "status_empty": (
        "Сейчас ничего не выполняется и ничего не ждёт ответа.",
        "Nothing is running or waiting for an answer right now.",
    ),
    "status_header": ("Текущие задачи:", "Current tasks:"),
    "status_waiting": ("ждёт ответа: {question}", "waiting for an answer: {question}"),
    "settings": (
        "Настройки\nЯзык: {language}\nЧасовой пояс: {timezone}\n\nВыберите язык и пояс кнопками "
        "или напишите, например, /settings Europe/Berlin.",
        "Settings\nLanguage: {language}\nTime zone: {timezone}\n\nPick a language and a zone "
        "below or send e.g. /settings Europe/Berlin.",
    ),
    "language_set": ("Язык: русский.", "Language: English."),
    "timezone_set": ("Часовой пояс: {tz}.", "Time zone: {tz}."),
    "error": ("{message}. {hint}", "{message}. {hint}"),
    "error_no_hint": ("{message}.", "{message}."),
    "apology": (
        "Простите, что-то пошло не так на моей стороне. Попробуйте ещё раз чуть позже.",
        "Sorry, something went wrong on my side. Please try again a bit later.",
    ),
}

# (command, Russian description, English description) for setMyCommands.
COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("start", "Начать и посмотреть примеры", "Start and see examples"),
    ("help", "Что я умею", "What I can do"),
    ("status", "Текущие задачи", "Current tasks"),
    ("cancel", "Отменить текущую задачу", "Cancel the current task"),
    ("bookings", "Мои брони", "My bookings"),
    ("schedules", "Регулярные брони", "Recurring bookings"),
    ("settings", "Язык и часовой пояс", "Language and time zone"),
)


def t(key: str, lang: Lang, **values: object) -> str:
    ru, en = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**values)


def lang_of(language_code: str | None) -> Lang:
    """Telegram's ``language_code`` ("en-US", "ru") to our language; Russian by default."""
    return "en" if language_code and language_code.lower().startswith("en") else "ru"
