"""``clubman site check`` and ``clubman site show``: a site profile tried on the live site
with the configured account (``PORTAL__URL``, ``PORTAL__USERNAME``, ``PORTAL__PASSWORD``);
without ``PORTAL__URL``, on the reference portal started in-process with its demo account.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import date
from pathlib import Path

from adapters.profile import LoadedProfile, ProfileSystem, load_site_profile
from adapters.profile.check import PartResult, SiteReport, check_site, show_site
from adapters.profile.history import ProfileHistory
from adapters.profile.session import ProfileSession
from app.compose import DEMO_ACCOUNT
from core.browser import BrowserContext, BrowserPool
from core.errors import ConfigError
from core.settings import Settings
from core.site.models import Catalogue

__all__ = ["check_profile", "render_report", "site_check", "site_show"]


@asynccontextmanager
async def _session(
    settings: Settings, profile: Path, *, heal: bool = False
) -> AsyncIterator[tuple[ProfileSession, BrowserContext, str]]:
    loaded = load_site_profile(profile)  # a bad profile stops here, naming its line
    # A check writes what healed (a stand-in that served a part that passed); a show, which
    # only reads, writes nothing.
    history = ProfileHistory(profile) if heal else None
    async with (
        _site(settings) as (url, username, password),
        _opened(settings, loaded, url, username, password, history) as (session, context),
    ):
        yield session, context, username


@asynccontextmanager
async def _opened(
    settings: Settings,
    profile: LoadedProfile,
    url: str,
    username: str,
    password: str,
    history: ProfileHistory | None = None,
) -> AsyncIterator[tuple[ProfileSession, BrowserContext]]:
    pool = BrowserPool(
        executable=settings.browser.executable, max_contexts=1, headless=settings.browser.headless
    )
    async with pool, pool.context() as context:
        session = ProfileSystem(url, profile, history=history).open_session(
            context, username=username, password=password
        )
        try:
            yield session, context
        finally:
            await session.close()


@asynccontextmanager
async def _site(settings: Settings) -> AsyncIterator[tuple[str, str, str]]:
    portal = settings.portal
    if portal.url:
        if not portal.username or portal.password is None:
            raise ConfigError(
                "set PORTAL__USERNAME and PORTAL__PASSWORD: the account to check with"
            )
        yield portal.url, portal.username, portal.password.get_secret_value()
        return
    from portal.server import running_portal

    async with running_portal() as running:
        yield running.url, DEMO_ACCOUNT[0], DEMO_ACCOUNT[1]


async def site_check(settings: Settings, profile: Path, *, today: date) -> SiteReport:
    """The check; the heals it made (a later candidate that served a part that passed)
    are written to ``profile`` as versions, and said as the report's last part."""
    history = ProfileHistory(profile)
    known = len(history.versions())
    async with _session(settings, profile, heal=True) as (session, context, username):
        report = await check_site(
            session, context, username=username, today=today, shots=_shots(settings)
        )
    healed = [v for v in history.versions()[known:] if v.changes]
    if healed:
        changes = "; ".join(change for v in healed for change in v.changes)
        report.parts.append(
            PartResult(
                part="исправления",
                ok=True,
                detail=f"{changes} — записано в профиль как версия {healed[-1].number} "
                "(clubman site history, clubman site revert)",
            )
        )
    return report


async def site_show(settings: Settings, profile: Path) -> tuple[SiteReport, Catalogue | None]:
    async with _session(settings, profile) as (session, context, username):
        return await show_site(session, context, username=username, shots=_shots(settings))


async def check_profile(
    settings: Settings,
    profile: LoadedProfile,
    url: str,
    *,
    username: str,
    password: str,
    today: date,
) -> SiteReport:
    """``profile`` (not yet written anywhere, as ``clubman learn`` drafted it) checked on
    the site at ``url`` with the operator's account."""
    async with _opened(settings, profile, url, username, password) as (session, context):
        return await check_site(
            session, context, username=username, today=today, shots=_shots(settings)
        )


def _shots(settings: Settings) -> Path:
    return settings.data_dir / "screenshots"


def _part_lines(part: PartResult) -> list[str]:
    lines = [f"{'✓' if part.ok else '✗'} {part.part}: {part.detail}"]
    if part.where:
        lines.append(f"    строка профиля: {part.where}" + (f" ({part.path})" if part.path else ""))
    if part.tried:
        lines.append(f"    искали: {part.tried}")
    if part.seen:
        lines.append(f"    на странице: {part.seen}")
    if part.screenshot:
        lines.append(f"    снимок: {part.screenshot}")
    return lines


def render_report(report: SiteReport, catalogue: Catalogue | None = None) -> str:
    lines = [f"профиль «{report.profile}» на {report.url}"]
    for part in report.parts:
        lines += _part_lines(part)
    if catalogue is not None:
        for building in catalogue.buildings:
            rooms = catalogue.rooms_in(building.code)
            numbers = ", ".join(room.number for room in rooms)
            lines.append(f"  {building.code}: «{building.name}» — {len(rooms)} ауд.: {numbers}")
    lines.append("итог: профиль подходит" if report.ok else "итог: профиль нужно поправить")
    return "\n".join(lines) + "\n"
