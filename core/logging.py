"""structlog set-up: one call at start-up; per-task context through contextvars.

What users write (message texts, typed answers) is personal: it reaches the logs only at
DEBUG. Above DEBUG a processor replaces such fields with their length, so an event still
says that something came and how big it was. Portal usernames are never logged at all.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any, TextIO

import structlog

__all__ = ["USER_CONTENT_KEYS", "configure_logging", "log_processors", "redact_user_content"]

# Event fields that carry what a user wrote (or who they are on the portal).
USER_CONTENT_KEYS = frozenset({"text", "value", "caption", "command_text", "username"})


def redact_user_content(
    logger: object, method_name: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """Each user-content field becomes ``<N chars>``; a username is dropped."""
    for key in USER_CONTENT_KEYS & event_dict.keys():
        value = event_dict.pop(key)
        if key != "username":
            event_dict[f"{key}_len"] = len(value) if isinstance(value, str) else None
    return event_dict


def log_processors(level: str = "INFO", *, json: bool = False) -> list[structlog.typing.Processor]:
    """The processor chain ``configure_logging`` installs (tests render with it too)."""
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json else structlog.dev.ConsoleRenderer(colors=False)
    )
    chain: list[structlog.typing.Processor] = [structlog.contextvars.merge_contextvars]
    if logging.getLevelName(level) > logging.DEBUG:
        chain.append(redact_user_content)
    chain += [
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.format_exc_info,
        renderer,
    ]
    return chain


def configure_logging(
    level: str = "INFO", *, json: bool = False, stream: TextIO | None = None
) -> None:
    """Log to ``stream`` (stderr unless given: the terminal chat logs to a file)."""
    if stream is not None:
        logging.captureWarnings(True)  # or Python's warnings would still reach the screen
    stream = stream or sys.stderr
    logging.basicConfig(format="%(message)s", stream=stream, level=level)
    # Its per-job INFO lines drown the terminal chat; our own events say what matters.
    logging.getLogger("apscheduler").setLevel(max(logging.WARNING, logging.getLevelName(level)))
    structlog.configure(
        processors=log_processors(level, json=json),
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
        logger_factory=structlog.PrintLoggerFactory(file=stream),
        cache_logger_on_first_use=True,
    )
