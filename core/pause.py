"""A clarifying question is a typed pause: a step raises ``NeedsAnswer`` and is resumed
(run again from its start) once the answer is stored under the question's key."""

from __future__ import annotations

from pydantic import BaseModel, Field

from core.output import Option

__all__ = ["NeedsAnswer", "QuestionSpec"]


class QuestionSpec(BaseModel):
    key: str
    text: str
    options: list[Option] = Field(default_factory=list)
    allow_free_text: bool = True


class NeedsAnswer(Exception):  # noqa: N818 - a control-flow signal, not an error
    """Raised by a step to pause the run until the user answers ``question``."""

    def __init__(self, question: QuestionSpec) -> None:
        super().__init__(question.key)
        self.question = question
