"""Recurring bookings: the scenarios that create, list and stop them, and the scheduler's
own words (the list's buttons, a schedule's label, a firing's note)."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Schedules"]


class Schedules:
    MENU = Text("Регулярные брони", "Recurring bookings")  # /schedules in the command menu
    CREATE_TITLE = Text("Регулярная бронь", "Recurring booking")
    STEP_CREATE = Text("Создание", "Creating")
    CONFIRM_CREATE = Text(
        "Создать регулярную бронь: каждую неделю {what}? Каждую дату бронирую, как только "
        "портал её откроет (за {days} дн.).",
        "Create a recurring booking: every week {what}? I book each date as soon as the "
        "portal opens it ({days} days ahead).",
    )
    CREATE = Text("Создать", "Create")
    NOT_CREATED = Text("Хорошо, не создаю.", "OK, not created.")
    CREATED = Text(
        "Регулярная бронь создана: {label}. Список и пауза: /schedules",
        "Recurring booking created: {label}. List and pause: /schedules",
    )
    # The weekday buttons of «По каким дням недели?» (in English, the weekday codes).
    DAY_BUTTONS: tuple[Text, ...] = (
        Text("пн", "mon"),
        Text("вт", "tue"),
        Text("ср", "wed"),
        Text("чт", "thu"),
        Text("пт", "fri"),
        Text("сб", "sat"),
        Text("вс", "sun"),
    )

    LIST_TITLE = Text("Регулярные брони", "Recurring bookings")
    STEP_LOAD = Text("Чтение списка", "Reading the list")
    STEP_ACT = Text("Управление", "Managing")
    HEAD = Text("Регулярные брони:", "Recurring bookings:")
    NONE = Text(
        "Регулярных броней нет. Например: «каждый четверг бронируй 405 с 18 до 20».",
        "No recurring bookings. For example: “every Thursday book 405 from 6pm to 8pm”.",
    )

    STOP_TITLE = Text("Отключение регулярной брони", "Stopping a recurring booking")
    STEP_CHOOSE = Text("Выбор", "Choosing")
    STEP_STOP = Text("Отключение", "Stopping")
    NOT_FOUND = Text("нет регулярных броней", "there are no recurring bookings")
    NOT_FOUND_ON = Text(
        "нет регулярных броней на {days}", "there are no recurring bookings on {days}"
    )
    WHICH = Text("Какую регулярную бронь отключить?", "Which recurring booking to stop?")
    STEP_CONFIRM_STOP = Text("Подтверждение", "Confirmation")
    CONFIRM_DELETE = Text(
        "Удалить регулярную бронь {label}?", "Delete the recurring booking {label}?"
    )
    CONFIRM_STOP_ON = Text(
        "Отключить регулярную бронь {label} по дням: {days}?",
        "Stop the recurring booking {label} on {days}?",
    )
    NOT_STOPPED = Text("Хорошо, регулярную бронь не трогаю.", "OK, the recurring booking stays.")
    DELETED = Text(
        "Регулярная бронь удалена: {label}. Уже сделанные брони остались.",
        "Recurring booking deleted: {label}. Bookings already made stay.",
    )
    STOPPED_ON = Text(
        "Отключено по дням: {days}. Осталось: {label}.", "Stopped on: {days}. Left: {label}."
    )

    # The scheduler's list (``actions.py``): a line's state and its buttons.
    ACTIVE = Text("активна", "active")
    PAUSED = Text("на паузе", "paused")
    PAUSE = Text("⏸ Пауза: {label}", "⏸ Pause: {label}")
    RESUME = Text("▶ Возобновить: {label}", "▶ Resume: {label}")
    DELETE = Text("🗑 Удалить: {label}", "🗑 Delete: {label}")
    DONE = Text("✅ Готово", "✅ Done")
    # A schedule's label (``entry.py``): several rooms, any building.
    SOME_ROOMS = Text("{count} ауд.", "{count} rooms")
    SOME_ROOMS_ADJACENT = Text("{count} ауд. рядом", "{count} rooms adjacent")
    ANY_BUILDING = Text("любой корпус", "any building")
    # What a firing's run says it is (``firing.py``); ``day`` from ``day_label``.
    FIRING = Text("Регулярная бронь: {day}, {what}", "Recurring booking: {day}, {what}")
