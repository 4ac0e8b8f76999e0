"""Teaching the bot a site by showing it once (``clubman learn``): a ``Recorder`` watches
the operator's browser step by step and keeps a ``Recording`` with no secret in it."""

from __future__ import annotations

from adapters.profile.learn.browser import operators_browser
from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Action, Recording, SentRequest, Step, StepName

__all__ = [
    "Action",
    "Recorder",
    "Recording",
    "SentRequest",
    "Step",
    "StepName",
    "operators_browser",
]
