"""The drift suite's runs (issue 29): a site changed one way at a time (the reference
portal's and the legacy site's ``drift`` quirks, the portal's ``layout: alt``), and the
profile adapter driving it from a copy of its profile (``profiles/refportal.yaml``,
``profiles/legacy.yaml``) — log in, read the day, book, read it back in «my bookings»,
cancel — with an LLM behind a fake vendor to pick what the profile no longer finds.
Each kind is run twice: the first run heals what it can (a new profile version), the
second starts from the healed file and must need no LLM call.

Used by ``tests/adapters/refportal/test_profile_drift.py`` and
``tests/adapters/profile/test_legacy_drift.py`` (each row held to what it must be) and
``python -m bench.drift`` (the table)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import time
from pathlib import Path
from typing import Any

from adapters.profile import ProfileSystem, load_site_profile
from adapters.profile.history import ProfileHistory
from core.brain import ElementPicker
from core.browser import BrowserPool
from core.errors import ClubError
from core.llm import LLMSettings, build_llm
from core.llm.memory import MemoryResponseCache, MemorySpendLedger
from tests.adapters.refportal.helpers import FAST, FRIDAY, active_bookings, set_quirks
from tests.fakes.llm import Answer, FakeAnthropic
from tests.support.refportal import page_path_only

__all__ = [
    "KINDS",
    "LEGACY",
    "LEGACY_KINDS",
    "REFPORTAL",
    "Drift",
    "DriftRun",
    "DriftSite",
    "drift_llm",
    "fresh_profile",
    "page_path_only",
    "run_drift",
    "set_drift",
]

PROFILES = Path(__file__).parents[2] / "profiles"
PROFILE = PROFILES / "refportal.yaml"
KEY = "sk-drift"
NONE = Answer({"kind": "none", "name": ""})


@dataclass(frozen=True)
class Drift:
    """One way the site changed, and what the model answers when asked about it (a
    model that reads the page summary: the element's new name, or «none»)."""

    kind: str
    quirks: dict[str, Any]
    answers: tuple[Answer, ...] = ()
    fast: bool = False  # booking by the form's own request (the profile's book.request)


KINDS = (
    Drift(
        "reworded",
        {"drift": ["reworded"]},
        (
            Answer({"kind": "button", "name": "Вход"}),
            Answer({"kind": "button", "name": "Отправить заявку"}),
        ),
    ),
    Drift(
        "relabelled", {"drift": ["relabelled"]}, (Answer({"kind": "field", "name": "Назначение"}),)
    ),
    Drift("ids_and_classes", {"layout": "alt"}),
    Drift("columns", {"drift": ["columns"]}),
    Drift("date_format", {"drift": ["date_format"]}),
    Drift("notice", {"notice": True}, (NONE,)),
    Drift("consent", {"drift": ["consent"]}, (NONE,)),
    Drift("menu_login", {"drift": ["menu_login"]}, (NONE,)),
    Drift("free_marker", {"drift": ["free_marker"]}),
    Drift("column_inserted", {"drift": ["column_inserted"]}),
    Drift("cancel_renamed", {"drift": ["cancel_renamed"]}, (NONE,)),
    Drift("in_place", {"drift": ["in_place"]}),
    Drift("number_renamed", {"drift": ["number_renamed"]}),
)


LEGACY_KINDS = (
    Drift(
        "reworded",
        {"drift": ["reworded"]},
        (
            Answer({"kind": "button", "name": "Вход"}),
            Answer({"kind": "button", "name": "Записать"}),
        ),
    ),
    Drift(
        "reworded_fast",
        {"drift": ["reworded"]},
        (Answer({"kind": "button", "name": "Вход"}),),
        fast=True,
    ),
    Drift(
        "relabelled", {"drift": ["relabelled"]}, (Answer({"kind": "field", "name": "Примечание"}),)
    ),
    Drift("columns", {"drift": ["columns"]}),
    Drift("date_format", {"drift": ["date_format"]}),
)


@dataclass(frozen=True)
class DriftSite:
    """Where a site's drift runs book: its profile, a building and an hour it has free."""

    name: str
    profile: Path
    building: str
    start: time
    end: time
    kinds: tuple[Drift, ...]


REFPORTAL = DriftSite("refportal", PROFILE, "main", time(10), time(11), KINDS)
LEGACY = DriftSite("legacy", PROFILES / "legacy.yaml", "1", time(18), time(19), LEGACY_KINDS)


@dataclass
class DriftRun:
    """One run: whether the booking was made, read back and cancelled, the error the
    user would have been told otherwise, and the LLM calls it took."""

    done: bool
    error: str = ""
    llm_calls: int = 0
    left_on_site: list[str] = field(default_factory=list)


def drift_settings(vendor: FakeAnthropic) -> LLMSettings:
    return LLMSettings.model_validate(
        {
            "providers": "anthropic",
            "anthropic": {"api_key": KEY, "base_url": vendor.base_url},
            "max_retries": 0,
            "timeout_seconds": 10,
        }
    )


@asynccontextmanager
async def drift_llm() -> AsyncIterator[tuple[FakeAnthropic, ElementPicker]]:
    """The LLM layer as the product builds it, with its response cache: a page the model
    was shown and said nothing of is not asked about again while it looks the same."""

    async def nothing(_record: object) -> None:
        return None

    async with FakeAnthropic(api_key=KEY) as vendor:
        cache = MemoryResponseCache()
        llm = build_llm(
            drift_settings(vendor), cache=cache, ledger=MemorySpendLedger(), on_call=nothing
        )
        assert llm is not None
        async with llm:
            yield vendor, ElementPicker(llm)


async def run_drift(
    url: str,
    pool: BrowserPool,
    path: Path,
    vendor: FakeAnthropic,
    picker: ElementPicker,
    drift: Drift,
    site: DriftSite = REFPORTAL,
) -> DriftRun:
    """One booking made, read back and cancelled through the profile at ``path`` on the
    portal at ``url`` as it is now; a heal is written to ``path`` as a new version."""
    vendor.script.clear()
    vendor.extend(drift.answers)
    asked = len(vendor.requests)
    system = ProfileSystem(
        url, load_site_profile(path), retry=FAST, history=ProfileHistory(path), picker=picker
    )
    purpose = f"drift {drift.kind} · #run-{drift.kind}"
    run = DriftRun(done=False)
    async with pool.context() as context:
        session = system.open_session(context, username="club", password="club-demo")
        try:
            shown = await session.availability(site.building, FRIDAY)
            room = shown.free_rooms(site.start, site.end)[0]
            made = await session.book(
                room=room, day=FRIDAY, start=site.start, end=site.end, purpose=purpose
            )
            listed = [b.number for b in await session.my_bookings()]
            if made.number not in listed:
                raise AssertionError(f"booking {made.number} not in my bookings: {listed}")
            await session.cancel(made.number)
            run.done = True
        except ClubError as exc:
            run.error = f"{type(exc).__name__}: {exc}"
        finally:
            await session.close()
    run.llm_calls = len(vendor.requests) - asked
    run.left_on_site = [str(b["id"]) for b in await active_bookings(url, purpose=purpose)]
    return run


async def set_drift(url: str, drift: Drift) -> None:
    await set_quirks(url, **drift.quirks)


def fresh_profile(into: Path, *, fast: bool = False, site: DriftSite = REFPORTAL) -> Path:
    """A copy of the site's profile in ``into``; without ``fast``, booking through the
    form's page (the page path is what drifts)."""
    text = site.profile.read_text(encoding="utf-8")
    path = into / site.profile.name
    path.write_text(text if fast else page_path_only(text), encoding="utf-8")
    return path
