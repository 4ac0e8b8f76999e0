"""What the views add: the Telegram bot's buttons, refusals, status, settings, the /login
dialogue and its command menu, and the terminal chat's hints."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["COMMANDS", "Bot", "Login", "Terminal"]


class Bot:
    OTHER = Text("Другое…", "Other…")
    WRITE_ANSWER = Text("Напишите ответ сообщением", "Type your answer as a message")
    CHOSEN = Text("{question}\n\n→ {label}", "{question}\n\n→ {label}")
    CANCELLING = Text("Отменяю…", "Cancelling…")
    QUEUED = Text("в очереди", "queued")
    REFUSAL = Text(
        "Простите, этот бот работает только для участников клуба. Если вы из клуба, попросите "
        "администратора добавить ваш Telegram id ({user_id}).",
        "Sorry, this bot only serves club members. If you are one, ask the admin to add your "
        "Telegram id ({user_id}).",
    )
    STATUS_EMPTY = Text(
        "Сейчас ничего не выполняется и ничего не ждёт ответа.",
        "Nothing is running or waiting for an answer right now.",
    )
    STATUS_HEADER = Text("Текущие задачи:", "Current tasks:")
    STATUS_WAITING = Text("ждёт ответа: {question}", "waiting for an answer: {question}")
    SETTINGS = Text(
        "Настройки\nЯзык: {language}\nЧасовой пояс: {timezone}\nНапоминания: {reminders}\n\n"
        "Выберите кнопками или напишите, например, /settings Europe/Berlin.",
        "Settings\nLanguage: {language}\nTime zone: {timezone}\nReminders: {reminders}\n\n"
        "Pick below or send e.g. /settings Europe/Berlin.",
    )
    REMINDERS_ON = Text("за 1 час до брони", "1 hour before a booking")
    REMINDERS_OFF = Text("выключены", "off")
    REMIND_BUTTON = Text("🔔 Напоминать за 1 час", "🔔 Remind me 1 hour before")
    REMINDERS_SET = Text(
        "Напомню за час до каждой брони.", "I will remind you an hour before each booking."
    )
    REMINDERS_UNSET = Text("Напоминания выключены.", "Reminders are off.")
    LANGUAGE_SET = Text("Язык: русский.", "Language: English.")
    TIMEZONE_SET = Text("Часовой пояс: {tz}.", "Time zone: {tz}.")
    UNKNOWN_TIMEZONE = Text(
        "Такого часового пояса нет, ничего не изменено.",
        "There is no such time zone; nothing was changed.",
    )
    SETTINGS_UNKNOWN = Text(
        "Не понял «{arg}». Можно так: /settings ru, /settings en или часовой пояс, например "
        "/settings Europe/Berlin — или выберите кнопкой ниже.",
        "I did not understand “{arg}”. You can send /settings ru, /settings en or a time zone "
        "such as /settings Europe/Berlin — or pick one below.",
    )
    TEXT_ONLY = Text(
        "Я понимаю только текст: напишите, что нужно, сообщением.",
        "I understand text only: please type what you need.",
    )
    UNKNOWN_BUTTON = Text("Эта кнопка больше не действует.", "This button does not work any more.")
    NEW_COMMAND = Text(
        "Я жду ответа на вопрос «{question}». Начать новое?",
        "I am waiting for an answer to “{question}”. Start a new request?",
    )
    NEW_COMMAND_YES = Text("Да, новое", "Yes, a new one")
    NEW_COMMAND_NO = Text("Нет, ответить на вопрос", "No, answer the question")
    EDIT_TOO_LATE = Text(
        "Изменённое сообщение я не учёл: оно уже обработано. Если нужно другое, напишите "
        "новым сообщением.",
        "I did not apply the edit: that message has been handled already. If you need "
        "something else, send it as a new message.",
    )
    ERROR = Text("{message}. {hint}", "{message}. {hint}")
    ERROR_NO_HINT = Text("{message}.", "{message}.")


class Login:
    """/login and /logout: the user's own portal account instead of the club's."""

    PRIVATE_ONLY = Text(
        "Вход на портал — только в личном чате со мной: напишите мне /login там.",
        "Portal login works only in a private chat with me: send me /login there.",
    )
    NO_KEY = Text(
        "Личный вход на портал пока недоступен: для хранения паролей нужен ключ шифрования. "
        "Попросите администратора задать SECURITY__ENCRYPTION_KEY (ключ печатает `clubman "
        "keygen`). Пока брони делаются от аккаунта клуба.",
        "Personal portal logins are not available yet: storing passwords needs an encryption "
        "key. Ask the admin to set SECURITY__ENCRYPTION_KEY (`clubman keygen` prints one). "
        "Until then bookings are made with the club's account.",
    )
    OFF = Text(
        "Личный вход на портал здесь не подключён; брони делаются от аккаунта клуба.",
        "Personal portal logins are not set up here; bookings use the club's account.",
    )
    USERNAME = Text("Имя пользователя на портале?", "Portal username?")
    PASSWORD = Text("Пароль? (сообщение будет удалено)", "Password? (the message will be deleted)")
    TEXT_ONLY = Text("Напишите текстом, пожалуйста.", "Please type it as text.")
    DELETED_ASK_AGAIN = Text(
        "Удалил это сообщение: в нём мог быть пароль. Пароль отправьте обычным текстовым "
        "сообщением (не подписью к файлу и не пересылкой).",
        "I deleted that message: it may have held the password. Send the password as a plain "
        "text message (not a caption, not a forward).",
    )
    DELETE_IT = Text(
        "Не получилось удалить сообщение с паролем — удалите его, пожалуйста, сами: оно "
        "остаётся в истории чата и его могут увидеть.",
        "I could not delete the message with the password: please delete it yourself, it stays "
        "in the chat's history where others may see it.",
    )
    CHECKING = Text("Проверяю вход на портале…", "Checking the login on the portal…")
    SAVED = Text(
        "Сохранено, брони будут делаться от имени {username}.",
        "Saved, bookings will be made as {username}.",
    )
    REJECTED = Text(
        "Портал не принял имя пользователя или пароль, ничего не сохранено. Попробуйте ещё "
        "раз: /login",
        "The portal did not accept that username or password; nothing was saved. Try again: /login",
    )
    LOCKED = Text(
        "Портал временно заблокировал вход после неудачных попыток, ничего не сохранено. "
        "Попробуйте позже: /login",
        "The portal has blocked logins for a while after failed attempts; nothing was saved. "
        "Try again later: /login",
    )
    UNAVAILABLE = Text(
        "Не получилось проверить вход: портал сейчас недоступен. Ничего не сохранено, "
        "попробуйте позже: /login",
        "Could not check the login: the portal is not reachable right now. Nothing was saved; "
        "try again later: /login",
    )
    CANCELLED = Text("Вход отменён, ничего не сохранено.", "Login cancelled, nothing saved.")
    LOGGED_OUT = Text(
        "Ваш вход на портал забыт; брони снова делаются от аккаунта клуба.",
        "Your portal login is forgotten; bookings are made with the club's account again.",
    )
    NOT_LOGGED_IN = Text(
        "Личного входа не было: брони делаются от аккаунта клуба.",
        "You had no personal login: bookings are made with the club's account.",
    )
    HELP = Text(
        "Вход на портал: /login — брони от вашего имени (в личном чате), /logout — снова от "
        "аккаунта клуба.",
        "Portal login: /login — bookings in your own name (in a private chat), /logout — back "
        "to the club's account.",
    )


# (command, description) for Telegram's command menu (setMyCommands), in menu order; the
# registered jobs' own commands (``Shortcut``) follow /cancel.
COMMANDS: tuple[tuple[str, Text], ...] = (
    ("start", Text("Начать и посмотреть примеры", "Start and see examples")),
    ("help", Text("Что я умею", "What I can do")),
    ("status", Text("Текущие задачи", "Current tasks")),
    ("cancel", Text("Отменить текущую задачу", "Cancel the current task")),
    ("settings", Text("Язык и часовой пояс", "Language and time zone")),
    ("login", Text("Войти на портал под своим именем", "Log in to the portal as yourself")),
    ("logout", Text("Бронировать от аккаунта клуба", "Book with the club's account")),
)


class Terminal:
    """The terminal chat (``clubman chat``)."""

    OPTION_HINT = Text("номер варианта или свой ответ", "an option's number or your own answer")
    NOTHING_RUNNING = Text("Сейчас ничего не выполняется.", "Nothing is running.")
    QUIT = Text("/quit — выход / exit", "/quit — выход / exit")
    LOG_FILE = Text("Журнал работы: {path} (--verbose — здесь)", "Log: {path} (--verbose: here)")
