"""What a job lets an LLM guess of its slots when the rules leave required ones missing:
the model of the LLM's answer, the prompt's brief, and how a guess joins what the rules
found. The engine asks (``core.assist.extractor``); the job knows its slots."""

from __future__ import annotations

import datetime as dt
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar, Generic, TypeVar

from pydantic import BaseModel

from core.nlu import Decision
from core.site.models import Building

__all__ = ["Guessing"]

G = TypeVar("G", bound=BaseModel)


class Guessing(ABC, Generic[G]):
    model: ClassVar[type[BaseModel]]  # what the LLM may answer (a ``G``)

    @abstractmethod
    def brief(self, buildings: Sequence[Building]) -> str:
        """The prompt's first lines: what is extracted from the message, and what each of
        ``model``'s fields holds (``buildings``: the site's, by code)."""

    @abstractmethod
    def merge(
        self, decision: Decision, guess: G, *, today: dt.date, buildings: Sequence[Building]
    ) -> tuple[Decision, list[str]]:
        """``decision`` with every valid guessed slot it lacks, and their names. A guess
        never overwrites what the user wrote, and each is checked before use."""
