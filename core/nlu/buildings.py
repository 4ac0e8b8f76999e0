"""The portal's buildings: code → names and the words people use for them."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["BUILDINGS", "Building", "building_by_code"]


@dataclass(frozen=True, slots=True)
class Building:
    code: str
    name_ru: str
    name_en: str
    # Single normalized words (lower case, «ё» as «е») that name the building on their own.
    aliases: tuple[str, ...]

    def name(self, lang: str) -> str:
        return self.name_ru if lang == "ru" else self.name_en


BUILDINGS: tuple[Building, ...] = (
    Building(
        code="main",
        name_ru="Главный корпус",
        name_en="Main building",
        aliases=(
            "главный", "главном", "главного", "главная", "главной", "главк", "гк",
            "центральный", "центральном", "центрального",
            "main", "central",
        ),
    ),
    Building(
        code="chaikovsky",
        name_ru="Корпус на Чайковского",
        name_en="Chaikovsky building",
        aliases=(
            "чайковского", "чайковский", "чайковском", "чайка", "чайке",
            "chaikovsky", "chaikovskogo", "tchaikovsky", "tchaikovskogo", "chaykovskogo",
            "chaikovskiy", "tchaikovskiy",
        ),
    ),
    Building(
        code="lab",
        name_ru="Лабораторный корпус",
        name_en="Lab building",
        aliases=(
            "лабораторный", "лабораторном", "лабораторного", "лабораторная", "лабораторной",
            "лаб", "лабе", "лабы", "лабка", "lab", "labs", "laboratory", "laboratories",
        ),
    ),
)  # fmt: skip


def building_by_code(code: str) -> Building | None:
    return next((b for b in BUILDINGS if b.code == code), None)
