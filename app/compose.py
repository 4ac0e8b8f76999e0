"""The app factory: everything the product needs, opened at start-up and closed at
shutdown, for any view (Telegram or terminal)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

import structlog
from pydantic import SecretStr

import scenarios
from app.engine import build_core
from app.systems import choose_event_site, choose_system, words_file
from core.accounts import AccountService
from core.agent import AgentRuns, Confirmations, Toolkit, run_status_tool
from core.assist import open_assist
from core.browser import BrowserPool
from core.clock import Clock, SystemClock
from core.dispatcher import ChatDispatcher
from core.errors import ConfigError
from core.events import EventBus
from core.jobs import Job, JobParts, Offers, discover, set_up
from core.metrics import Metrics
from core.output import OutputSink
from core.settings import Settings
from core.site.catalogue import Catalogues
from core.site.models import Catalogue
from core.site.profile import load_profile
from core.vault import CredentialVault
from core.views import CoreServices, RecordingSink
from scenarios.booking import PortalAccount, PortalWork, read_catalogue
from scenarios.events.site import ClubLogin, EventDesk
from storage import Storage, open_storage
from storage.files import FileCache

__all__ = [
    "DEMO_ACCOUNT",
    "catalogues_for",
    "current_catalogue",
    "open_agent",
    "open_core",
    "open_settings_storage",
]

log = structlog.get_logger("clubman.app")

# The reference portal's seeded club account: used only when it runs in-process.
DEMO_ACCOUNT = ("club", "club-demo")


@asynccontextmanager
async def open_settings_storage(settings: Settings) -> AsyncIterator[Storage]:
    mongo = settings.mongodb_uri.get_secret_value() if settings.mongodb_uri else None
    redis = settings.redis_url.get_secret_value() if settings.redis_url else None
    async with open_storage(
        mongodb_uri=mongo, redis_url=redis, data_dir=settings.data_dir
    ) as storage:
        yield storage


@asynccontextmanager
async def _portal(settings: Settings) -> AsyncIterator[tuple[str, PortalAccount]]:
    """The configured portal's URL and club account, or the reference portal started
    in-process (zero config)."""
    if settings.portal.url:
        yield (
            settings.portal.url,
            PortalAccount(username=settings.portal.username, password=settings.portal.password),
        )
        return
    if settings.portal.kind != "refportal":
        raise ConfigError(f"PORTAL__URL is needed for PORTAL__KIND={settings.portal.kind}")
    from portal.server import running_portal

    settings.data_dir.mkdir(parents=True, exist_ok=True)
    async with running_portal(db=str(settings.data_dir / "portal.sqlite3")) as portal:
        log.info("portal.in_process", url=portal.url, user=DEMO_ACCOUNT[0])
        username = settings.portal.username or DEMO_ACCOUNT[0]
        password = settings.portal.password or SecretStr(DEMO_ACCOUNT[1])
        yield portal.url, PortalAccount(username=username, password=password)


def catalogues_for(
    settings: Settings,
    *,
    read: Callable[[], Awaitable[Catalogue]],
    clock: Clock,
) -> Catalogues:
    """The catalogue, cached in ``DATA_DIR`` (it outlives a restart while the site is down):
    the bot's, and any tool's that reads the same cache."""
    kind = settings.portal.kind
    return Catalogues(
        read=read,
        cache=FileCache(settings.data_dir / "cache"),
        key=f"{kind}:{settings.portal.url or 'in-process'}",
        profile=load_profile(words_file(settings.portal)),
        clock=clock,
    )


async def current_catalogue(settings: Settings) -> Catalogue:
    """The catalogue for a tool with no running bot (``clubman parse``): the cached one,
    however old (no browser started), else one read from the site with the club's
    account (and cached). ``ClubError`` when neither can be had: no account, no browser,
    the site down."""
    async with AsyncExitStack() as stack:

        async def read() -> Catalogue:
            url, account = await stack.enter_async_context(_portal(settings))
            pool = await stack.enter_async_context(_browser_pool(settings))
            system = choose_system(settings.portal, url, data_dir=settings.data_dir)
            return await read_catalogue(pool, system, account)

        catalogues = catalogues_for(settings, read=read, clock=SystemClock())
        return await catalogues.cached() or await catalogues.refresh()


def _browser_pool(settings: Settings) -> BrowserPool:
    return BrowserPool(
        executable=settings.browser.executable,
        max_contexts=settings.browser.max_contexts,
        headless=settings.browser.headless,
    )


@dataclass(frozen=True)
class _Core:
    manager: ChatDispatcher
    accounts: AccountService
    jobs: list[Job]
    clock: Clock


@asynccontextmanager
async def _open(
    settings: Settings,
    storage: Storage,
    sink: OutputSink,
    *,
    clock: Clock | None = None,
    metrics: Metrics | None = None,
    reminders: bool = True,
) -> AsyncIterator[_Core]:
    """Everything behind a view, in order: the site and its club account, the browser
    pool, the LLM layer, the booking system (the LLM heals a site profile), the
    catalogue, the jobs (found by their manifests), the manager, the jobs' services (the
    scheduler). ``metrics`` count what the event bus carries; ``reminders``: this view
    delivers to the users, so it sends what falls due (only the bot's does)."""
    async with AsyncExitStack() as stack:
        url, account = await stack.enter_async_context(_portal(settings))
        pool = await stack.enter_async_context(_browser_pool(settings))
        vault = CredentialVault(storage, settings.security.encryption_key)
        bus = EventBus(storage.events)
        if metrics is not None:
            bus.subscribe(metrics.observe)
        assist = await stack.enter_async_context(
            open_assist(
                settings.llm, cache=storage.cache, ledger=storage.ledger,
                memory=storage.brain_memory, bus=bus, timezone=settings.timezone,
            )
        )  # fmt: skip
        system = choose_system(
            settings.portal, url, picker=assist.picker, data_dir=settings.data_dir
        )
        work = PortalWork(
            pool=pool, system=system, account=account, vault=vault, brain=assist.brain
        )
        clock = clock or SystemClock()
        catalogues = await stack.enter_async_context(
            catalogues_for(settings, read=work.read_catalogue, clock=clock)
        )
        site = choose_event_site(settings.portal, url, timezone=settings.timezone)
        login = ClubLogin(username=account.username, password=account.password)
        events = EventDesk(pool=pool, site=site, login=login) if site is not None else None
        # What the site offers the jobs: its booking sessions, its events where it has them.
        offers = Offers([work, vault, *([events] if events is not None else [])])
        parts = JobParts(
            settings=settings, storage=storage, bus=bus, clock=clock,
            sink=RecordingSink(sink, storage), catalogues=catalogues, offers=offers,
            answerer=assist.answerer, delivers=reminders,
        )  # fmt: skip
        jobs = set_up(discover(scenarios), parts)
        manager = await stack.enter_async_context(
            build_core(
                settings, storage, sink, scenarios=[s for job in jobs for s in job.scenarios],
                catalogues=catalogues, clock=clock, bus=bus,
                classifier=assist.classifier, extractor=assist.extractor,
            )
        )  # fmt: skip
        for job in jobs:
            for service in job.services:
                await stack.enter_async_context(service(manager))
        accounts = AccountService(
            vault=vault, checker=work, can_save=settings.security.encryption_key is not None
        )
        yield _Core(manager, accounts, jobs, clock)


@asynccontextmanager
async def open_core(
    settings: Settings,
    storage: Storage,
    sink: OutputSink,
    *,
    clock: Clock | None = None,
    metrics: Metrics | None = None,
    reminders: bool = True,
) -> AsyncIterator[CoreServices]:
    """The core the Telegram bot and the terminal chat use: the manager and the account
    service. ``reminders``: this view sends the due reminders of bookings (the bot; not
    the terminal chat, which would take the Telegram users' on a shared database)."""
    async with _open(
        settings, storage, sink, clock=clock, metrics=metrics, reminders=reminders
    ) as core:
        yield CoreServices(manager=core.manager, accounts=core.accounts)


@asynccontextmanager
async def open_agent(
    settings: Settings, storage: Storage, sink: OutputSink, *, clock: Clock | None = None
) -> AsyncIterator[list[Toolkit]]:
    """The agent API (the MCP server's): every job's toolkit on a core of its own over the
    same storage, whose runs are the users' chats' runs, resumed here after a restart like
    the bot's."""
    async with _open(settings, storage, sink, clock=clock, reminders=False) as core:
        runs = AgentRuns(
            manager=core.manager, runs=storage.runs, users=storage.users,
            confirmations=Confirmations(storage.confirmations, clock=core.clock),
            clock=core.clock, default_timezone=settings.timezone,
        )  # fmt: skip
        toolkits = [job.toolkit(runs) for job in core.jobs if job.toolkit is not None]
        yield [Toolkit(instructions="", tools=[run_status_tool(runs)]), *toolkits]
