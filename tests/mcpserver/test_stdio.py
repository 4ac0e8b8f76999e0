"""``clubman mcp`` on stdio, driven by the SDK's own client: the tools and their schemas,
finding rooms, booking two adjacent rooms in two steps (checked on the portal's
``/_test/bookings``), the same confirmation twice booking once, cancelling, the answers
reaching Telegram (the bot's sweep sends them), and bad input refused with nothing
booked and nothing of another user shown."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

from core.agent import RunOutcome
from core.store import RunStatus, ScenarioRun
from scenarios.booking.agent import BookingAnswer, BookingInfo, CancelAnswer, FoundRooms
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram, StoredMessage
from tests.mcpserver.conftest import World
from tests.mcpserver.support import (
    CLUBMAN,
    booking_day,
    call,
    call_error,
    clubman,
    stdio_session,
)
from tests.support.portal import portal_bookings

USER = 501
TOOLS = {
    "find_rooms", "book_rooms", "my_bookings", "cancel_booking", "run_status",
    "list_schedules", "create_schedule",
}  # fmt: skip
WAIT = 90.0  # Chromium on a busy two-core machine


def two_adjacent(building: str = "main", start: str = "18:00") -> dict[str, Any]:
    return {
        "date": booking_day().isoformat(), "start": start, "end": "20:00",
        "building": building, "rooms": 2, "adjacent": True,
    }  # fmt: skip


def _session_env(world: World) -> dict[str, str]:
    return world.env | {"CLUBMAN_MCP_TOKEN": clubman(world.env, "mcp-token", str(USER))}


async def test_tools_catalogue_free_rooms_and_bad_input(world: World) -> None:
    others = await world.storage.runs.create(
        ScenarioRun(chat_id=999, user_id=999, scenario="book_rooms", status=RunStatus.DONE)
    )
    async with stdio_session(_session_env(world), world.tmp) as session:
        listed = (await session.list_tools()).tools
        assert {tool.name for tool in listed} == TOOLS
        book = next(tool for tool in listed if tool.name == "book_rooms")
        assert book.input_schema["required"] == ["query"]
        assert "plan" in (book.output_schema or {})["properties"]

        read = await session.read_resource("clubman://catalogue")
        catalogue = json.loads(read.contents[0].text)  # type: ignore[union-attr]
        assert {b["code"] for b in catalogue["buildings"]} == {"main", "chaikovsky", "lab"}

        found = await call(session, "find_rooms", FoundRooms, query=two_adjacent())
        [main] = found.buildings
        assert main.building == "main" and len(main.suggested) == 2
        first, second = sorted(int(n) for n in main.suggested)
        assert second == first + 1
        assert set(main.suggested) <= {room.number for room in main.free}

        assert "Unknown tool" in await call_error(session, "book_everything")
        wrong = two_adjacent() | {"rooms": "two"}
        assert "rooms" in await call_error(session, "find_rooms", query=wrong)
        missing = {k: v for k, v in two_adjacent().items() if k != "date"}
        assert "date" in await call_error(session, "book_rooms", query=missing)
        assert "building:" in await call_error(session, "find_rooms", query=two_adjacent("moon"))
        unknown = await call_error(
            session, "book_rooms", query=two_adjacent(), confirm_token="confirm_made-up"
        )
        assert "unknown confirm token" in unknown
        theirs = await call_error(session, "run_status", run_id=others.short_id)
        assert "no run" in theirs and "999" not in theirs

        clubman(world.env, "mcp-token", str(USER), "--revoke")
        revoked = await call_error(session, "find_rooms", query=two_adjacent())
        assert "revoked" in revoked
    assert await portal_bookings(world.portal, user="club") == []


def test_stdio_without_a_live_token_does_not_start(world: World) -> None:
    made_up = subprocess.run(
        [CLUBMAN, "mcp"], env={**os.environ, **world.env, "CLUBMAN_MCP_TOKEN": "clubman_x"},
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert made_up.returncode == 2
    assert "CLUBMAN_MCP_TOKEN is missing, unknown or revoked" in made_up.stderr
    assert "clubman_x" not in made_up.stderr  # a token is never echoed


def _has(text: str) -> Any:
    return lambda m: text in (m.text or "")


def _count(messages: list[StoredMessage], text: str) -> int:
    return sum(text in (m.text or "") for m in messages)


async def test_two_adjacent_rooms_booked_once_and_cancelled(world: World, tg: FakeTelegram) -> None:
    user = tg.user(USER, "Анна", language_code="ru")
    async with running_bot(tg, world.storage), stdio_session(_session_env(world), world.tmp) as s:
        offer = await call(s, "book_rooms", BookingAnswer, query=two_adjacent())
        assert offer.confirm_token is not None and offer.run is None
        assert offer.plan.building == "main" and len(offer.plan.rooms) == 2
        assert await portal_bookings(world.portal, user="club") == []  # a plan books nothing

        steps: list[tuple[float, float | None, str | None]] = []

        async def progress(done: float, total: float | None, message: str | None) -> None:
            steps.append((done, total, message))

        confirm = {"query": two_adjacent(), "confirm_token": offer.confirm_token}
        booked = await call(s, "book_rooms", BookingAnswer, progress=progress, **confirm)
        assert booked.run is not None and booked.run.state == "done", booked.run
        on_portal = await portal_bookings(world.portal, user="club")
        assert sorted(b["room_number"] for b in on_portal) == sorted(offer.plan.rooms)
        assert steps and steps[-1][:2] == (4, 4) and steps[0][0] < 4  # login … verify

        again = await call(s, "book_rooms", BookingAnswer, **confirm)
        assert again.run is not None and again.run.run_id == booked.run.run_id
        other = {"query": two_adjacent(start="19:00"), "confirm_token": offer.confirm_token}
        assert "another request" in await call_error(s, "book_rooms", **other)
        assert len(await portal_bookings(world.portal, user="club")) == 2

        # Reported in the user's Telegram chat, once, by the bot process.
        await user.wait_for_message(_has("Забронированы"), timeout=WAIT)

        mine = await call(s, "my_bookings", list[BookingInfo])
        assert sorted(b.room for b in mine) == sorted(offer.plan.rooms)
        number = mine[0].number
        cancel = await call(s, "cancel_booking", CancelAnswer, number=number)
        assert cancel.confirm_token is not None and cancel.booking.number == number
        assert len(await portal_bookings(world.portal, user="club")) == 2
        confirmed = {"number": number, "confirm_token": cancel.confirm_token}
        cancelled = await call(s, "cancel_booking", CancelAnswer, **confirmed)
        assert cancelled.run is not None and cancelled.run.state == "done", cancelled.run
        assert len(await portal_bookings(world.portal, user="club")) == 1
        status = await call(s, "run_status", RunOutcome, run_id=cancelled.run.run_id)
        assert status.state == "done"
        await user.wait_for_message(_has("Отменена бронь"), timeout=WAIT)
    assert _count(user.messages, "Забронированы") == 1
    assert _count(user.messages, "Отменена бронь") == 1


async def test_a_run_waiting_on_a_question_shows_in_status_and_asks_in_telegram(
    world: World, tg: FakeTelegram
) -> None:
    """Two plans for the same rooms, both confirmed: the first books them; the second
    finds them taken and asks the user, in Telegram, which other time to take. /status
    shows that run, and the agent hears that it waits."""
    user = tg.user(USER, "Анна", language_code="ru")
    async with running_bot(tg, world.storage), stdio_session(_session_env(world), world.tmp) as s:
        first = await call(s, "book_rooms", BookingAnswer, query=two_adjacent())
        second = await call(s, "book_rooms", BookingAnswer, query=two_adjacent())
        assert first.plan == second.plan
        for offer in (first, second):
            confirm = {"query": two_adjacent(), "confirm_token": offer.confirm_token}
            outcome = (await call(s, "book_rooms", BookingAnswer, **confirm)).run
        assert outcome is not None and outcome.state == "waiting", outcome
        assert outcome.question is not None

        asked = await user.wait_for_message(_has(outcome.question), timeout=WAIT)
        assert asked.labels  # the other times, as buttons
        await user.send("/status")
        status = await user.wait_for_message(_has(f"[{outcome.run_id}]"), timeout=WAIT)
        assert "Бронирование" in (status.text or "")
    assert len(await portal_bookings(world.portal, user="club")) == 2
