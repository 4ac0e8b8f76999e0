"""What the core says about a run: refusals, cancels, answers, failures, and the brain's
questions about unexpected portal pages."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Page", "Run"]


class Run:
    """The run's life: started, answered, cancelled, expired, failed, resumed."""

    NOT_CONFIGURED = Text(
        "Этого я пока не умею: сценарий «{what}» не подключён. Напишите /help — там список того, "
        "что работает.",
        "I can't do that yet: the “{what}” scenario is not set up. Send /help for what works.",
    )
    CANCELLED = Text("Отменено: {title}.", "Cancelled: {title}.")
    CORRECTED = Text(
        "Учёл исправление: «{title}» начинаю заново.",
        "Got the correction: starting “{title}” over.",
    )
    NOTHING_TO_CANCEL = Text("Сейчас нечего отменять.", "There is nothing to cancel.")
    NOT_YOUR_QUESTION = Text(
        "Это вопрос к другому участнику: ответить на него может он сам или администратор чата.",
        "That question is for another member: only they or a chat admin can answer it.",
    )
    NOT_YOURS = Text(
        "Это запрос другого участника: отменить его может он сам или администратор чата.",
        "That is another member's request: only they or a chat admin can cancel it.",
    )
    EXPIRED = Text(
        "Вопрос «{question}» остался без ответа, и я отменил «{title}». Напишите заново, когда "
        "будет удобно.",
        "Nobody answered “{question}”, so I dropped “{title}”. Just ask again when convenient.",
    )
    INVALID_ANSWER = Text("{reason}. {question}", "{reason}. {question}")
    STALE_ANSWER = Text("Этот вопрос уже закрыт.", "This question is already closed.")
    ANSWER_TAKEN = Text("Принято: {label}", "Got it: {label}")
    DOES_NOT_FIT = Text("Не подходит", "That does not fit")
    CHOOSE_OPTION = Text("Выберите один из вариантов кнопкой", "Please pick one of the options")
    APOLOGY = Text(
        "Простите, что-то пошло не так на моей стороне. Попробуйте ещё раз чуть позже.",
        "Sorry, something went wrong on my side. Please try again a bit later.",
    )
    FAILED = Text("Не получилось: {reason}", "That did not work: {reason}")
    BROWSER_TROUBLE = Text(
        "у меня не сработал браузер, которым я работаю с порталом. Попробуйте ещё раз чуть позже",
        "the browser I use for the portal failed on my side. Please try again a bit later",
    )
    PAUSED_OUTAGE = Text(
        "У меня временные неполадки, «{title}» на паузе. Я продолжу сам, как только они "
        "пройдут, и пришлю результат — писать заново не нужно.",
        "I have a temporary fault, so “{title}” is paused. I will carry on by myself as soon "
        "as it passes and send you the result: no need to ask again.",
    )
    TEMPORARILY_DOWN = Text(
        "У меня временные неполадки, и сейчас я не могу это сделать. Попробуйте через минуту — "
        "то, что уже сделано, не потеряется.",
        "I have a temporary fault and cannot do that right now. Please try again in a minute: "
        "nothing already done is lost.",
    )
    RESUMED = Text(
        "Я перезапустился и продолжаю «{title}» с того места, где остановился.",
        "I restarted and am carrying on with “{title}” where I left off.",
    )


class Page:
    """The brain's words about a portal page the step did not expect."""

    UNEXPECTED = Text(
        "Портал показал неожиданную страницу «{what}». Что сделать?",
        "The portal showed an unexpected page «{what}». What should I do?",
    )
    PRESS = Text("нажать «{name}»", "press «{name}»")
    TICK_AND = Text("Отметить {ticked} и {press}", "Tick {ticked} and {press}")
    OPEN = Text("Перейти: «{name}»", "Open «{name}»")
    ABORT = Text("Отменить", "Cancel")
    COULD_NOT = Text("Не получилось", "Could not do it")
    STOPPED_BY_USER = Text("Остановлено по вашему выбору", "Stopped as you chose")
    STILL_THERE = Text(
        "я остановился на странице портала «{what}»: выбранное действие не помогло пройти "
        "её, и второй раз о ней я спрашивать не стану. Загляните на портал сами или напишите "
        "администратору бота",
        "I stopped on the portal page «{what}»: the chosen action did not get past it, and I "
        "will not ask about it a second time. Please look at the portal yourself or tell the "
        "bot's administrator",
    )
    HARM_STOPPED = Text(
        "я остановился на странице портала «{what}»: действие на ней пыталось изменить ваши "
        "брони или данные, и я его не пропустил. На портал ничего не отправлено, и это действие "
        "я не запомнил. Загляните на портал сами или напишите администратору бота",
        "I stopped on the portal page «{what}»: an action there tried to change your bookings "
        "or data, and I did not let it through. Nothing was sent to the portal and I did not "
        "remember the action. Please look at the portal yourself or tell the bot's administrator",
    )
