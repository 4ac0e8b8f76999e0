"""Booking end to end through the core: real portal, real Chromium, real storage."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from pydantic import SecretStr

from app.engine import build_core
from core.browser import BrowserPool
from core.clock import ManualClock
from core.commands import Answer, Command
from core.dispatcher import ChatDispatcher
from core.output import Done, Failed, Question
from core.settings import load_settings
from core.site.catalogue import Catalogues
from core.store import RunStatus
from core.vault import CredentialVault
from scenarios.booking import PortalAccount, PortalWork
from storage import Storage
from tests.support.catalogues import REFPORTAL_CATALOGUE
from tests.support.clocks import ticking
from tests.support.jobs import product_scenarios
from tests.support.portal import chaos_served, portal_bookings, set_quirks
from tests.support.refportal import refportal_system
from tests.support.sinks import CollectingSink

FLAGSHIP = "забронируй 3 аудитории рядом в этот четверг с 18 до 20"


@pytest.fixture
async def manager(
    storage: Storage, sink: CollectingSink, clock: ManualClock, portal_url: str, pool: BrowserPool
) -> AsyncIterator[ChatDispatcher]:
    account = PortalAccount(username="club", password=SecretStr("club-demo"))
    work = PortalWork(
        pool=pool,
        system=refportal_system(portal_url),
        account=account,
        vault=CredentialVault(storage, None),
    )
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


def cmd(text: str, chat: int = 100) -> Command:
    return Command(chat_id=chat, user_id=chat, text=text)


async def tap(manager: ChatDispatcher, question: Question, option_id: str) -> None:
    outcome = await manager.answer(
        Answer(
            chat_id=question.chat_id,
            user_id=question.chat_id,
            run_id=question.run_id,
            seq=question.seq,
            option_id=option_id,
        )
    )
    assert outcome.accepted, outcome.note


def adjacent(bookings: list[dict[str, object]]) -> bool:
    numbers = sorted(int(str(b["room_number"])) for b in bookings)
    return (
        numbers == list(range(numbers[0], numbers[0] + len(numbers)))
        and len({n // 100 for n in numbers}) == 1
    )


async def test_flagship_books_three_adjacent_rooms_after_asking_the_building(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    await manager.handle(cmd(FLAGSHIP))
    question = await sink.wait_for(Question)
    assert question.key == "building" and question.text == "В каком корпусе?"
    assert [o.id for o in question.options] == ["main", "chaikovsky", "lab", "any"]
    await tap(manager, question, "chaikovsky")
    done = await sink.wait_for(Done, timeout=60)
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 3 and adjacent(booked)
    assert {b["building"] for b in booked} == {"chaikovsky"}
    assert {(b["date"], b["start"], b["end"]) for b in booked} == {("2026-11-26", "18:00", "20:00")}
    rooms = ", ".join(sorted(str(b["room_number"]) for b in booked))
    assert done.text == f"Забронированы {rooms} (Корпус на Чайковского, чт 26.11, 18:00–20:00)"


async def test_the_usual_building_is_offered_first_next_time(
    manager: ChatDispatcher, sink: CollectingSink
) -> None:
    await manager.handle(cmd("забронируй аудиторию завтра с 10 до 11 в лабораторном"))
    await sink.wait_for(Done, timeout=60)
    await manager.handle(cmd("забронируй аудиторию послезавтра с 12 до 13"))
    question = await sink.wait_for(Question)
    assert question.options[0].id == "lab"
    assert question.options[0].label == "Как обычно: Лабораторный корпус"


async def test_list_and_cancel_with_confirmation(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    await manager.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
    await sink.wait_for(Done, timeout=60)
    mark = len(sink.outputs)
    await manager.handle(cmd("мои брони"))
    listing = await sink.wait_for(Done, after=mark, timeout=60)
    assert listing.text == "Ваши брони:\n• Ср 25.11 12:00–13:00, Главный корпус: 301"
    mark = len(sink.outputs)
    await manager.handle(cmd("отмени бронь на среду"))
    confirm = await sink.wait_for(Question, after=mark, timeout=60)
    assert confirm.text == "Отменить 301, Главный корпус, ср 25.11 12:00–13:00?"
    await tap(manager, confirm, "yes")
    done = await sink.wait_for(Done, after=mark, timeout=60)
    assert done.text.startswith("Отменена бронь")
    assert await portal_bookings(portal_url, user="club") == []


async def test_full_building_offers_alternatives_and_books_the_chosen_one(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    await set_quirks(portal_url, full_building="main")
    await manager.handle(cmd("забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20"))
    question = await sink.wait_for(Question, timeout=60)
    assert question.key == "alt1" and "Не нашлось" in question.text
    labels = [o.label for o in question.options]
    assert any(label.startswith("Корпус на Чайковского") for label in labels), labels
    other = next(o for o in question.options if o.label.startswith("Корпус на Чайковского"))
    await tap(manager, question, other.id)
    done = await sink.wait_for(Done, timeout=60)
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 2 and {b["building"] for b in booked} == {"chaikovsky"}
    assert "Корпус на Чайковского" in done.text


async def test_a_booking_the_site_hides_is_told_plainly_and_never_sent_again(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    """The form answers «Заявка принята» with no number and «Мои брони» lists only the
    next two days: the first room is booked, cannot be confirmed, and is not sent again;
    the user is told which room to check, not «не получилось» and not alternatives."""
    await set_quirks(portal_url, drift=["in_place", "short_list"])
    await manager.handle(cmd("забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20"))
    failed = await sink.wait_for(Failed, timeout=60)
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 1
    room = booked[0]["room_number"]
    assert failed.text == (
        f"Бронь {room} (Главный корпус, чт 26.11, 18:00–20:00) отправлена на сайт, но сайт не "
        "показал, сделана ли она. Снова я её не отправляю, чтобы не забронировать дважды: "
        "проверьте «Мои брони» на сайте."
    )
    assert not any(isinstance(output, Question) for output in sink.outputs)


async def test_a_booking_whose_list_cannot_be_read_is_checked_on_the_day_not_failed(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str
) -> None:
    """«Мои брони» answers HTTP 500 after the rooms were booked: the day's grid shows them
    held, so the answer is the booking's, never «не получилось»."""
    await set_quirks(portal_url, drift=["my_unreadable"])
    await manager.handle(cmd("забронируй 2 аудитории рядом в главном корпусе в четверг с 18 до 20"))
    done = await sink.wait_for(Done, timeout=120)
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 2 and adjacent(booked)
    rooms = ", ".join(sorted(str(b["room_number"]) for b in booked))
    assert done.text == f"Забронированы {rooms} (Главный корпус, чт 26.11, 18:00–20:00)"


