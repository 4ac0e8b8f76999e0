"""The booking form («Бронирование аудитории») and the confirmation page («Бронь оформлена»)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, time
from typing import Any
from urllib.parse import urlencode

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from adapters.refportal.pages.base import alert_text, land, path_of
from adapters.refportal.pages.common import hhmm, parse_day, parse_span
from core.browser.retry import Transient
from core.browser.summary import summarize
from core.site.errors import OutcomeUnknown, UnexpectedPage
from scenarios.booking.errors import BookingRejected, SlotTaken
from scenarios.booking.models import Booking

__all__ = ["BOOKED_HEADING", "FORM_HEADING", "BookPage", "read_booking"]

FORM_HEADING = "Бронирование аудитории"
BOOKED_HEADING = "Бронь оформлена"
_BOOKING_PATH = re.compile(r"^/booking/(\d+)$")
_UNKNOWN_OUTCOME_HINT = "проверьте «Мои брони», прежде чем бронировать снова"

# The browser's own form check (required, min=…) per submit button: label → message.
_INVALID_FIELDS = """
(buttons) => buttons.slice(0, 1).map((button) =>
  Array.from(button.form ? button.form.elements : [])
    .filter((el) => el.willValidate && !el.checkValidity())
    .map((el) => [(el.labels && el.labels[0] ? el.labels[0].innerText : el.name).trim(),
                  el.validationMessage]))
