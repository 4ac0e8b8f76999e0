"""Drafting the booking from what a demonstration recorded, without a browser: the press
that sent it among a form's background checks to the same address, the form's own
defaults left alone, the day and the time written in parts in the form's address, and
the booking's number where no address the save led to names it — the value of the
list's link that none of the named values explains. (That the drafts work is proven
live: ``tests/adapters/mrbs/test_learn.py`` runs the contract suite on the whole profile
drafted on a real MRBS.)"""

from __future__ import annotations

from adapters.profile.learn.booking import draft_book
from adapters.profile.learn.recording import (
    Action,
    FormField,
    Recording,
    SentForm,
    SentRequest,
    Step,
)
from adapters.profile.learn.values import booked_at, booking_number, listed_number
from adapters.profile.parts import Locator

_SITE = "http://rooms.test"
_DAY = f"{_SITE}/index.php?view=day&page_date=2026-12-12&area=1"
_CELL = f"{_SITE}/edit_entry.php?view=day&year=2026&month=12&day=12&area=1&room=3&hour=18&minute=0"
_SAVED = f"{_SITE}/index.php?view=day&view_all=1&year=2026&month=12&day=12&area=1&room=3"
_ANSWERS = {"room": "103", "date": "2026-12-12", "start": "18:00", "end": "19:00"}
_LIST = """- table:
  - rowgroup:
    - row "Краткое описание Создано Время начала":
      - columnheader "Краткое описание"
      - columnheader "Создано"
      - columnheader "Время начала"
  - rowgroup:
    - row "Шахматы club суббота, 12 декабря 2026 г. в 18:00":
      - cell "Шахматы":
        - link "Шахматы":
          - /url: view_entry.php?id={id}&returl=search.php%3Ffrom_date%3D2026-12-07
      - cell "club"
      - cell "суббота, 12 декабря 2026 г. в 18:00":
        - link "суббота, 12 декабря 2026 г. в 18:00":
          - /url: index.php?view=day&year=2026&month=12&day=12&area=1&room=3
"""


def _css(css: str) -> tuple[Locator, ...]:
    return (Locator(css=css),)


def _field(name: str, value: str, *, control: str = "select", hidden: bool = False) -> FormField:
    return FormField.model_validate(
        {"name": name, "control": control, "hidden": hidden, "value": value,
         "candidates": _css(f"#{name}")}
    )  # fmt: skip


def _recording(number: str) -> Recording:
    save = (Locator(role="button", name="Сохранить"),)
    book = Step(
        name="book",
        answers=_ANSWERS,
        url=_SAVED,
        actions=(
            Action(kind="click", url=_DAY, candidates=(Locator(role="link", name="New"),)),
            Action(kind="navigate", url=_CELL),
            Action(kind="select", url=_CELL, value="68400", candidates=_css("#end_seconds")),
            Action(kind="fill", url=_CELL, value="Шахматы", candidates=_css("#name")),
            Action(kind="click", url=_CELL, candidates=save),
            Action(kind="navigate", url=_SAVED),
        ),
        # The form checks the slot as it opens and on each change, at the save's address.
        requests=(
            SentRequest(method="POST", url=f"{_SITE}/edit_entry_handler.php", after=2),
            SentRequest(method="POST", url=f"{_SITE}/edit_entry_handler.php", after=4),
            SentRequest(
                method="POST", url=f"{_SITE}/edit_entry_handler.php", after=5, navigation=True
            ),
        ),
        forms=(
            SentForm(
                url=f"{_SITE}/edit_entry_handler.php",
                fields=(
                    _field("csrf_token", "***", control="input", hidden=True),
                    _field("name", "Шахматы", control="input"),
                    _field("start_seconds", "64800"),
                    _field("end_seconds", "68400"),
                    _field("type", "I"),  # the form's default, not touched
                    _field("rep_type", "0"),
                ),
            ),
        ),
    )
    return Recording(
        name="mrbs",
        site=_SITE,
        steps=(
            Step(name="day", url=_DAY, answers={"date": "2026-12-12"}),
            book,
            Step(
                name="refused",
                url=f"{_SITE}/edit_entry_handler.php",
                answers={"room": "103"},
                snapshot='- heading "Конфликт резервирования" [level=2]\n'
                "- paragraph: Новое бронирование конфликтует со следующими записями",
            ),
            Step(
                name="my_bookings",
                url=f"{_SITE}/search.php",
                snapshot=_LIST.replace("{id}", number),
            ),  # fmt: skip
        ),
    )


def test_the_booking_is_the_press_that_a_change_followed_not_the_forms_background_checks() -> None:
    drafted = draft_book(_recording("6"))
    assert drafted["submit"][0] == {"role": "button", "name": "Сохранить"}
    # Only what the operator changed or named: not the type and repetition it opened with.
    assert [f.get("select", f.get("fill")) for f in drafted["fields"]] == [
        "{purpose}",
        "{start|seconds}",
        "{end|seconds}",
    ]


def test_the_day_and_the_time_written_in_parts_become_their_slots() -> None:
    url = draft_book(_recording("6"))["open"]["url"]
    assert "year={date|year}&month={date|month}&day={date|day}" in url
    assert "hour={start|hour}&minute={start|minute}" in url  # «12» twice: told by order


def test_a_number_no_address_names_is_the_list_links_value_no_named_value_explains() -> None:
    recording = _recording("6")
    # The day's view after the save says «view_all=1» and «area=1»: neither is the number.
    assert booked_at(_SAVED, _CELL) is not None
    assert booking_number(recording) == "6"
    listed = listed_number(recording)
    assert listed is not None and listed.column == "Краткое описание"
    assert listed.regex == r"[?&]id=(\d+)"  # not the returl's date
    drafted = draft_book(recording)
    assert drafted["saved"] == r"^/index\.php$"
    assert drafted["booked"] == r"^/view_entry\.php\?(?:.*&)?id=(\d+)"


def test_a_number_that_happens_to_equal_a_named_value_is_still_the_new_keys() -> None:
    # Booking № 12 on the 12th: the value is explained, the key «id» is not.
    assert booking_number(_recording("12")) == "12"