async def test_session_expiry_and_server_errors_mid_run_still_book(
    manager: ChatDispatcher, sink: CollectingSink, portal_url: str, clock: ManualClock
) -> None:
    # Sessions last 2 s: on the profile's fast path the whole booking outlived 4 s ones, so
    # none expired and the run tested no re-login.
    await set_quirks(
        portal_url, session_lifetime=2, error_rate=0.25, error_seed=3, error_gap=4, latency_ms=200
    )
    async with ticking(clock):  # sessions live on the portal's (manual) clock
        await manager.handle(cmd("забронируй 3 аудитории рядом в главном в пятницу с 10 до 12"))
        await sink.wait_for(Done, timeout=120)
    booked = await portal_bookings(portal_url, user="club")
    assert len(booked) == 3 and adjacent(booked)
    served = await chaos_served(portal_url)
    assert served["errors_served"] > 0 and served["sessions_expired"] > 0


async def test_wrong_password_stops_with_a_clear_message(
    storage: Storage,
    sink: CollectingSink,
    clock: ManualClock,
    portal_url: str,
    pool: BrowserPool,
) -> None:
    account = PortalAccount(username="club", password=SecretStr("wrong"))
    work = PortalWork(
        pool=pool,
        system=refportal_system(portal_url),
        account=account,
        vault=CredentialVault(storage, None),
    )
    scenarios = product_scenarios(storage, work, catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE))
    async with build_core(
        load_settings(),
        storage,
        sink,
        catalogues=Catalogues.fixed(REFPORTAL_CATALOGUE),
        scenarios=scenarios,
        clock=clock,
    ) as core:
        await core.handle(cmd("забронируй 301 в главном послезавтра с 12 до 13"))
        failed = await sink.wait_for(Failed, timeout=60)
    assert "wrong" not in failed.text
    run = await storage.runs.get(failed.run_id)
    assert run is not None and run.status is RunStatus.FAILED
    assert run.failure_screenshot and run.failure_screenshot.startswith(b"\x89PNG")
    assert failed.screenshot == run.failure_screenshot
