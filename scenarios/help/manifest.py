"""The help job's manifest: /help and /start, a refusal, and the answer to a request no
job reads; set up last, it lists what every other job offers."""

from __future__ import annotations

from core.jobs import Job, JobManifest, JobParts
from scenarios.help import DeclineScenario, HelpScenario, Showcase, UnknownScenario

__all__ = ["MANIFEST"]


def _setup(parts: JobParts) -> Job:
    showcase = Showcase(parts.earlier)
    return Job(
        scenarios=[
            HelpScenario(showcase=showcase),
            DeclineScenario(),
            UnknownScenario(answerer=parts.answerer, showcase=showcase),
        ]
    )


MANIFEST = JobManifest(name="help", order=1000, setup=_setup)
