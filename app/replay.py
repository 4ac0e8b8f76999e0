"""``clubman runs`` and ``clubman replay``: an operator's look at stored runs.

Reads storage only (no bot, no browser); the timeline itself is ``core.timeline``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

from app.compose import open_settings_storage
from core.errors import NotFound
from core.settings import Settings
from core.timeline import RunOverview, Timeline, build_timeline
from storage import Storage

__all__ = ["list_runs", "parse_since", "replay_run"]

_RELATIVE = re.compile(r"^\s*(\d+)\s*([mhdw])\s*$")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}
# Messages of the run's chat this long around it are read; its own are kept.
_AROUND = timedelta(minutes=5)


def parse_since(text: str, *, now: datetime) -> datetime:
    """``30m``, ``2h``, ``7d``, ``1w`` before ``now``, or an ISO date or date-time (UTC if
    no zone is given); ``ValueError`` naming the accepted forms otherwise."""
    relative = _RELATIVE.match(text)
    if relative:
        amount, unit = int(relative.group(1)), relative.group(2)
        return now - timedelta(**{_UNITS[unit]: amount})
    try:
        moment = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(
            f"{text!r} is neither a span (30m, 2h, 7d, 1w) nor an ISO date (2026-11-23, "
            "2026-11-23T18:00, 2026-11-23T18:00+03:00)"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


async def list_runs(
    settings: Settings, *, chat_id: int | None, since: datetime | None, limit: int
) -> list[RunOverview]:
    async with open_settings_storage(settings) as storage:
        runs = await storage.runs.recent(chat_id=chat_id, since=since, limit=limit)
    return [RunOverview.of(run) for run in runs]


async def replay_run(settings: Settings, run_id: str, *, screenshots: Path | None) -> Timeline:
    """The run's timeline; a failed run's screenshot is written under ``screenshots``
    (default ``DATA_DIR/screenshots``) and its path set on the timeline."""
    async with open_settings_storage(settings) as storage:
        timeline, picture = await _load(storage, run_id)
    if picture is not None:
        folder = screenshots or settings.data_dir / "screenshots"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"run-{run_id}.png"
        path.write_bytes(picture)
        timeline.screenshot = str(path)
    return timeline


async def _load(storage: Storage, run_id: str) -> tuple[Timeline, bytes | None]:
    run = await storage.runs.get(run_id)
    if run is None:
        raise NotFound(f"no run {run_id!r}", hint="`clubman runs` lists the stored runs")
    events = await storage.events.for_run(run_id)
    messages = await storage.conversations.between(
        run.chat_id, since=run.created_at - _AROUND, until=run.updated_at + _AROUND
    )
    return build_timeline(run, events, messages), run.failure_screenshot
