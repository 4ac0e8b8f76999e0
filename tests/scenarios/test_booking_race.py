"""Two users book the same room at the same moment: one gets it, the other is told and
offered real alternatives (buttons), tapping one books it, and the portal never holds a
room twice. Real portal, real Chromium, real storage; either user may win."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import pytest
from cryptography.fernet import Fernet
from pydantic import SecretStr

from app.engine import build_core
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.output import Done, Failed, Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from scenarios.booking.alternatives import Placement
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.jobs import product_scenarios
from tests.support.portal import portal_bookings
from tests.support.refportal import refportal_system
from tests.support.sinks import CollectingSink

COMMAND = "забронируй 205 в Чайковского в четверг с 18 до 20"
WANTED = ("chaikovsky-205", "2026-11-26", "18:00", "20:00")
ANNA, BORIS = 100, 200
Outcome = Done | Failed | Question


@pytest.fixture(params=["shared", "personal"])
async def manager(
    request: pytest.FixtureRequest,
    storage: Storage,
    sink: CollectingSink,
    clock: ManualClock,
    portal_url: str,
    pool: BrowserPool,
) -> AsyncIterator[ChatDispatcher]:
    """``shared``: both book through the club's account (the usual set-up);
    ``personal``: each has logged in with an own portal account (/login)."""
    account = PortalAccount(username="club", password=SecretStr("club-demo"))
    vault = CredentialVault(storage, SecretStr(Fernet.generate_key().decode()))
    if request.param == "personal":
        await vault.save_credentials(ANNA, "club", SecretStr("club-demo"))
        await vault.save_credentials(BORIS, "chess", SecretStr("chess-demo"))
    work = PortalWork(pool=pool, system=refportal_system(portal_url), account=account, vault=vault)
    scenarios = product_scenarios(storage, work, catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE))
    async with build_core(
        load_settings(),
        storage,
        sink,
        catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
        scenarios=scenarios,
        clock=clock,
    ) as core:
        yield core


async def outcome(sink: CollectingSink, chat: int, *, after: int = 0) -> Outcome:
    """The first summary, failure or question for ``chat`` at index >= ``after``."""

    def found() -> Outcome | None:
        return next(
            (
                o
                for o in sink.outputs[after:]
                if isinstance(o, Done | Failed | Question) and o.chat_id == chat
            ),
            None,
        )

    async def poll() -> Outcome:
        while (result := found()) is None:
            await asyncio.sleep(0.05)
        return result

    return await asyncio.wait_for(poll(), timeout=120)


def overlapping(bookings: list[dict[str, Any]]) -> list[tuple[int, int]]:
    """Pairs of active bookings of one room whose times overlap (a double booking)."""
    return [
        (a["id"], b["id"])
        for i, a in enumerate(bookings)
        for b in bookings[i + 1 :]
        if a["room"] == b["room"]
        and a["date"] == b["date"]
        and a["start"] < b["end"]
        and b["start"] < a["end"]
    ]


def booked(bookings: list[dict[str, Any]], room: str, day: str, start: str, end: str) -> list[Any]:
    return [
        b
        for b in bookings
        if (b["room"], b["date"], b["start"], b["end"]) == (room, day, start, end)
    ]


async def book_at_once(manager: ChatDispatcher, sink: CollectingSink) -> dict[int, Outcome]:
    await asyncio.gather(
        manager.handle(Command(chat_id=ANNA, user_id=ANNA, text=COMMAND)),
        manager.handle(Command(chat_id=BORIS, user_id=BORIS, text=COMMAND)),
    )
    anna, boris = await asyncio.gather(outcome(sink, ANNA), outcome(sink, BORIS))
    return {ANNA: anna, BORIS: boris}


async def test_same_room_at_once_one_wins_the_other_books_an_alternative(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    outcomes = await book_at_once(manager, sink)

    winners = [chat for chat, o in outcomes.items() if isinstance(o, Done)]
    losers = [chat for chat, o in outcomes.items() if isinstance(o, Question)]
    assert len(winners) == 1 and len(losers) == 1, outcomes
    won, question = outcomes[winners[0]], outcomes[losers[0]]
    assert isinstance(won, Done) and isinstance(question, Question)
    assert won.text == "Забронирована 205 (Корпус на Чайковского, чт 26.11, 18:00–20:00)"
    assert question.key == "alt1"
    assert question.text.startswith("Не нашлось: аудитории, Корпус на Чайковского, чт 26.11")
    assert question.options and not question.allow_free_text
    everyone = await portal_bookings(portal_url)
    assert len(booked(everyone, *WANTED)) == 1

    mark = len(sink.outputs)
    choice = question.options[0]
    accepted = await manager.answer(
        Answer(
            chat_id=question.chat_id,
            user_id=question.chat_id,
            run_id=question.run_id,
            seq=question.seq,
            option_id=choice.id,
        )
    )
    assert accepted.accepted, accepted.note
    second = await outcome(sink, question.chat_id, after=mark)
    assert isinstance(second, Done), second
    assert second.text.startswith("Забронирована 205 (Корпус на Чайковского, ")
    moved = Placement.from_option_id(choice.id, REFPORTAL_CATALOGUE)
    wanted_then = (f"{moved.building}-205", moved.day.isoformat(), f"{moved.start:%H:%M}")

    everyone = await portal_bookings(portal_url)
    assert overlapping(everyone) == []
    assert len(booked(everyone, *WANTED)) == 1
    assert len(booked(everyone, *wanted_then, f"{moved.end:%H:%M}")) == 1
    ours = [b for b in everyone if b["user"] in ("club", "chess")]
    assert len(ours) == 2 and {b["room_number"] for b in ours} == {"205"}


async def test_a_room_another_run_booked_is_not_taken_for_ours(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    """Regression: on the shared club account the later run saw the earlier run's booking
    in «Мои брони» as its own and reported «Забронирована 205» without booking anything."""
    await manager.handle(Command(chat_id=ANNA, user_id=ANNA, text=COMMAND))
    first = await outcome(sink, ANNA)
    assert isinstance(first, Done), first
    await manager.handle(Command(chat_id=BORIS, user_id=BORIS, text=COMMAND))
    second = await outcome(sink, BORIS)
    assert isinstance(second, Question) and second.key == "alt1", second
    assert len(booked(await portal_bookings(portal_url), *WANTED)) == 1
