"""Where a run started through the agent API stands, as its tools answer it."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

__all__ = ["RunOutcome", "RunState"]

RunState = Literal["running", "waiting", "done", "failed", "cancelled", "expired"]


class RunOutcome(BaseModel):
    """A run started through the agent API (it shows in the user's /status in Telegram,
    where its final answer and any question go too)."""

    run_id: str
    state: RunState
    summary: str | None = Field(None, description="The final answer, once done")
    error: str | None = None
    question: str | None = Field(
        None, description="A question the run waits on; the user answers it in Telegram"
    )
    steps_done: list[str] = Field(default_factory=list)
