"""What users write reaches the logs only at DEBUG; portal usernames never."""

from __future__ import annotations

import io
import logging

import pytest
import structlog

from core.logging import log_processors


@pytest.mark.parametrize(("level", "text_shown"), [("DEBUG", True), ("INFO", False)])
def test_message_text_is_logged_only_at_debug(level: str, text_shown: bool) -> None:
    out = io.StringIO()
    structlog.configure(
        processors=log_processors(level),
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level)),
        logger_factory=structlog.PrintLoggerFactory(file=out),
        cache_logger_on_first_use=False,
    )
    try:
        structlog.get_logger("t").info("command.received", text="забронируй 205", user_id=7)
        structlog.get_logger("t").info("portal.session", username="petrova")
    finally:
        structlog.reset_defaults()
    logged = out.getvalue()
    assert ("забронируй 205" in logged) is text_shown
    assert ("text_len=14" in logged) is not text_shown
    assert ("petrova" in logged) is text_shown  # a stray username is dropped above DEBUG
    assert "user_id=7" in logged
