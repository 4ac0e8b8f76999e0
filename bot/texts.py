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
    "login_private": (
        "Вход на портал — только в личном чате со мной: напишите мне /login там.",
        "Portal login works only in a private chat with me: send me /login there.",
    ),
    "login_no_key": (
        "Личный вход на портал пока недоступен: для хранения паролей нужен ключ шифрования. "
        "Попросите администратора задать SECURITY__ENCRYPTION_KEY (ключ печатает `clubman "
        "keygen`). Пока брони делаются от аккаунта клуба.",
        "Personal portal logins are not available yet: storing passwords needs an encryption "
        "key. Ask the admin to set SECURITY__ENCRYPTION_KEY (`clubman keygen` prints one). "
        "Until then bookings are made with the club's account.",
    ),
    "login_off": (
        "Личный вход на портал здесь не подключён; брони делаются от аккаунта клуба.",
        "Personal portal logins are not set up here; bookings use the club's account.",
    ),
    "login_username": ("Имя пользователя на портале?", "Portal username?"),
    "login_password": (
        "Пароль? (сообщение будет удалено)",
        "Password? (the message will be deleted)",
    ),
    "login_text_only": ("Напишите текстом, пожалуйста.", "Please type it as text."),
    "login_checking": ("Проверяю вход на портале…", "Checking the login on the portal…"),
    "login_saved": (
        "Сохранено, брони будут делаться от имени {username}.",
        "Saved, bookings will be made as {username}.",
    ),
    "login_rejected": (
        "Портал не принял имя пользователя или пароль, ничего не сохранено. Попробуйте ещё "
        "раз: /login",
        "The portal did not accept that username or password; nothing was saved. Try again: /login",
    ),
    "login_locked": (
        "Портал временно заблокировал вход после неудачных попыток, ничего не сохранено. "
        "Попробуйте позже: /login",
        "The portal has blocked logins for a while after failed attempts; nothing was saved. "
        "Try again later: /login",
    ),
    "login_unavailable": (
        "Не получилось проверить вход: портал сейчас недоступен. Ничего не сохранено, "
        "попробуйте позже: /login",
        "Could not check the login: the portal is not reachable right now. Nothing was saved; "
        "try again later: /login",
    ),
    "login_cancelled": ("Вход отменён, ничего не сохранено.", "Login cancelled, nothing saved."),
    "logout_done": (
        "Ваш вход на портал забыт; брони снова делаются от аккаунта клуба.",
        "Your portal login is forgotten; bookings are made with the club's account again.",
    ),
    "logout_none": (
        "Личного входа не было: брони делаются от аккаунта клуба.",
        "You had no personal login: bookings are made with the club's account.",
    ),
    "help_login": (
        "Вход на портал: /login — брони от вашего имени (в личном чате), /logout — снова от "
        "аккаунта клуба.",
        "Portal login: /login — bookings in your own name (in a private chat), /logout — back "
        "to the club's account.",
    ),
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
    ("login", "Войти на портал под своим именем", "Log in to the portal as yourself"),
    ("logout", "Бронировать от аккаунта клуба", "Book with the club's account"),
)


def t(key: str, lang: Lang, **values: object) -> str:
    ru, en = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**values)


def lang_of(language_code: str | None) -> Lang:
    """Telegram's ``language_code`` ("en-US", "ru") to our language; Russian by default."""
    return "en" if language_code and language_code.lower().startswith("en") else "ru"
