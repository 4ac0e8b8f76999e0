"""The rules a booking request must meet (the parser's bounds share them) and the calendar
offer a finished run shows in the views. The booking job's own sentences are its own
(``scenarios.booking.texts``)."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Calendar", "Limits"]


class Calendar:
    """Bookings in the user's calendar (an ``.ics`` file)."""

    TITLE = Text("Аудитория {room}", "Room {room}")
    OFFER = Text("📅 В календарь", "📅 Add to calendar")
    FILE = Text(
        "Файл для календаря: откройте его, и брони появятся там.",
        "Open this file to add the bookings to your calendar.",
    )


class Limits:
    """Why a booking request breaks the booking system's rules."""

    NO_SUCH_BUILDING = Text("Такого корпуса нет", "There is no such building")
    UNKNOWN_ROOM = Text("Аудитории {number} я не знаю", "I don't know room {number}")
    UNKNOWN_BUILDING = Text("Корпуса «{name}» я не знаю", "I don't know the building “{name}”")
    NEEDS_APPROVAL = Text(
        "Аудиторию {number} бронируют только с подтверждением администратора, такие я не "
        "бронирую — это можно сделать на сайте",
        "Room {number} is booked only with an administrator's approval, which I do not "
        "do — book it on the site",
    )
    DATE_PASSED = Text("Эта дата уже прошла", "That date has passed")
    TOO_FAR = Text(
        "Бронировать можно не дальше чем на {days} вперёд",
        "Rooms can be booked at most {days} ahead",
    )
    STEP = Text("Время должно быть кратно {minutes} минутам", "Times go in {minutes}-minute steps")
    OPEN_HOURS = Text("Аудитории доступны с {opens} до {closes}", "Rooms are open {opens}–{closes}")
    END_BEFORE_START = Text("Конец должен быть позже начала", "The end must be after the start")
    TOO_LONG = Text("Бронь не длиннее {longest}", "A booking lasts at most {longest}")
    # A count or capacity out of bounds is asked again with one of these, never clamped.
    TOO_MANY_ROOMS = Text(
        "Можно забронировать до {most} аудиторий сразу", "I can book up to {most} rooms at once"
    )
    NO_ROOMS = Text(
        "Число аудиторий должно быть от 1 до {most}", "The number of rooms must be 1 to {most}"
    )
    NO_PEOPLE = Text(
        "Число человек должно быть больше нуля", "The number of people must be above zero"
    )
    TOO_MANY_PEOPLE = Text(
        "В самой большой аудитории мест: {most}", "The largest room seats {most} people"
    )
    # What follows «не длиннее» (the genitive) / "at most": one or many hours or minutes.
    HOURS_ONE = Text("{count} часа", "{count} hour")
    HOURS_MANY = Text("{count} часов", "{count} hours")
    MINUTES_ONE = Text("{count} минуты", "{count} minute")
    MINUTES_MANY = Text("{count} минут", "{count} minutes")
    # How many days ahead: «1 день», «3 дня», «30 дней».
    DAYS_ONE = Text("{count} день", "{count} day")
    DAYS_FEW = Text("{count} дня", "{count} days")
    DAYS_MANY = Text("{count} дней", "{count} days")
