"""What the booking job says: booking rooms, listing and cancelling bookings, reminders;
why a request breaks the booking system's rules; how many days, how long. (The calendar
offer, which the views show, is ``core.texts``.)"""

from __future__ import annotations

import datetime as dt

from core.commands import Lang
from core.texts import Text, tr

__all__ = [
    "Book",
    "BookingGuide",
    "Bookings",
    "Limits",
    "Remind",
    "days",
    "duration",
    "join_rooms",
    "span",
]


# Pieces that read the same in every language (days are ``core.texts.day_label``).
def span(start: dt.time, end: dt.time) -> str:
    return f"{start:%H:%M}–{end:%H:%M}"


def join_rooms(numbers: list[str]) -> str:
    return ", ".join(numbers)


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


class BookingGuide:
    """What /help says of the booking job: a line, and requests one can write."""

    ABOUT = Text(
        "Я бронирую аудитории на университетском портале и слежу, чтобы брони не терялись. "
        "Мои брони — /bookings, регулярные брони — /schedules.",
        "I book rooms on the university portal and make sure bookings are not lost. "
        "My bookings: /bookings, recurring bookings: /schedules.",
    )
    BOOK: tuple[Text, ...] = (
        Text(
            "забронируй 3 аудитории рядом в этот четверг с 18 до 20",
            "book two adjacent rooms next Friday 10-12",
        ),
        Text("нужна 301 в среду с 12:00 до 13:30", "reserve room 207 in Chaikovsky tomorrow 9-10"),
    )
    LIST = Text("мои брони", "my bookings")
    CANCEL = Text("отмени бронь на пятницу", "cancel my booking on Friday")
    SCHEDULE = Text(
        "каждый четверг бронируй 405 с 18 до 20", "every Thursday book 405 from 6pm to 8pm"
    )
    SCHEDULES = Text("какие у меня регулярные брони", "show my schedules")


class Remind:
    """Reminders of upcoming bookings («напоминать за 1 час» in /settings)."""

    UPCOMING = Text(
        "🔔 Напоминание: {when}, {place}: {rooms}.",
        "🔔 Reminder: {when}, {place}: {rooms}.",
    )
    TODAY = Text("сегодня {span}", "today {span}")
    ON_DAY = Text("{day} {span}", "{day} {span}")


class Book:
    """The ``book_rooms`` scenario."""

    TITLE = Text("Бронирование аудиторий", "Booking rooms")
    STEP_LOGIN = Text("Вход на портал", "Logging in")
    STEP_FIND = Text("Поиск свободных аудиторий", "Finding free rooms")
    STEP_BOOK = Text("Бронирование", "Booking")
    NO_BUILDINGS = Text("на портале не нашлось ни одного корпуса", "the portal lists no buildings")
    NO_ACCOUNT = Text(
        "у клуба нет учётной записи портала. Отправьте /login в личном чате со мной, и я буду "
        "бронировать от вашего имени",
        "the club has no portal account. Send /login in a private chat with me and I will book "
        "in your name",
    )
    STEP_VERIFY = Text("Проверка в «Мои брони»", "Checking «My bookings»")
    AS_USUAL = Text("Как обычно: {building}", "As usual: {building}")
    ANY_BUILDING = Text("Любой", "Any")
    ONE_ROOM = Text("аудитории", "a room")
    SOME_ROOMS = Text("{count} аудит.", "{count} rooms")
    NO_BUILDING = Text("ни в одном корпусе", "in any building")
    NOTHING_FREE = Text(
        "Нет свободных: {what}, {where}, {when}, и рядом по времени и датам тоже",
        "Nothing free: {what}, {where}, {when}, nor at nearby times or dates",
    )
    NOT_AVAILABLE = Text(
        "Не нашлось: {what}, {where}, {when}. Можно так:",
        "Not available: {what}, {where}, {when}. Options:",
    )
    NOT_VERIFIED = Text(
        "Брони № {numbers} сделаны (сайт назвал их номера), но не видны в «Мои брони»: "
        "проверьте их на сайте.",
        "Bookings no. {numbers} were made (the site gave their numbers) but are not in «My "
        "bookings»: please check them on the site.",
    )
    UNCONFIRMED = Text(
        "Бронь {room} ({where}) отправлена на сайт, но сайт не показал, сделана ли она. "
        "Снова я её не отправляю, чтобы не забронировать дважды: проверьте «Мои брони» на "
        "сайте.",
        "Room {room} ({where}) was sent to the site, but the site did not show whether it "
        "was booked. I am not sending it again, so as not to book it twice: please check "
        "«My bookings» on the site.",
    )
    BOOKED_BEFORE = Text("Забронированы: {rooms}.", "Booked: {rooms}.")
    NOT_CHECKED = Text(
        "Брони {rooms} сделаны (сайт назвал их номера), но проверить их не удалось: «Мои "
        "брони» не читаются ({reason}), и сетка дня их не показывает. Проверьте их на сайте.",
        "Rooms {rooms} were booked (the site gave their numbers), but I could not check them: "
        "«My bookings» cannot be read ({reason}), and the day's grid does not show them. "
        "Please check them on the site.",
    )
    BOOKED_ONE = Text("Забронирована {rooms} ({where})", "Booked {rooms} ({where})")
    BOOKED_MANY = Text("Забронированы {rooms} ({where})", "Booked {rooms} ({where})")


