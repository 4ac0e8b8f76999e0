"""Jinja environment and the one ``render`` helper every page goes through."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

import jinja2
from aiohttp import web

from portal.auth import Session
from portal.data import USERS
from portal.layout import ui_names
from portal.state import SESSION, STATE

__all__ = ["UNIVERSITY", "make_templates", "redirect", "render", "safe_next", "session_of"]

UNIVERSITY = "Северо-Западный государственный университет"
_WEEKDAYS = ("пн", "вт", "ср", "чт", "пт", "сб", "вс")


def make_templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("portal", "templates"),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
    )
    env.filters["ru_date"] = lambda d: f"{d:%d.%m.%Y} ({_WEEKDAYS[d.weekday()]})"
    env.filters["iso_date"] = lambda d: d.isoformat()
    return env


def session_of(request: web.Request) -> Session:
    session: Session = request[SESSION]
    return session


def render(
    request: web.Request, template: str, *, status: int = 200, **context: Any
) -> web.Response:
    state = request.app[STATE]
    session = session_of(request)
    user = USERS.get(session.user) if session.user else None
    page = state.templates.get_template(template).render(
        university=UNIVERSITY,
        user=user,
        csrf=session.csrf,
        ui=ui_names(state.quirks.quirks.layout),
        layout=state.quirks.quirks.layout,
        drift=state.quirks.quirks.drift,
        path=request.path,
        **context,
    )
    return web.Response(text=page, status=status, content_type="text/html")


def redirect(location: str) -> web.Response:
    # Returned, not raised, so middlewares can still attach the session cookie.
    return web.Response(status=303, headers={"Location": location})


def safe_next(target: str | None, default: str = "/rooms") -> str:
    """Only same-site paths: an open redirect after login would be a phishing aid."""
    if not target:
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return default
    return target
