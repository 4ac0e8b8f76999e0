"""Catalogues for tests: the reference portal's as the product reads it (site + profile)."""

from __future__ import annotations

from core.booking import Building, Catalogue, Rules

__all__ = ["REFPORTAL_CATALOGUE"]

REFPORTAL_CATALOGUE = Catalogue(
    system="refportal",
    buildings=(
        Building(
            code="main",
            name="Главный корпус",
            name_en="Main building",
            words=("гк", "главк", "центральный", "центральном", "центрального", "main", "central"),
        ),
        Building(
            code="chaikovsky",
            name="Корпус на Чайковского",
            name_en="Chaikovsky building",
            words=(
                "чайка", "чайке", "chaikovsky", "chaikovskogo", "tchaikovsky", "tchaikovskogo",
                "chaykovskogo", "chaikovskiy", "tchaikovskiy",
            ),
        ),
        Building(
            code="lab",
            name="Лабораторный корпус",
            name_en="Lab building",
            words=("лаб", "лабе", "лабы", "лабка", "lab", "labs", "laboratory", "laboratories"),
        ),
    ),
    rules=Rules(),
)  # fmt: skip
