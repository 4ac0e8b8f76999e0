"""Jinja environment, the one ``render`` every page goes through, redirects and ``back``."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

import jinja2
from aiohttp import web

from portal.legacy.data import ACCOUNTS
from portal.legacy.sessions import Session
from portal.legacy.state import SESSION, STATE
from portal.legacy.timefmt import fmt_dmy, fmt_hhmm, fmt_span

__all__ = [
    "HOME",
    "login_url",
    "make_templates",
    "redirect",
    "render",
    "safe_back",
    "session_of",
    "set_session",
]

HOME = "/schedule"
_TEMPLATES = Path(__file__).parent / "templates"


def make_templates() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(_TEMPLATES),
        autoescape=jinja2.select_autoescape(["html"]),
        undefined=jinja2.StrictUndefined,
    )
    env.filters["dmy"] = fmt_dmy
    env.filters["iso"] = lambda day: day.isoformat()
    env.filters["hhmm"] = fmt_hhmm
    env.globals["span"] = fmt_span
    return env


def session_of(request: web.Request) -> Session:
    return request[SESSION]


def set_session(request: web.Request, session: Session) -> None:
    """Replace the request's session; the middleware then sends its cookie."""
    request[SESSION] = session


def render(
    request: web.Request, template: str, *, status: int = 200, **context: Any
) -> web.Response:
    state = request.app[STATE]
    session = session_of(request) if SESSION in request else None
    user = ACCOUNTS.get(session.user) if session and session.user else None
    page = state.templates.get_template(template).render(
        user=user,
        csrf=session.csrf if session else "",
        path=request.path,
        drift=state.quirks.quirks.drift,
        **context,
    )
    return web.Response(text=page, status=status, content_type="text/html", charset="utf-8")


def redirect(location: str) -> web.Response:
    # Returned, not raised, so the session middleware can still attach its cookie.
    return web.Response(status=303, headers={"Location": location})


def safe_back(target: str | None, default: str = HOME) -> str:
    """Only same-site paths, and never back to the login page itself."""
    if not target or not target.startswith("/") or target.startswith("//"):
        return default
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or parts.path.startswith("/auth/"):
        return default
    return target


def login_url(back: str) -> str:
    return f"/auth/login?back={quote(safe_back(back), safe='')}"
