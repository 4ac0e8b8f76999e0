"""``clubman parse --json``'s decision for a weekday said with its date (issue 65, item 7):
the date when they agree, a question naming both dates when they do not (Monday
2026-11-23: 1 December is a Tuesday, 30 November a Monday)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.test_cli_parse_offline import offline, parse  # noqa: F401 (a fixture)


def test_a_weekday_that_agrees_with_its_date_gives_the_date(offline: Path) -> None:  # noqa: F811
    result = parse("book a room on Monday, November 30 10-12")
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    assert decision["slots"]["date"] == "2026-11-30"
    assert "date_options" not in decision["slots"]
    assert decision["next_action"] == "execute"


def test_a_weekday_against_its_date_is_a_question_with_both(offline: Path) -> None:  # noqa: F811
    result = parse("забронируй аудиторию в среду 1 декабря с 10 до 12")
    assert result.returncode == 0, result.stderr
    decision = json.loads(result.stdout)
    assert decision["intent"] == "book_rooms"
    assert "date" not in decision["slots"]
    assert decision["slots"]["date_options"] == ["2026-12-01", "2026-12-02"]
    assert decision["missing"] == ["date"]
    assert decision["next_action"] == "clarify"
    assert decision["clarification_question"] == (
        "День недели и дата не совпадают: вт 01.12 или ср 02.12?"
    )
