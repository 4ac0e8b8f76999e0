"""How the site says no, drafted from the demonstration: the message the second booking
of the same slot brought (an ARIA alert, or else a line of that page which reads like a
refusal and which no other page of the demonstration showed), its words as the «slot
taken» refusal, and where a message is looked for — there first, then in the usual
places of a site's messages. A failed login is never shown, so its message has only the
usual places."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from adapters.profile.errors import DraftError
from adapters.profile.learn.recording import Recording
from adapters.profile.learn.snapshot import texts
from adapters.profile.learn.values import templated

__all__ = ["USUAL_MESSAGES", "draft_outcome", "draft_taken", "login_failure"]

# Where sites put a message that is not an ARIA alert, by the conventions of their
# markup: the usual class names, then any class word beginning «err» or «alert» (err,
# errors, error-message, alert-danger). Copied where used: YAML would alias one object.
USUAL_MESSAGES = (
    {"css": ".error, .alert, .errors, .message-text"},
    {"css": '[class^=err], [class*=" err"], [class^=alert], [class*=" alert"]'},
)


# Words a refusal is written in (Russian or English): not a site's, a language's.
_REFUSING = re.compile(
    r"занят|уже|недоступ|нельзя|невозможн|не удалось|ошибк|отказ|конфликт|пересека|"
    r"already|taken|busy|booked|unavailable|not available|conflict|overlap|cannot|can't|"
    r"unable|error|denied|refused|\bno\b.{0,40}\bavailable",
    re.IGNORECASE,
)
_SLOT = re.compile(r"\{[a-z_]+(?:\|[a-z0-9_]+)?\}")


def _shown(recording: Recording) -> tuple[bool, str] | None:
    """The refusal's message: (an ARIA alert, its text), or None when none is seen."""
    refused = recording.step("refused")
    if refused is None:
        return None
    lines = texts(refused.snapshot)
    alert = next((words for role, words in lines if role == "alert"), None)
    if alert is not None:
        return True, alert
    # What every page shows (a header, a footer) is not the answer. The booking's own
    # page is not asked: the slot is taken by then, and a page under it may say so.
    elsewhere = {
        w for s in recording.steps if s.name not in ("refused", "book")
        for _, w in texts(s.snapshot)
    }  # fmt: skip
    said = [w for _, w in lines if w not in elsewhere and _REFUSING.search(w)]
    return (False, said[0]) if said else None


def _words(message: str, answers: Mapping[str, str]) -> str:
    """The message's words that mean the refusal: of its pieces between stops and named
    values (the room, the times), the longest one written like a refusal (else the
    longest): «Аудитория 201: время занято» → «время занято»."""
    pieces = [
        p.replace("{{", "{").replace("}}", "}").strip(" ,-–—")
        for part in _SLOT.split(templated(message, answers))
        for p in re.split(r"[.:!;()]", part)
    ]
    pieces = sorted((p for p in pieces if p), key=len, reverse=True)
    return next((p for p in pieces if _REFUSING.search(p)), pieces[0] if pieces else "")


def draft_outcome(recording: Recording) -> dict[str, Any]:
    """The book part's ``outcome``: the refusal's words mean the slot is taken; any other
    message is a refusal. A message that is not an alert is found by those words first
    (another message, by the usual places)."""
    shown = _shown(recording)
    book, refused = recording.step("book"), recording.step("refused")
    answers = {**(book.answers if book else {}), **(refused.answers if refused else {})}
    words = _words(shown[1], answers) if shown else ""
    if shown is None or not words:
        raise DraftError(
            "Не видно, как сайт отказывает: забронируйте то же время ещё раз и дождитесь "
            "сообщения сайта"
        )
    alert, _ = shown
    found: list[dict[str, Any]] = [{"role": "alert"}]
    if not alert:
        found.insert(0, {"text": words, "exact": False})
    return {
        "message": [*found, *map(dict, USUAL_MESSAGES)],
        "refusals": [{"text": words, "error": "slot_taken"}],
        "otherwise": "rejected",
    }


def draft_taken(recording: Recording) -> list[dict[str, Any]]:
    """The book part's ``taken``: where the site refused the slot again without anything
    sent (the page the booking was found on offers no way to book it now), the refusal's
    words on that page; else nothing (the refusal is the form's answer)."""
    refused = recording.step("refused")
    shown = _shown(recording)
    if refused is None or refused.requests or shown is None:
        return []
    book = recording.step("book")
    words = _words(shown[1], {**(book.answers if book else {}), **refused.answers})
    return [{"text": words, "exact": False}] if words else []


def login_failure(form: str = "") -> dict[str, Any]:
    """A login's ``failure``. A failed login was not shown, so its message is looked for
    in the usual places, and where the login form is drawn in place (``form``, its CSS)
    in the form too: a wrong password draws the same form again with the site's words in
    it. Too many tries are told by HTTP 429; any other message is a wrong password."""
    found = [{"role": "alert"}, *map(dict, USUAL_MESSAGES)]
    if form:
        found.append({"css": _words_in(form)})
    return {
        "message": found,
        "refusals": [{"status": 429, "error": "locked"}],
        "otherwise": "wrong_password",
    }


# What a form is made of: its fields, their labels, its buttons and links. An element
# holding one is not a message, nor is one inside a label, a link, a button (a fieldset
# may hold a message: only its legend is the form's).
_FORMS_OWN = "input, select, textarea, button, a, label, legend, fieldset"
_INSIDE_OWN = "label, legend, a, button, select, textarea"


def _words_in(form: str) -> str:
    """CSS for the site's words in ``form``: an element of it that shows, holds none of
    the form's own parts and sits in none (MRBS's «неизвестный пользователь» above the
    fields). A form back with no such words is a session the site ended at once, not a
    wrong password: the login page with no message. Playwright's ``:visible`` leaves out
    an empty element, a script, and a hint the page keeps hidden until a field is left
    empty."""
    return f"{form} :not({_FORMS_OWN}):not(:has({_FORMS_OWN})):not(:is({_INSIDE_OWN}) *):visible"
