"""``clubman``: the command line. Every command builds ``Settings`` once and passes it down."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, NoReturn

import typer

import scenarios
from app.cli_sites import register_site_commands
from core.errors import ClubError, ConfigError
from core.jobs import discover, settings_model
from core.logging import configure_logging
from core.settings import Settings, load_settings

__all__ = ["app"]

app = typer.Typer(
    name="clubman",
    help="Club manager: a Telegram assistant that books university rooms for student clubs.",
    no_args_is_help=True,
    add_completion=False,
)


def _settings(*, log_to_file: bool = False) -> Settings:
    """The settings, with logging set up: on stderr, or with ``log_to_file`` appended to
    ``log_file(settings)`` (the terminal chat keeps its screen for the conversation)."""
    try:
        # The engine's sections and each job's own (SCHEDULER__… is the booking job's).
        settings = load_settings(settings_model(discover(scenarios)))
    except ClubError as exc:
        _fail(exc)
    stream = None
    if log_to_file:
        path = log_file(settings)
        path.parent.mkdir(parents=True, exist_ok=True)
        stream = path.open("a", encoding="utf-8", buffering=1)  # open while we run
    configure_logging(settings.log_level, stream=stream)
    return settings


def log_file(settings: Settings) -> Path:
    return settings.data_dir / "logs" / "clubman.log"


def _fail(exc: ClubError) -> NoReturn:
    typer.secho(f"clubman: {exc}", err=True, fg=typer.colors.RED)
    raise typer.Exit(2)


@app.command()
def doctor() -> None:
    """Check configuration, MongoDB, Redis and Chromium; say what is missing and how to fix it."""
    from core.doctor import diagnose
    from storage import open_storage

    settings = _settings()
    checks = asyncio.run(diagnose(settings, open_storage=open_storage))
    for check in checks:
        mark = "✓" if check.ok else "✗"
        typer.echo(f"{mark} {check.name}: {check.detail}")
        if check.fix:
            typer.echo(f"    fix: {check.fix}")
    if not all(check.ok for check in checks):
        raise typer.Exit(1)


@app.command()
def chat(
    lang: Annotated[str, typer.Option(help="Interface language: ru or en")] = "ru",
    verbose: Annotated[
        bool, typer.Option("--verbose", help="Show the log here instead of in its file")
    ] = False,
) -> None:
    """Talk to the bot in this terminal (no Telegram needed)."""
    from app.runtime import run
    from app.terminal import run_chat

    settings = _settings(log_to_file=not verbose)
    try:
        run(
            run_chat(
                settings,
                lang="en" if lang == "en" else "ru",
                log_path=None if verbose else log_file(settings),
            )
        )
    except KeyboardInterrupt:
        typer.echo("\nbye")
    except ClubError as exc:
        _fail(exc)


@app.command()
def demo() -> None:
    """Zero-config demo: the Telegram bot if TELEGRAM__TOKEN is set, else the terminal chat."""
    try:
        token = load_settings().telegram.token  # each view sets up its own logging
    except ClubError as exc:
        _fail(exc)
    if token is not None:
        typer.echo("TELEGRAM__TOKEN is set: starting the bot (Ctrl-C to stop)")
        run()
    else:
        chat()


@app.command()
def run(
    webhook_url: Annotated[
        str | None, typer.Option(help="Public HTTPS URL for webhook mode (default: long polling)")
    ] = None,
    webhook_host: Annotated[
        str, typer.Option(help="Interface the webhook (or --metrics-port) listens on")
    ] = "0.0.0.0",
    webhook_port: Annotated[int, typer.Option(help="TCP port the webhook listens on")] = 8080,
    metrics_port: Annotated[
        int | None,
        typer.Option(help="Long polling: serve /metrics on this port (webhook: on its port)"),
    ] = None,
    supervised: Annotated[
        bool,
        typer.Option(
            "--supervise/--no-supervise",
            help="Restart the bot within a second if it crashes (off: leave that to systemd)",
        ),
    ] = True,
) -> None:
    """Run the Telegram bot: long polling, or a webhook with --webhook-url."""
    from app.run import preload
    from app.run import run as run_bot
    from app.supervisor import EXIT_CONFIG, supervise
    from bot.factory import check_access

    settings = _settings()

    def bot() -> int:
        try:
            run_bot(
                settings, webhook_url=webhook_url, host=webhook_host, port=webhook_port,
                metrics_port=metrics_port,
            )  # fmt: skip
        except KeyboardInterrupt:
            pass
        except ClubError as exc:  # a configuration error is not retried by the supervisor
            typer.secho(f"clubman: {exc}", err=True, fg=typer.colors.RED)
            return EXIT_CONFIG if isinstance(exc, ConfigError) else 1
        return 0

    try:
        check_access(settings)  # a missing token fails here, before anything starts
        preload(settings)
    except ClubError as exc:
        _fail(exc)
    raise typer.Exit(supervise(bot) if supervised else bot())


@app.command()
def parse(
    text: Annotated[str, typer.Argument(help="The command text, or - to read one per line")],
    now: Annotated[str | None, typer.Option(help="Pretend it is this moment (ISO 8601)")] = None,
    tz: Annotated[str | None, typer.Option(help="Time zone (default: TIMEZONE)")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the decision as JSON")] = False,
) -> None:
    """Print the decision the bot makes for a command (for debugging): the surest of the
    jobs' readings (a booking, an event to create). Building
    names come from the cached catalogue, else from the site; with neither, it parses
    without them."""
    import json
    import sys
    from datetime import datetime
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    from app.compose import current_catalogue
    from core.nlu import Places
    from core.planner import ProxyPlanner
    from core.scenario import Utterance

    settings = _settings()
    try:
        zone = ZoneInfo(tz or settings.timezone)
        moment = datetime.fromisoformat(now) if now else datetime.now(zone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        typer.secho(f"clubman: bad --now or --tz: {exc}", err=True, fg=typer.colors.RED)
        raise typer.Exit(2) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    try:
        places = Places.from_catalogue(asyncio.run(current_catalogue(settings)))
    except ClubError as exc:  # a decision needs no site: parse with no building names
        reason = exc.message.splitlines()[0] if exc.message else type(exc).__name__
        typer.secho(
            f"clubman: no catalogue cached and the site is not reachable ({reason}): "
            "parsing without building names",
            err=True,
            fg=typer.colors.YELLOW,
        )
        places = Places.empty()
    # Each job reads its own commands, the site behind it or not.
    readers = [job.reader() for job in discover(scenarios) if job.reader is not None]
    planner = ProxyPlanner((), readers=readers)
    lines = sys.stdin if text == "-" else [text]
    for line in lines:
        said = Utterance(text=line.rstrip("\n"), now=moment, tz=zone, places=places)
        decision = planner.understand(said)
        payload = decision.to_json()
        if as_json:
            typer.echo(json.dumps(payload, ensure_ascii=False))
        else:
            typer.echo(f"{payload['intent']} ({payload['confidence']}): {payload['slots']}")


def _since(text: str | None) -> datetime | None:
    from app.replay import parse_since

    if text is None:
        return None
    try:
        return parse_since(text, now=datetime.now(UTC))
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--since") from None


@app.command()
def runs(
    chat: Annotated[int | None, typer.Option(help="Only this chat's runs")] = None,
    since: Annotated[
        str | None, typer.Option(help="Created since: 30m, 2h, 7d, 1w or an ISO date/time")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, help="At most this many, newest first")] = 50,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object per line")] = False,
) -> None:
    """List stored scenario runs, newest first (ids for `clubman replay`)."""
    from app.replay import list_runs

    moment = _since(since)
    settings = _settings()
    try:
        found = asyncio.run(list_runs(settings, chat_id=chat, since=moment, limit=limit))
    except ClubError as exc:
        _fail(exc)
    for run in found:
        if as_json:
            typer.echo(run.model_dump_json())
        else:
            created = run.created_at.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S")
            typer.echo(
                f"{run.run_id}  {created}  {run.status:<9}  {run.scenario:<10}  "
                f"chat {run.chat_id}  {run.command[:60]}"
            )


@app.command()
def replay(
    run_id: Annotated[str, typer.Argument(help="The run's id (see `clubman runs`)")],
    screenshots: Annotated[
        Path | None, typer.Option(help="Where to write a failed run's screenshot")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the timeline as JSON")] = False,
) -> None:
    """Print one run as a timeline: messages, questions, steps, retries, LLM calls."""
    from app.replay import replay_run
    from core.timeline import render_timeline

    settings = _settings()
    try:
        timeline = asyncio.run(replay_run(settings, run_id, screenshots=screenshots))
    except ClubError as exc:
        _fail(exc)
    if as_json:
        typer.echo(timeline.model_dump_json(indent=2))
    else:
        typer.echo(render_timeline(timeline), nl=False)


@app.command()
def mcp(
    http: Annotated[
        str | None,
        typer.Option(help="Serve streamable HTTP on HOST:PORT (path /mcp) instead of stdio"),
    ] = None,
) -> None:
    """The MCP server. On stdio (default) it acts for the user whose token is in
    CLUBMAN_MCP_TOKEN; over HTTP every request bears its user's token."""
    from app.mcp import parse_listen, serve_mcp
    from app.runtime import run as run_loop

    settings = _settings()
    try:
        listen = parse_listen(http) if http is not None else None
        run_loop(serve_mcp(settings, http=listen))
    except KeyboardInterrupt:
        pass
    except ClubError as exc:
        _fail(exc)


