"""What the brain sees (a ``Situation``) and what it may answer (one ``BrainDecision``).

The decision is one flat JSON object so that small local models can produce it too;
``check_decision`` (in ``validate``) is what makes it safe, not the schema.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

# The brain memory keeps clicks, so their shape is part of the storage contract.
from core.store.records import ClickTarget

__all__ = [
    "ACTIONS",
    "Action",
    "BrainDecision",
    "ClickTarget",
    "PageSnapshot",
    "Situation",
    "UserChoice",
]

Action = Literal["retry_step", "alternative", "click", "back_to_step", "ask_user", "abort"]
ACTIONS: tuple[Action, ...] = (
    "retry_step", "alternative", "click", "back_to_step", "ask_user", "abort"
)  # fmt: skip


class PageSnapshot(BaseModel):
    """The page as the portal layer summarised it (``PageSummary``'s fields); untrusted."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    url: str
    title: str = ""
    heading: str = ""
    text: str = ""
    fields: list[str] = Field(default_factory=list)
    checkboxes: list[str] = Field(default_factory=list)  # of ``fields``: the tickable ones
    buttons: list[str] = Field(default_factory=list)
    links: list[str] = Field(default_factory=list)
    alerts: list[str] = Field(default_factory=list)


class UserChoice(BaseModel):
    """One answer offered to the user: an id for the button and what it does."""

    model_config = ConfigDict(frozen=True)

    id: str
    label: str
    clicks: tuple[ClickTarget, ...] = ()
    abort: bool = False


class Situation(BaseModel):
    """Everything the brain is told about one unexpected moment of a run."""

    step: str
    expected: str
    problem: str
    page: PageSnapshot
    history: list[str] = Field(default_factory=list)
    allowed: tuple[Action, ...] = ACTIONS
    alternatives: dict[str, str] = Field(default_factory=dict)  # option id → label
    steps_before: list[str] = Field(default_factory=list)  # where back_to_step may go
    lang: Literal["ru", "en"] = "ru"


class BrainDecision(BaseModel):
    """One decision. ``action`` says which of the other fields matter:

    - ``click``: ``targets`` (1–4, in order) on the current page;
    - ``alternative``: ``option_id``, one of the computed alternatives;
    - ``back_to_step``: ``step``; ``ask_user``: ``question`` and ``options`` (labels
      chosen from the allowed answers); ``abort``: ``reason``; ``retry_step``: nothing.
    """

    action: Action
    targets: list[ClickTarget] = Field(default_factory=list, max_length=4)
    option_id: str | None = None
    step: str | None = None
    question: str | None = Field(default=None, max_length=500)
    options: list[str] = Field(default_factory=list, max_length=6)
    reason: str = Field(default="", max_length=500)

    @model_validator(mode="after")
    def _fields_for_action(self) -> BrainDecision:
        needed = {
            "click": bool(self.targets),
            "alternative": bool(self.option_id),
            "back_to_step": bool(self.step),
            "ask_user": bool(self.question),
        }
        if not needed.get(self.action, True):
            field = {"click": "targets", "alternative": "option_id", "back_to_step": "step"}
            raise ValueError(f"action {self.action!r} needs {field.get(self.action, 'question')}")
        return self
