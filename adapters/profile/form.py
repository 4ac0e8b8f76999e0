"""The booking form by the profile: open it, fill its fields, send it once.

Sending is never retried here: a lost answer is ``OutcomeUnknown``, which the session
resolves by looking in «my bookings» before anything is sent again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from time import monotonic as time_now
from typing import Any, NoReturn
from urllib.parse import unquote, urlsplit

import structlog
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from adapters.profile.navigate import Navigator
from adapters.profile.outcome import read_answer
from adapters.profile.parts import Action
from adapters.profile.patterns import search
from adapters.profile.reading import first_group, probes_of, read_terms, value
from core.browser.retry import Transient
from core.site.errors import OutcomeUnknown, UnexpectedPage
from scenarios.booking.errors import BookingRejected, SlotTaken

__all__ = ["booked_number", "fill_form", "open_form", "send_form"]

log = structlog.get_logger("clubman.portal")
_UNKNOWN_OUTCOME_HINT = "проверьте «мои брони», прежде чем бронировать снова"
_MADE = "ответа «бронь сделана»"
# Every labelled control's value, by its label's text, in one round trip.
_READ_VALUES = """
() => Object.fromEntries(Array.from(document.querySelectorAll("label"))
  .filter((label) => label.control)
  .map((label) => [label.innerText.replace(/\\s+/g, " ").trim(), label.control.value]))
"""
# The browser's own form check (required, min=…) of the submit button's form.
_INVALID_FIELDS = """
(button) => Array.from(button.form ? button.form.elements : [])
  .filter((el) => el.willValidate && !el.checkValidity())
  .map((el) => [(el.labels && el.labels[0] ? el.labels[0].innerText : el.name).trim(),
                el.validationMessage])
"""


async def open_form(nav: Navigator, page: Page, values: Mapping[str, Any]) -> None:
    book = nav.profile.book

    async def taken() -> None:
        if book.taken is not None and await nav.finder.maybe(page, book.taken, path="book.taken"):
            raise SlotTaken(
                f"Аудитория {values.get('room')} уже занята в это время", code="slot_taken"
            )

    status = await nav.open(page, book.open, values, path="book.open", shown=taken)
    if status == 404:
        raise BookingRejected(
            f"Аудитория {values.get('room')} не найдена на сайте", code="unknown_room"
        )
    if book.open.wait is not None:  # a page its scripts draw: the form comes when drawn
        await nav.wait_for(page, book.form, path="book.form", what="формы бронирования")
    else:
        await nav.finder.first(page, book.form, path="book.form", what="формы бронирования")
    if book.room is not None:
        terms = await read_terms(page, probes=probes_of([book.room]))
        shown = value(book.room, terms.self, terms=terms.pairs)
        if shown not in (str(values.get("room")), str(values.get("room_id"))):
            raise BookingRejected(
                f"Форма бронирования открылась для аудитории «{shown}», а не "
                f"{values.get('room')}: ничего не отправлено",
                code="wrong_room",
            )


async def fill_form(nav: Navigator, page: Page, values: Mapping[str, Any]) -> Locator:
    """Fill every field the site has not filled in already, then run the browser's own
    form check (``BookingRejected`` with its messages, as a person would see them).
    Returns the submit button."""
    book = nav.profile.book
    # Only a field found by its exact label is looked up in what the page holds.
    by_label = any(_exact_label(action) is not None for action in book.fields)
    shown: dict[str, str] = await page.evaluate(_READ_VALUES) if by_label else {}
    for index, action in enumerate(book.fields):
        if _holds_already(action, values, shown):
            continue
        await nav.act(page, action, values, path=f"book.fields.{index}")
    submit = await nav.finder.control(page, book.submit, path="book.submit", what="кнопки брони")
    if not book.browser_check:
        return submit
    invalid: list[list[str]] = await submit.evaluate(_INVALID_FIELDS)
    if invalid:
        message = "; ".join(f"{label}: {text}" for label, text in invalid)
        raise BookingRejected(message, code="client_validation")
    return submit


def _holds_already(action: Action, values: Mapping[str, Any], shown: Mapping[str, str]) -> bool:
    """The field (found by its label first) already holds what the action would put in:
    the site filled it in from the address (a person would leave it as it is)."""
    label, template = _exact_label(action), action.fill or action.select
    if label is None or template is None:
        return False
    return shown.get(label) == template.render(values)


def _exact_label(action: Action) -> str | None:
    """The label the field is found by first, when it is found by that exact label."""
    way = action.find[0]
    return way.label if way.exact else None


async def send_form(
    nav: Navigator, page: Page, submit: Locator, values: Mapping[str, Any]
) -> str | None:
    """Press ``submit`` once and return the new booking's number (None: made, at the
    ``saved`` address that shows no number); ``OutcomeUnknown`` when the answer is lost,
    ``SlotTaken``/``BookingRejected`` with the site's message. ``values`` are the
    booking's, for ``made_then`` to find it by."""
    book = nav.profile.book
    if book.made is not None:
        return await _answered_in_page(nav, page, submit, values)
    try:
        async with page.expect_navigation() as navigation:
            await submit.click()
        response = await navigation.value
    except PlaywrightError as exc:
        raise OutcomeUnknown(
            "Сайт не ответил на бронирование: результат неизвестен", hint=_UNKNOWN_OUTCOME_HINT
        ) from exc
    number = booked_number(book.booked, page.url)
    if number is not None:  # made, even if the page after it failed to load
        return number
    if response is not None and response.status >= 500:
        raise OutcomeUnknown(
            f"Сайт ответил HTTP {response.status} на бронирование: результат неизвестен",
            hint=_UNKNOWN_OUTCOME_HINT,
        )
    status = await nav.landed(page, response)  # the login page (or form): not taken
    if book.saved is not None and booked_number(book.saved, page.url) is not None:
        log.info("profile.saved_unnumbered", url=page.url)
        return None
    return await _refused(nav, page, status)


