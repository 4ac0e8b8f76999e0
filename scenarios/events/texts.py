"""What the events scenarios say, in Russian and English."""

from __future__ import annotations

from core.texts import Text

__all__ = ["EventTexts"]


class EventTexts:
    CREATE_TITLE = Text("Создание мероприятия", "Creating an event")
    LIST_TITLE = Text("Мероприятия клуба", "The club's events")
    REGISTRATION_TITLE = Text("Регистрация на мероприятие", "Event registration")
    COUNT_TITLE = Text("Записавшиеся на мероприятие", "Event registrations")
    CANCEL_TITLE = Text("Отмена мероприятия", "Cancelling an event")

    STEP_LOGIN = Text("Вход на сайт", "Signing in to the site")
    STEP_CREATE = Text("Создание мероприятия", "Creating the event")
    STEP_READ = Text("Чтение мероприятий", "Reading the events")
    STEP_CHOOSE = Text("Выбор мероприятия", "Choosing the event")
    STEP_OPEN = Text("Открытие регистрации", "Opening registration")
    STEP_COUNT = Text("Подсчёт записавшихся", "Counting registrations")
    STEP_CANCEL = Text("Отмена мероприятия", "Cancelling the event")

    ASK_TITLE = Text("Как назвать мероприятие?", "What is the event called?")
    ASK_ROOM = Text(
        "В какой аудитории? Напишите номер, например 7-703.",
        "Which room? Write its number, e.g. 7-703.",
    )
    NO_ROOM = Text("Без аудитории", "No room")
    ASK_EVENT = Text("Какое мероприятие?", "Which event?")
    # Reasons an answer is asked again for (the question follows them).
    PAST = Text("Эта дата уже прошла", "That day has passed")
    END_BEFORE_START = Text("Конец должен быть позже начала", "The end must be after the start")
    NO_TITLE = Text("Нужно название словами", "The title must be words")
    TITLE_LINES = Text(
        "Название должно быть одной строкой, без переносов",
        "The title must be one line, with no line breaks",
    )
    TITLE_CONTROL = Text(
        "В названии есть невидимый управляющий символ ({code}), напишите его обычными знаками",
        "The title has an invisible control character ({code}); please use plain characters",
    )
    TITLE_LONG = Text(
        "Название слишком длинное (символов: {length}, можно не больше {longest})",
        "The title is too long ({length} characters, at most {longest})",
    )
    UNKNOWN_ROOM = Text("Аудитории {room} на сайте нет", "The site has no room {room}")
    SEVERAL_ROOMS = Text(
        "Аудитория {room} есть в нескольких корпусах: {rooms}",
        "There is a room {room} in several buildings: {rooms}",
    )
    ROOM_TAKEN = Text(
        "{room} в это время занята. Выберите другую аудиторию:",
        "{room} is taken at that time. Choose another room:",
    )
    CREATED = Text(
        "Создано мероприятие «{title}»: {when}{where}.\n{url}",
        "Created the event “{title}”: {when}{where}.\n{url}",
    )
    IN_ROOM = Text(", аудитория {room}", ", room {room}")
    NONE = Text("У клуба нет предстоящих мероприятий.", "The club has no upcoming events.")
    NONE_YOURS = Text(
        "У вас нет предстоящих мероприятий, созданных через меня.",
        "You have no upcoming events created through me.",
    )
    # Another's event named in a request: said plainly, not asked «which one?».
    NOT_YOURS = Text(
        "Это мероприятие создано не вами: открывать регистрацию, считать записавшихся и "
        "отменять я могу только на мероприятиях, созданных вами через меня.",
        "This event was not created by you: I open registration, count registrations and "
        "cancel only for events you created through me.",
    )
    NOT_CLUBS = Text(
        "Это мероприятие создано не клубом: я распоряжаюсь только мероприятиями, "
        "созданными через меня.",
        "This event was not created by the club: I manage only events created through me.",
    )
    ROOM_NOT_BOOKED = Text(
        "Аудиторию {room} для мероприятия «{title}» забронировать не удалось ({reason}), "
        "поэтому мероприятие удалено с сайта: от этой заявки там ничего не осталось.",
        "The room {room} for the event “{title}” could not be booked ({reason}), so the "
        "event was deleted from the site: nothing of this request is left there.",
    )
    SITE_FAILED = Text("сайт ответил ошибкой", "the site answered with an error")
    LEFT_BEHIND = Text(
        "Мероприятие «{title}» создано ({when}, {url}), но аудиторию {room} забронировать "
        "не удалось ({reason}), и удалить мероприятие тоже не получилось: оно осталось на "
        "сайте без аудитории. Удалите его там или напишите мне «отмени мероприятие "
        "«{title}»».",
        "The event “{title}” was created ({when}, {url}), but the room {room} could not be "
        "booked ({reason}) and the event could not be deleted either: it stays on the site "
        "without its room. Delete it there, or write to me “cancel the event "
        '"{title}"”.',
    )
    HEAD = Text("Мероприятия клуба:", "The club's events:")
    NOT_FOUND = Text(
        "Не нашёл такого предстоящего мероприятия клуба.",
        "I found no such upcoming event of the club.",
    )
    OPENED = Text(
        "Регистрация на «{title}» открыта{limit}.\n{url}",
        "Registration for “{title}” is open{limit}.\n{url}",
    )
    LIMIT = Text(" (до {limit} человек)", " (up to {limit} people)")
    BAD_LIMIT = Text(
        "Лимит должен быть от 1 до 10000 человек", "The limit must be 1 to 10000 people"
    )
    ASK_LIMIT = Text("Сколько человек можно записать?", "How many people may register?")
    COUNTED = Text("На «{title}» записалось: {count}.", "Registered for “{title}”: {count}.")
    CONFIRM = Text(
        "Отменить мероприятие «{title}» ({when})? Оно будет удалено, аудитория освободится.",
        "Cancel the event “{title}” ({when})? It will be deleted and its room freed.",
    )
    CANCELLED = Text("Мероприятие «{title}» отменено.", "The event “{title}” is cancelled.")
    KEPT = Text("Хорошо, мероприятие «{title}» остаётся.", "All right, “{title}” stays as it is.")
    UNSUPPORTED = Text(
        "Этот сайт не умеет мероприятия: я могу здесь только бронировать аудитории. "
        "Что я умею: /help",
        "This site has no events: here I can only book rooms. What I can do: /help",
    )
    NO_ACCOUNT = Text(
        "Для мероприятий нужна учётная запись клуба на сайте, а она не настроена.",
        "Events need the club's account on the site, and none is configured.",
    )

    EXAMPLES: tuple[Text, ...] = (
        Text(
            "создай мероприятие «Открытое занятие по робототехнике» в четверг с 18 до 20 в 7-703",
            'create an event "Robotics open class" on Thursday 18-20 in 7-703',
        ),
        Text("мои мероприятия", "my events"),
        Text(
            "открой регистрацию на «Открытое занятие» до 30 человек",
            'open registration for "Robotics open class" up to 30 people',
        ),
        Text("сколько записалось на «Открытое занятие»", 'how many registered for "Robotics"'),
        Text("отмени мероприятие «Открытое занятие»", 'cancel the event "Robotics open class"'),
    )
