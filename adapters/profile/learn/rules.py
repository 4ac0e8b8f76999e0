"""The booking rules when the day's page does not state them in words the draft reads:
an LLM's reading of the page, where one is configured, for the operator to keep or
replace (``adapters.profile.learn.proposals``); else, or then, the operator writes them
(«08:00-22:00, шаг 30 минут, не более 4 часов, на 14 дней вперёд»; Enter: the usual)."""

from __future__ import annotations

import contextlib
from collections.abc import Awaitable, Callable

from pydantic import ValidationError

from adapters.profile.learn.pages import unread_rules, written_rules
from adapters.profile.learn.proposals import propose_rules, rules_line
from adapters.profile.model import RulesPart
from core.llm import LLM

__all__ = ["told_rules"]

Say = Callable[[str], None]
Line = Callable[[str], Awaitable[str]]  # a prompt, and the operator's answer to it


def _usual() -> str:
    """The default rules, as a line."""
    return rules_line(RulesPart().model_dump(exclude={"rooms_per_booking"}))


def _readable(told: str) -> bool:
    """Whether the operator's line says rules the profile can hold (a step over 4
    hours, say, it cannot), every piece of it read."""
    rules = written_rules(told)
    if not rules or unread_rules(told):
        return False
    with contextlib.suppress(ValidationError):
        return RulesPart.model_validate(rules) is not None
    return False


def _not_understood(told: str) -> str:
    unread = ", ".join(f"«{piece}»" for piece in unread_rules(told))
    which = f" ({unread})" if unread else ""
    return f"Не понял правила{which}: напишите их как «{_usual()}»."


async def told_rules(snapshot: str, url: str, *, line: Line, say: Say, llm: LLM | None) -> str:
    """The rules as one line («» for the usual ones): the LLM's reading of the page
    (``snapshot``, at ``url``) as the operator kept it, or the operator's own."""
    proposed = await propose_rules(llm, snapshot, url) if llm is not None else None
    if proposed is not None:
        read = rules_line(proposed)
        told = await line(
            f"Правила бронирования на странице сказаны словами; LLM прочитал их так: «{read}». "
            "Они проверятся бронью на сайте. Enter — верно, или напишите правила сами одной "
            "строкой."
        )
        if not told:
            return read
        if _readable(told):
            return told
        say(_not_understood(told))
    while True:
        told = await line(
            "На странице не видно правил бронирования. Напишите их одной строкой: часы, "
            "шаг, самая долгая бронь, на сколько дней вперёд можно бронировать "
            f"(Enter — как обычно: {_usual()})."
        )
        if not told or _readable(told):
            return told
        say(_not_understood(told))
