"""THE catalogue of user-facing texts, in Russian and English, and the one way to render
them: ``tr(Text, lang, **values)``. Every sentence the product shows (core, scenarios,
the Telegram view, the terminal chat) is a typed ``Text`` constant, grouped by area: the
engine's and the views' here, a job's in its own package (``scenarios/<job>/texts.py``):

    base.py       ``Text`` and ``tr``
    common.py     shared words (yes/no, cancel), weekday names, ``day_label``
    run.py        a run's life (cancelled, expired, failed…); the brain's page questions
    slots.py      clarifying questions and why an answer was not understood
    calendar.py   the calendar offer
    guide.py      help, greeting, examples, the reply to an unknown request
    views.py      the Telegram bot (buttons, status, settings, /login) and the terminal chat

Logs and operators' exception messages are not user texts and do not live here.
"""

from __future__ import annotations

from core.texts.base import Text, tr
from core.texts.calendar import Calendar
from core.texts.common import DAY, WEEKDAYS, Common, day_label
from core.texts.guide import Guide
from core.texts.run import Page, Run
from core.texts.slots import Ask, Reason
from core.texts.views import COMMANDS, Bot, Login, Terminal

__all__ = [
    "COMMANDS",
    "DAY",
    "WEEKDAYS",
    "Ask",
    "Bot",
    "Calendar",
    "Common",
    "Guide",
    "Login",
    "Page",
    "Reason",
    "Run",
    "Terminal",
    "Text",
    "day_label",
    "tr",
]
