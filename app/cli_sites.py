"""``clubman site check|show|schema`` and ``clubman learn``: the commands about site
profiles, registered on the command line's app by ``register_site_commands``."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from core.errors import ClubError
from core.settings import Settings

__all__ = ["register_site_commands"]

_PROFILE = Annotated[Path, typer.Argument(help="The site profile (profiles/*.yaml)")]
_CDP_HELP = "Attach to a Chromium run with --remote-debugging-port (its address)"


def register_site_commands(
    app: typer.Typer,
    *,
    load: Callable[[], Settings],
    fail: Callable[[ClubError], NoReturn],
) -> None:
    """Add the site commands to ``app``; ``load`` builds the settings (with logging) once
    per command, ``fail`` ends a command with a user's error."""
    site = typer.Typer(help="Site profiles: check one on the live site, or show what it reads.")

    @site.command("check")
    def site_check(profile: _PROFILE) -> None:
        """Try every part of PROFILE on the site: log in, read the catalogue and a day, book at
        the farthest allowed day, find it in «my bookings» and cancel it. Leaves nothing booked."""
        from app.site import render_report
        from app.site import site_check as check

        settings = load()
        try:
            report = asyncio.run(check(settings, profile, today=datetime.now(settings.tz).date()))
        except ClubError as exc:
            fail(exc)
        typer.echo(render_report(report), nl=False)
        if not report.ok:
            raise typer.Exit(1)

    @site.command("show")
    def site_show(profile: _PROFILE) -> None:
        """Print what PROFILE reads from the site (buildings, rooms, rules); books nothing."""
        from app.site import render_report
        from app.site import site_show as show

        settings = load()
        try:
            report, catalogue = asyncio.run(show(settings, profile))
        except ClubError as exc:
            fail(exc)
        typer.echo(render_report(report, catalogue), nl=False)
        if not report.ok:
            raise typer.Exit(1)

    @site.command("history")
    def site_history(profile: _PROFILE) -> None:
        """Every version of PROFILE the bot wrote (heals), each with what made it and its
        diff from the one before."""
        from adapters.profile.history import ProfileHistory

        history = ProfileHistory(profile)
        versions = history.versions()
        if not versions:
            typer.echo(f"{profile}: версий нет — бот его не менял")
            return
        for version in versions:
            run = f", запуск {version.run}" if version.run else ""
            typer.echo(f"версия {version.number} — {version.at:%Y-%m-%d %H:%M} UTC, "
                       f"{version.made_by}{run}")  # fmt: skip
            for change in version.changes:
                typer.echo(f"  {change}")
            typer.echo(history.diff(version.number), nl=False)

    @site.command("revert")
    def site_revert(
        profile: _PROFILE,
        version: Annotated[int, typer.Argument(help="The version to make current again")],
    ) -> None:
        """Make VERSION of PROFILE current again (written as a new version)."""
        from adapters.profile.history import ProfileHistory

        history = ProfileHistory(profile)
        if version not in {v.number for v in history.versions()}:
            typer.echo(f"{profile}: нет версии {version} (clubman site history {profile})")
            raise typer.Exit(1)
        made = history.revert(version)
        typer.echo(f"{profile}: версия {version} снова текущая (записана как версия {made.number})")

    @site.command("schema")
    def site_schema(
        output: Annotated[
            Path | None, typer.Option(help="Write it here instead of printing it")
        ] = None,
    ) -> None:
        """The JSON Schema of a site profile, for editors (profiles/site-profile.schema.json)."""
        from adapters.profile.model import json_schema

        if output is None:
            typer.echo(json_schema(), nl=False)
            return
        output.write_text(json_schema(), encoding="utf-8")
        typer.echo(f"wrote {output}")

    @app.command()
    def learn(
        url: Annotated[str, typer.Argument(help="The booking site's address")],
        name: Annotated[str, typer.Option(help="What to call the site (the files' name)")],
        out: Annotated[Path, typer.Option(help="Where to write the recording")] = Path("profiles"),
        cdp: Annotated[
            str | None,
            typer.Option(
                help="Attach to a Chromium run with --remote-debugging-port (its address)"
            ),
        ] = None,
        lists_by_example: Annotated[
            bool,
            typer.Option(
                help="Ask for every list by two examples clicked in the page (else only "
                "where the page's list is not a table)"
            ),
        ] = False,
        today: Annotated[
            datetime | None,
            typer.Option(
                formats=["%Y-%m-%d"],
                help="The site's today, when its clock is not this machine's (a test site's); "
                "the check books as far ahead of it as the site allows",
            ),
        ] = None,
    ) -> None:
        """Show the bot a site once: log in, open a day's free rooms, book one, open «my
        bookings», cancel it; answer the prompts here. Writes OUT/NAME.recording.json and the
        profile drafted from it, OUT/NAME.yaml."""
        from app.learn import learn as run_learn

        settings = load()
        try:
            written = asyncio.run(
                run_learn(
                    settings,
                    url,
                    name=name,
                    out=out,
                    cdp=cdp,
                    lists_by_example=lists_by_example,
                    today=today.date() if today else None,
                )  # fmt: skip
            )
        except ClubError as exc:
            fail(exc)
        for path in written:
            typer.echo(f"Записано: {path}")

    app.add_typer(site, name="site")
