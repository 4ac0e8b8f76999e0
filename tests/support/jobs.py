"""Every job's scenarios for a test, set up from their manifests as ``app.compose`` sets
them up: on the test's storage, with what the test offers them (its ``PortalWork``, an
``EventDesk``…)."""

from __future__ import annotations

from collections.abc import Sequence

import scenarios
from core.assist.answerer import UnknownAnswerer
from core.clock import Clock, SystemClock
from core.events import EventBus
from core.jobs import JobManifest, JobParts, Offers, discover, set_up
from core.output import OutputSink
from core.scenario import BaseScenario
from core.settings import Settings, load_settings
from core.site.catalogue import Catalogues
from core.vault import CredentialVault
from storage import Storage
from tests.support.sinks import CollectingSink

__all__ = ["job_scenarios", "product_scenarios"]


def product_scenarios(
    storage: Storage,
    *offered: object,
    catalogues: Catalogues,
    clock: Clock | None = None,
    sink: OutputSink | None = None,
    bus: EventBus | None = None,
    answerer: UnknownAnswerer | None = None,
    settings: Settings | None = None,
) -> list[BaseScenario]:
    """``offered``: the site's connections; a vault with no key is added unless one is."""
    return _set_up(
        discover(scenarios), storage, offered, catalogues=catalogues, clock=clock, sink=sink,
        bus=bus, answerer=answerer, settings=settings,
    )  # fmt: skip


def job_scenarios(
    name: str, storage: Storage, *offered: object, catalogues: Catalogues
) -> list[BaseScenario]:
    """The scenarios of the job ``name`` alone, set up from its manifest with ``offered``."""
    manifest = next(job for job in discover(scenarios) if job.name == name)
    return _set_up([manifest], storage, offered, catalogues=catalogues)


def _set_up(
    manifests: Sequence[JobManifest],
    storage: Storage,
    offered: Sequence[object],
    *,
    catalogues: Catalogues,
    clock: Clock | None = None,
    sink: OutputSink | None = None,
    bus: EventBus | None = None,
    answerer: UnknownAnswerer | None = None,
    settings: Settings | None = None,
) -> list[BaseScenario]:
    offers = Offers(offered)
    if offers.find(CredentialVault) is None:
        offers.add(CredentialVault(storage, None))
    parts = JobParts(
        settings=settings or load_settings(), storage=storage,
        bus=bus or EventBus(storage.events), clock=clock or SystemClock(),
        sink=sink or CollectingSink(), catalogues=catalogues, offers=offers, answerer=answerer,
    )  # fmt: skip
    return [scenario for job in set_up(manifests, parts) for scenario in job.scenarios]