class Bookings:
    """The ``list_bookings`` and ``cancel_booking`` scenarios."""

    MENU = Text("Мои брони", "My bookings")  # /bookings in the command menu

    PENDING = Text(" (ждёт подтверждения)", " (awaiting approval)")
    LIST_TITLE = Text("Мои брони", "My bookings")
    STEP_READ = Text("Чтение «Мои брони»", "Reading «My bookings»")
    NONE_ON_DAY = Text("На {day} броней нет.", "No bookings on {day}.")
    NONE = Text("Активных броней нет.", "You have no active bookings.")
    HEAD = Text("Ваши брони:", "Your bookings:")
    CANCEL_TITLE = Text("Отмена брони", "Cancelling a booking")
    STEP_CHOOSE = Text("Поиск брони", "Finding the booking")
    STEP_CANCEL = Text("Отмена на портале", "Cancelling on the portal")
    NOT_FOUND = Text("не нашёл такой брони в «Мои брони»", "no such booking in «My bookings»")
    NOT_YOURS = Text(
        "эту бронь сделал другой участник: отменить её может он сам или администратор клуба",
        "another member made that booking: only they or a club admin can cancel it",
    )
    WHICH = Text("Какую бронь отменить?", "Which booking should I cancel?")
    CONFIRM = Text("Отменить {what}?", "Cancel {what}?")
    STILL_THERE = Text(
        "бронь № {number} всё ещё в «Мои брони»", "booking {number} is still in «My bookings»"
    )
    CANCELLED = Text("Отменена бронь: {what}.", "Cancelled: {what}.")
    CANCELLED_MANY = Text("Отменены брони: {what}.", "Cancelled: {what}.")
    WHICH_ROOMS = Text(
        "Отменить все аудитории этой брони или одну?",
        "Cancel all rooms of this booking, or one?",
    )
    ALL_ROOMS = Text("Отменить все {count}", "Cancel all {count}")
    # «Отменить все три»: the words people say for the few counts a request usually has
    ALL_ROOMS_WORDS = {
        2: Text("Отменить обе", "Cancel both"),
        3: Text("Отменить все три", "Cancel all three"),
        4: Text("Отменить все четыре", "Cancel all four"),
    }
    ONE_ROOM = Text("Только {room}", "Only {room}")
    KEPT = Text("Хорошо, ничего не отменяю.", "OK, nothing cancelled.")


def _singular(count: int, lang: Lang) -> bool:
    """Whether ``count`` takes the singular form (Russian: 1, 21, 31… but not 11)."""
    match lang:
        case "ru":
            return count % 10 == 1 and count % 100 != 11
        case _:
            return count == 1


def days(count: int, lang: Lang) -> str:
    """«1 день», «3 дня», «30 дней» / "1 day", "3 days"."""
    if _singular(count, lang):
        return tr(Limits.DAYS_ONE, lang, count=count)
    few = lang == "ru" and count % 10 in (2, 3, 4) and count % 100 not in (12, 13, 14)
    return tr(Limits.DAYS_FEW if few else Limits.DAYS_MANY, lang, count=count)


def duration(minutes: int, lang: Lang) -> str:
    """«4 часов» / "4 hours": whole hours when they are, else minutes (after «не длиннее»)."""
    hours, rest = divmod(minutes, 60)
    if rest:
        count, one, many = minutes, Limits.MINUTES_ONE, Limits.MINUTES_MANY
    else:
        count, one, many = hours, Limits.HOURS_ONE, Limits.HOURS_MANY
    return tr(one if _singular(count, lang) else many, lang, count=count)
