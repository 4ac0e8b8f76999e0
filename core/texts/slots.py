"""Clarifying questions, one per slot, and why an answer to one was not understood."""

from __future__ import annotations

from core.texts.base import Text

__all__ = ["Ask", "Reason"]


class Ask:
    """The question that asks for a slot."""

    DATE = Text("На какую дату?", "For which date?")
    START = Text("Во сколько начать?", "What time should it start?")
    END = Text("До скольки?", "Until what time?")
    ROOMS = Text("Сколько аудиторий нужно?", "How many rooms do you need?")
    ADJACENT = Text("Аудитории должны быть рядом?", "Should the rooms be next to each other?")
    BUILDING = Text("В каком корпусе?", "In which building?")
    ROOM = Text("Какая аудитория?", "Which room?")
    CAPACITY = Text("На сколько человек?", "For how many people?")
    RECURRENCE = Text("По каким дням недели?", "On which days of the week?")
    # A weekday and the date said with it disagree; ``first`` and ``second``: ``day_label``s.
    WHICH_DATE = Text(
        "День недели и дата не совпадают: {first} или {second}?",
        "The weekday and the date do not match: {first} or {second}?",
    )


class Reason:
    """Why an answer to a question could not be read (shown before the question again)."""

    DATE = Text("Не понял дату — например, «завтра» или «27.11»", "I could not read a date")
    PAST = Text("Эта дата уже прошла", "That date has already passed")
    TIME = Text("Не понял время — например, «18:00»", "I could not read a time, e.g. 18:00")
    NUMBER = Text("Нужно число", "A number, please")
    ROOMS = Text("Можно от 1 до {most} аудиторий", "From 1 to {most} rooms")
    BUILDING = Text("Не знаю такой корпус", "I do not know that building")
    ROOM = Text("Не понял номер аудитории", "I could not read a room number")
    YESNO = Text("Ответьте «да» или «нет»", "Please answer yes or no")
    WEEKDAYS = Text("Не понял дни недели", "I could not read the days of the week")
    SLOT = Text("Не понял ответ", "I could not understand the answer")