def booked_number(booked: str, url: str) -> str | None:
    """The booking's number when ``url`` is a booking's address: its path, else its
    decoded «path?query», matching ``booked`` (group 1, or the whole match)."""
    parts = urlsplit(url)
    for where in (parts.path, unquote(f"{parts.path}?{parts.query}")):
        found = search(booked, where)
        if found:
            return first_group(found)
    return None


async def _answered_in_page(
    nav: Navigator, page: Page, submit: Locator, values: Mapping[str, Any]
) -> str:
    """A site that answers in the page: ``made`` or the outcome's message shows; after
    ``made``, ``made_then`` leads to the booking's address."""
    book = nav.profile.book
    assert book.made is not None
    made = nav.finder.any_of(page, book.made).first
    message = nav.finder.any_of(page, book.outcome.message).first
    # A message shown before the click is not the answer to it.
    before = await message.inner_text() if await message.count() else None
    try:
        await submit.click()
        deadline = time_now() + nav.timeout_ms / 1000
        if before is None:  # whichever shows first is the answer
            await made.or_(message).first.wait_for(state="attached", timeout=nav.timeout_ms)
        while not (shown := await made.count()):  # else until the message is another one
            if await message.count() and await message.inner_text() != before:
                break
            if time_now() > deadline:
                # The LLM's pick, offered: a booking said made is then proved by its
                # number at the booking's address (``booked``), else it is unknown.
                if await nav.finder.picked(page, book.made, path="book.made", what=_MADE):
                    shown = 1
                    break
                raise OutcomeUnknown(
                    "Сайт не ответил на бронирование: результат неизвестен",
                    hint=_UNKNOWN_OUTCOME_HINT,
                )
            await asyncio.sleep(0.1)
    except PlaywrightError as exc:  # a timeout too
        raise OutcomeUnknown(
            "Сайт не ответил на бронирование: результат неизвестен", hint=_UNKNOWN_OUTCOME_HINT
        ) from exc
    if not shown and not await made.count():  # counted again only after a message
        return await _refused(nav, page, 200)
    await nav.finder.maybe(page, book.made, path="book.made")  # which one: a stand-in?
    try:
        for index, action in enumerate(book.made_then):
            if action.click:  # a press may load a page: the next action is on that one
                nav.page_coming(page)
            await nav.act(page, action, values, path=f"book.made_then.{index}")
            if action.click:
                await nav.settle(page)
        await page.wait_for_url(
            lambda url: booked_number(book.booked, url) is not None, timeout=nav.timeout_ms
        )
    # Made: nothing here may be tried again (a retry would send it again).
    except (PlaywrightError, Transient, UnexpectedPage) as exc:  # «my bookings» has it
        raise OutcomeUnknown(
            "Бронь сделана, но её номер не прочитать", hint=_UNKNOWN_OUTCOME_HINT
        ) from exc
    number = booked_number(book.booked, page.url)
    assert number is not None
    return number


async def _refused(nav: Navigator, page: Page, status: int) -> NoReturn:
    """The form was answered with a message, or with nothing readable: raises."""
    book = nav.profile.book
    try:
        answer = await read_answer(
            page, nav.finder, book.outcome, status, path="book.outcome.message"
        )
    except PlaywrightError as exc:  # sent, and its answer not readable: it may be made
        raise OutcomeUnknown(
            "Ответ сайта на бронирование не прочитать: результат неизвестен",
            hint=_UNKNOWN_OUTCOME_HINT,
        ) from exc
    if answer is None:  # neither the booking's page nor a message: it may be made
        log.warning("profile.booking_answer_unknown", url=page.url, where=nav.loaded.where(
            "book.booked"))  # fmt: skip
        raise OutcomeUnknown(
            "Сайт ответил на бронирование страницей без номера брони и без сообщения",
            hint=_UNKNOWN_OUTCOME_HINT,
        )
    if answer.meaning == "retry":
        raise Transient(f"the booking form was refused for now: {answer.message}")
    if answer.meaning == "slot_taken":
        raise SlotTaken(answer.message, code=answer.code or "slot_taken")
    code = answer.code or (None if answer.meaning == "rejected" else answer.meaning)
    raise BookingRejected(answer.message, code=code)
