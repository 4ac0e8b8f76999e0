"""A job's manifest: what a job package declares so that the app finds it, sets it up and
lists it with nothing wired by hand — as a Home Assistant integration declares its own.

A job is a package ``scenarios/<job>/`` with a module ``manifest`` holding ``MANIFEST``
(a ``JobManifest``). The app discovers the manifests, hands each job's ``setup`` the
product's shared parts (``JobParts``) and gets back what the job adds (``Job``): its
scenarios, what it offers other jobs, its background services and its agent tools. The
engine names no job: everything it knows of one comes through here.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import TypeVar

from pydantic import BaseModel

from core.agent import AgentRuns, Toolkit
from core.assist.answerer import UnknownAnswerer
from core.clock import Clock
from core.dispatcher import ChatDispatcher
from core.errors import ConfigError
from core.events import EventBus
from core.output import OutputSink
from core.planner import Reader
from core.scenario import BaseScenario
from core.settings import Settings, with_sections
from core.site.catalogue import Catalogues
from core.store import Store

__all__ = [
    "Job",
    "JobManifest",
    "JobParts",
    "Offers",
    "Service",
    "discover",
    "set_up",
    "settings_model",
]

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)

# A job's service that runs beside the dispatcher (a scheduler), started once it exists.
Service = Callable[[ChatDispatcher], AbstractAsyncContextManager[object]]


class Offers:
    """Things the app and the jobs set up before put at a job's disposal, found by the type
    the taker names: a class, or a ``runtime_checkable`` Protocol of the taker's own, so
    that one job takes what another offers without importing it."""

    def __init__(self, offered: Sequence[object] = ()) -> None:
        self._offered = list(offered)

    def add(self, *offered: object) -> None:
        self._offered.extend(offered)

    def all(self) -> list[object]:
        return list(self._offered)

    def find(self, kind: type[T]) -> T | None:
        """The latest offer that is a ``kind``, or ``None``."""
        return next((o for o in reversed(self._offered) if isinstance(o, kind)), None)

    def need(self, kind: type[T], *, job: str) -> T:
        """The offer that is a ``kind``; ``ConfigError`` naming the job when there is none."""
        found = self.find(kind)
        if found is None:
            raise ConfigError(f"the {job} job needs a {kind.__name__}, and none was set up")
        return found


@dataclass(frozen=True)
class JobParts:
    """The product's shared parts every job's ``setup`` may take."""

    settings: Settings
    storage: Store  # a job needing stores of its own narrows it (``store_as``)
    bus: EventBus
    clock: Clock
    sink: OutputSink  # records what it is given in the conversation, then delivers it
    catalogues: Catalogues  # the site's buildings and rooms
    offers: Offers  # the site's connections and what earlier jobs offered
    answerer: UnknownAnswerer | None = None  # the LLM's answer to a request nobody reads
    # This process delivers to the users (the bot): it sends what falls due (reminders).
    delivers: bool = True
    # The scenarios of the jobs set up before this one (the help job lists them).
    earlier: tuple[BaseScenario, ...] = ()

    def section(self, name: str, model: type[M]) -> M:
        """The job's section ``name`` of the settings; its defaults where the settings were
        built without it (a test's ``load_settings()``)."""
        value = getattr(self.settings, name, None)
        if value is None:
            return model()
        if not isinstance(value, model):
            raise ConfigError(f"the settings' section {name!r} is not a {model.__name__}")
        return value

    def store_as(self, kind: type[T], *, job: str) -> T:
        """The storage as the job's own store Protocol (``runtime_checkable``, extending
        core's ``Store``); ``ConfigError`` when the storage lacks the job's stores."""
        if not isinstance(self.storage, kind):
            raise ConfigError(f"the storage has none of the {job} job's stores")
        return self.storage


@dataclass
class Job:
    """What a job adds, as its ``setup`` returns it."""

    scenarios: list[BaseScenario]
    offers: list[object] = field(default_factory=list)  # for jobs set up after it
    services: list[Service] = field(default_factory=list)
    # Its tools for agent clients (the MCP server), given the agent API's runs.
    toolkit: Callable[[AgentRuns], Toolkit] | None = None


@dataclass(frozen=True)
class JobManifest:
    """What a job package declares in ``scenarios/<job>/manifest.py`` as ``MANIFEST``."""

    name: str
    # Jobs are set up and offered commands in this order, lower first (a job taking what
    # another offers comes after it; the help job, which lists them all, last).
    order: int
    setup: Callable[[JobParts], Job]
    # Its reading of commands with nothing behind it (``clubman parse``); none: it reads
    # no command of its own.
    reader: Callable[[], Reader] | None = None
    # Its section of the settings, by name: ``("scheduler", SchedulerSettings)`` is read
    # from ``SCHEDULER__…`` (``settings_model``), and taken with ``JobParts.section``.
    settings: tuple[str, type[BaseModel]] | None = None


def discover(package: ModuleType) -> list[JobManifest]:
    """The manifest of every job package in ``package`` (each ``<package>.<job>.manifest``
    module's ``MANIFEST``), in their order."""
    found: list[JobManifest] = []
    for module in pkgutil.iter_modules(package.__path__):
        name = f"{package.__name__}.{module.name}.manifest"
        if not module.ispkg or importlib.util.find_spec(name) is None:
            continue
        manifest = getattr(importlib.import_module(name), "MANIFEST", None)
        if not isinstance(manifest, JobManifest):
            raise ConfigError(f"{name} declares no MANIFEST (a core.jobs.JobManifest)")
        found.append(manifest)
    return sorted(found, key=lambda manifest: (manifest.order, manifest.name))


def set_up(manifests: Sequence[JobManifest], parts: JobParts) -> list[Job]:
    """Each job set up in order, taking what the jobs before it offered and their scenarios."""
    jobs: list[Job] = []
    offers = Offers(parts.offers.all())
    earlier: list[BaseScenario] = []
    for manifest in manifests:
        job = manifest.setup(replace(parts, offers=offers, earlier=tuple(earlier)))
        offers.add(*job.offers)
        earlier.extend(job.scenarios)
        jobs.append(job)
    return jobs


def settings_model(manifests: Sequence[JobManifest]) -> type[Settings]:
    """``Settings`` with every job's section: what the entry points load."""
    return with_sections(dict(job.settings for job in manifests if job.settings is not None))