"""
# «Бронь оформлена» in one round trip: headings, the status line and the term →
# definition pairs (by ARIA role, native or explicit), read from the page's main region.
_READ_BOOKING = """
(mains) => mains.slice(0, 1).map((main) => {
  const clean = (s) => (s || "").replace(/\\s+/g, " ").trim();
  const all = (sel) => Array.from(main.querySelectorAll(sel)).map((el) => clean(el.innerText));
  return {
    headings: all("h1, h2, [role=heading]"),
    status: all("[role=status]"),
    terms: all("dt, [role=term]"),
    values: all("dd, [role=definition]"),
  };
})
"""
# The form as shown, in one round trip: its headings and, per labelled control, the
# label's text → the control's current value (the portal fills date and times in).
_READ_FORM = """
() => ({
  headings: Array.from(document.querySelectorAll("h1, h2, [role=heading]"))
    .map((h) => h.innerText.replace(/\\s+/g, " ").trim()),
  values: Object.fromEntries(Array.from(document.querySelectorAll("label"))
    .filter((label) => label.control)
    .map((label) => [label.innerText.replace(/\\s+/g, " ").trim(), label.control.value])),
})
"""


class BookPage:
    def __init__(self, page: Page, base_url: str) -> None:
        self.page = page
        self.base_url = base_url
        self._values: dict[str, str] = {}  # label → value as the form was opened

    async def open(self, *, room_id: str, day: date, start: time, end: time) -> None:
        query = urlencode(
            {"room": room_id, "date": day.isoformat(), "start": hhmm(start), "end": hhmm(end)}
        )
        response = await self.page.goto(f"{self.base_url}/book?{query}")
        if response is not None and response.status == 404:
            raise BookingRejected(f"Аудитория {room_id} не найдена на портале", code="unknown_room")
        await land(self.page, response)
        shown: dict[str, Any] = await self.page.evaluate(_READ_FORM)
        if not any(FORM_HEADING in heading for heading in shown["headings"]):
            raise UnexpectedPage("Не открылась форма бронирования", await summarize(self.page))
        self._values = {str(k): str(v) for k, v in shown["values"].items()}

    async def fill(
        self, *, day: date, start: time, end: time, purpose: str, attendees: int | None
    ) -> None:
        """Set every field that does not already hold the wanted value, then run the
        browser's own form check (``BookingRejected`` with its messages)."""
        page = self.page
        count = "" if attendees is None else str(attendees)
        for label, value, kind in (
            ("Дата", day.isoformat(), "fill"),
            ("Начало", hhmm(start), "select"),
            ("Окончание", hhmm(end), "select"),
            ("Цель бронирования", purpose, "fill"),
            ("Количество участников", count, "fill"),
        ):
            if self._values.get(label) == value:
                continue  # filled in by the portal already (or unknown label: set it below)
            field = page.get_by_label(label, exact=True)
            if kind == "select":
                await field.select_option(value=value)
            else:
                await field.fill(value)
        forms: list[list[list[str]]] = await self._submit_button().evaluate_all(_INVALID_FIELDS)
        if not forms:
            raise UnexpectedPage(
                "В форме бронирования нет кнопки «Забронировать»", await summarize(page)
            )
        invalid = forms[0]
        if invalid:
            message = "; ".join(f"{label}: {text}" for label, text in invalid)
            raise BookingRejected(message, code="client_validation")

    def _submit_button(self) -> Locator:
        return self.page.get_by_role("button", name="Забронировать")

    async def submit(self) -> str:
        """Send the form once (never retried) and return the new booking's number.

        ``OutcomeUnknown`` when the outcome is unknown (5xx, timeout, network);
        ``SlotTaken`` / ``BookingRejected`` with the portal's message when refused.
        """
        page = self.page
        try:
            async with page.expect_navigation() as navigation:
                await self._submit_button().click()
            response = await navigation.value
        except PlaywrightError as exc:
            raise OutcomeUnknown(
                "Портал не ответил на бронирование: результат неизвестен",
                hint=_UNKNOWN_OUTCOME_HINT,
            ) from exc
        booked = _BOOKING_PATH.match(path_of(page))
        if booked:  # made, even if the confirmation page itself failed to load
            return booked.group(1)
        if response is not None and response.status >= 500:
            raise OutcomeUnknown(
                f"Портал ответил HTTP {response.status} на бронирование: результат неизвестен",
                hint=_UNKNOWN_OUTCOME_HINT,
            )
        status = await land(page, response)  # /login → Bounced: the POST was not accepted
        try:
            message = await alert_text(page)
            if not message:  # sent, and answered with neither its page nor a refusal
                raise OutcomeUnknown(
                    "Портал ответил на бронирование страницей без номера брони и без "
                    "сообщения: результат неизвестен",
                    hint=_UNKNOWN_OUTCOME_HINT,
                )
            code = await page.get_by_role("alert").first.get_attribute("data-error-code")
        except PlaywrightError as exc:  # sent, and its answer not readable: it may be made
            raise OutcomeUnknown(
                "Ответ портала на бронирование не прочитать: результат неизвестен",
                hint=_UNKNOWN_OUTCOME_HINT,
            ) from exc
        if code == "csrf":
            raise Transient("the booking form expired")  # refused, so sending again is safe
        if status == 409 or code == "slot_taken":
            raise SlotTaken(message, code=code or "slot_taken")
        raise BookingRejected(message, code=code)


async def read_booking(
    page: Page, *, number: str, codes: Mapping[str, str], fallback_building: str
) -> Booking | None:
    """Parse the page of booking ``number`` («Бронь оформлена» / «Бронь отменена»);
    None when the page shown is not that page (or not readable)."""
    found: list[dict[str, list[str]]] = await page.get_by_role("main").evaluate_all(_READ_BOOKING)
    if not found:
        return None
    shown = found[0]
    fields = dict(zip(shown["terms"], shown["values"], strict=False))
    span = parse_span(fields.get("Время", ""))
    day = parse_day(fields.get("Дата", ""))
    if not any(number in text for text in shown["status"][:1]) or span is None or day is None:
        return None
    name = fields.get("Корпус", "")
    building, room = codes.get(name, fallback_building), fields.get("Аудитория", "").split(" ")[0]
    return Booking(
        number=number,
        building=building,
        building_name=name,
        room=room,
        room_id=f"{building}-{room}",
        day=day,
        start=span[0],
        end=span[1],
        purpose=fields.get("Цель", ""),
        status="active" if BOOKED_HEADING in shown["headings"] else "cancelled",
    )
