"""The profile's ``login`` part from the demonstration's login step: the page the password
was typed on, the field typed just before it (the username), the button pressed after.

How the login page is told is read from where the login went. A site with a login page
of its own (``/login``, ``/auth/login``) leads away from it once the password is taken:
that page is the login page, by its path (``page``). A site that draws its login form in
place of whatever page was asked for (MRBS) leads back to the page the form was drawn on,
or draws it on its very first page: every path may show the form, so the form tells the
login page (``shown``), and a wrong password's words are looked for in it.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from adapters.profile.errors import DraftError
from adapters.profile.learn.messages import login_failure
from adapters.profile.learn.recording import Action, Recording
from adapters.profile.learn.values import locators, relative, templated

__all__ = ["draft_login", "drawn_in_place", "login_form"]

# A folder's own page by its usual names: «/index.php» is the page «/» is.
_INDEX = re.compile(r"(?<=/)(?:index|default)\.[a-z]+$", re.IGNORECASE)
_PASSWORD_FIELD = "input[type=password]"


def draft_login(recording: Recording) -> dict[str, Any]:
    """The ``login`` part (``DraftError`` naming what to show again when it cannot be)."""
    step = recording.step("login")
    secret = next((a for a in step.actions if a.secret), None) if step else None
    if step is None or secret is None:
        raise DraftError("Вход не показан: войдите на сайт ещё раз")
    at = step.actions.index(secret)
    username = next(
        (a for a in reversed(step.actions[:at]) if a.kind == "fill" and a.candidates), None
    )
    pressed_at = next(
        (i for i, a in enumerate(step.actions) if i > at and a.kind == "click" and a.candidates),
        None,
    )
    if username is None or pressed_at is None:
        raise DraftError(
            "Не видно поля логина или кнопки входа: войдите ещё раз, нажав кнопку входа"
        )
    drafted: dict[str, Any] = {
        "open": {"url": templated(relative(secret.url), {})},
        "username": locators(username.candidates),
        "password": locators(secret.candidates),
        "submit": locators(step.actions[pressed_at].candidates),
    }
    led = next((a for a in step.actions[pressed_at + 1 :] if a.kind == "navigate"), None)
    if drawn_in_place(recording, secret, led):
        form = login_form(secret)
        return {**drafted, "shown": [{"css": form}], "failure": login_failure(form)}
    page = urlsplit(secret.url).path
    return {**drafted, "page": "^" + re.escape(page), "failure": login_failure()}


def drawn_in_place(recording: Recording, secret: Action, led: Action | None) -> bool:
    """Whether the login form was drawn in place of the page asked for, not on a login
    page of the site's own: the page the login led to (``led``, the first page after the
    press) is the page the password was typed on (``secret``: the site showed what was
    asked for once it knew who asks), or that page is the site's first one (the address
    it was given asks for the password itself)."""
    typed = _page(secret.url)
    if led is not None and _page(led.url) == typed:
        return True
    return typed == _page(recording.site)


def login_form(secret: Action) -> str:
    """CSS for the form holding the password field: by its id or name as recorded, else
    its place holding a password field; recorded before forms were, the form holding the
    field by the field's own id or name."""
    if secret.form.startswith(("form#", "form[")):
        return secret.form
    if secret.form:
        return f"{secret.form}:has({_PASSWORD_FIELD})"
    own = next(
        (c.css for c in secret.candidates if c.css and re.match(r"#|\w+\[name=", c.css)), None
    )
    return f"form:has({own or _PASSWORD_FIELD})"


def _page(url: str) -> tuple[str, str]:
    """The host and the page of ``url``, a folder's index page as the folder."""
    parts = urlsplit(url)
    return parts.netloc.lower(), _INDEX.sub("", parts.path or "/")
