"""The core's own user-facing sentences, in Russian and English."""

from __future__ import annotations

from core.commands import Lang

__all__ = ["text"]

_TEXTS: dict[str, tuple[str, str]] = {
    "not_configured": (
        "Этого я пока не умею: сценарий «{what}» не подключён. Напишите /help — там список того, "
        "что работает.",
        "I can't do that yet: the “{what}” scenario is not set up. Send /help for what works.",
    ),
    "cancelled": ("Отменено: {title}.", "Cancelled: {title}."),
    "nothing_to_cancel": ("Сейчас нечего отменять.", "There is nothing to cancel."),
    "expired": (
        "Вопрос «{question}» остался без ответа, и я отменил «{title}». Напишите заново, когда "
        "будет удобно.",
        "Nobody answered “{question}”, so I dropped “{title}”. Just ask again when convenient.",
    ),
    "invalid_answer": ("{reason}. {question}", "{reason}. {question}"),
    "stale_answer": ("Этот вопрос уже закрыт.", "This question is already closed."),
    "answer_taken": ("Принято: {label}", "Got it: {label}"),
    "apology": (
        "Простите, что-то пошло не так на моей стороне. Попробуйте ещё раз чуть позже.",
        "Sorry, something went wrong on my side. Please try again a bit later.",
    ),
    "failed": ("Не получилось: {reason}", "That did not work: {reason}"),
    "resumed": (
        "Я перезапустился и продолжаю «{title}» с того места, где остановился.",
        "I restarted and am carrying on with “{title}” where I left off.",
    ),
}


def text(key: str, lang: Lang, **values: object) -> str:
    ru, en = _TEXTS[key]
    return (ru if lang == "ru" else en).format(**values)
