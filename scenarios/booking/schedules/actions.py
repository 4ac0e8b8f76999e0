"""The schedule list's buttons, as pure builders: «⏸ Пауза: …» ``p:<n>``, «▶ Возобновить: …»
``r:<n>``, «🗑 Удалить: …» ``d:<n>``, where ``n`` indexes the list the run read first
(an ObjectId does not fit in an option id), and «✅ Готово» ``done``."""

from __future__ import annotations

from core.commands import Lang
from core.output import Option
from core.site.models import Catalogue
from core.texts import Text, tr
from scenarios.booking.schedules.entry import ScheduleEntry, ScheduleState
from scenarios.booking.schedules.texts import Schedules

__all__ = ["DONE", "action_options", "list_lines", "parse_action"]

DONE = "done"
_STATES: dict[str, ScheduleState] = {"p": "paused", "r": "active", "d": "deleted"}
_BUTTONS: dict[str, Text] = {
    "p": Schedules.PAUSE,
    "r": Schedules.RESUME,
    "d": Schedules.DELETE,
}


def list_lines(entries: list[ScheduleEntry], lang: Lang, catalogue: Catalogue) -> list[str]:
    """«чт 18:00–20:00, 405 — активна» per schedule."""
    return [
        f"{e.label(lang, catalogue)} — "
        f"{tr(Schedules.PAUSED if e.status == 'paused' else Schedules.ACTIVE, lang)}"
        for e in entries
    ]


def action_options(
    entries: list[ScheduleEntry], ids: list[str], lang: Lang, catalogue: Catalogue
) -> list[Option]:
    """Pause or resume, and delete, for each of ``entries`` (each must be in ``ids``)."""
    options: list[Option] = []
    for entry in entries:
        index, label = ids.index(entry.id), entry.label(lang, catalogue)
        for kind in ("r" if entry.status == "paused" else "p", "d"):
            button = tr(_BUTTONS[kind], lang, label=label)
            options.append(Option(id=f"{kind}:{index}", label=button))
    options.append(Option(id=DONE, label=tr(Schedules.DONE, lang)))
    return options


def parse_action(action: str, ids: list[str]) -> tuple[str, ScheduleState] | None:
    """``"p:1"`` → (the second id, "paused"); None for «Готово», text or a bad index."""
    kind, _, index = action.partition(":")
    if kind not in _STATES or not index.isdigit() or int(index) >= len(ids):
        return None
    return ids[int(index)], _STATES[kind]