_USER_ID_LIMIT = 2**52  # Telegram: a user id has at most 52 significant bits


@app.command("mcp-token")
def mcp_token(
    user_id: Annotated[int, typer.Argument(help="The user's Telegram id")],
    revoke: Annotated[
        bool, typer.Option("--revoke", help="Revoke every token of the user instead")
    ] = False,
) -> None:
    """Print a new MCP access token for a Telegram user (shown once, stored hashed)."""
    from app.mcp import issue_token, revoke_tokens

    if not 0 < user_id < _USER_ID_LIMIT:  # a group's id is negative; storage holds 64 bits
        typer.secho(
            f"clubman: {user_id} is no Telegram user id (a person's id, as in a private chat, "
            "is a positive number of at most 52 bits)",
            err=True,
            fg=typer.colors.RED,
        )
        raise typer.Exit(2)
    settings = _settings()
    try:
        if revoke:
            count = asyncio.run(revoke_tokens(settings, user_id))
            typer.echo(f"revoked {count} token(s) of user {user_id}")
        else:
            typer.echo(asyncio.run(issue_token(settings, user_id)))
    except ClubError as exc:
        _fail(exc)


@app.command()
def keygen() -> None:
    """Print a new key for SECURITY__ENCRYPTION_KEY (stored portal passwords and sessions)."""
    from cryptography.fernet import Fernet

    typer.echo(Fernet.generate_key().decode())


register_site_commands(app, load=_settings, fail=_fail)


@app.command()
def portal(
    host: Annotated[str, typer.Option(help="Interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="TCP port")] = 8700,
    db: Annotated[str, typer.Option(help="SQLite file, or :memory:")] = ":memory:",
    seed: Annotated[int, typer.Option(help="Seed for other users' bookings")] = 1,
    test_api: Annotated[bool, typer.Option("--test-api", help="Serve /_test/* controls")] = False,
) -> None:
    """Serve the reference room-booking portal."""
    from portal.server import serve

    configure_logging("INFO")
    serve(host=host, port=port, db=db, seed=seed, test_api=test_api)


def main() -> None:
    app()
