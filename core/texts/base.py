"""The one mechanism: a typed ``Text`` (both languages side by side) and ``tr`` to render it.

Keys are Python names, so mypy and editors check every use; a text is a ``str.format``
template, rendered with the values its placeholders name."""

from __future__ import annotations

from dataclasses import dataclass

from core.commands import Lang

__all__ = ["Text", "tr"]


@dataclass(frozen=True, slots=True)
class Text:
    """One user-facing text in Russian and English (``str.format`` templates)."""

    ru: str
    en: str


def tr(text: Text, lang: Lang, **values: object) -> str:
    """``text`` in ``lang``, its placeholders filled from ``values``."""
    match lang:
        case "ru":
            template = text.ru
        case _:  # English, and whatever else slipped through untyped
            template = text.en
    return template.format(**values)
