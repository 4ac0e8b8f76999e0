"""Request pipeline: error pages → chaos quirks → session → login/notice gate."""

from __future__ import annotations

import asyncio
from urllib.parse import quote, urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler

from portal.auth import SESSION_COOKIE
from portal.errors import UnknownObject
from portal.render import redirect, render, session_of
from portal.state import SESSION, SESSION_EXPIRED, STATE

__all__ = ["MIDDLEWARES"]

_PUBLIC = ("/login", "/static/", "/_test/", "/favicon.ico")
_UNTOUCHED = ("/static/", "/_test/")  # chaos never hits test controls or assets
_NO_NOTICE = ("/notice", "/logout", "/api/", "/my/socket")  # the socket: the notice opens it
_NOT_FOUND = "Такой страницы нет. Проверьте адрес или вернитесь к списку аудиторий."
_NGINX_502 = (
    "<html><head><title>502 Bad Gateway</title></head><body>"
    "<center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>"
)


def _starts(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p.rstrip("/") or path.startswith(p) for p in prefixes)


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except (web.HTTPNotFound, UnknownObject):
        if SESSION not in request:
            return web.Response(status=404, text="404: Not Found")
        return render(
            request, "error.html", status=404, title="Страница не найдена", message=_NOT_FOUND
        )


@web.middleware
async def chaos(request: web.Request, handler: Handler) -> web.StreamResponse:
    state = request.app[STATE]
    if _starts(request.path, _UNTOUCHED):
        return await handler(request)
    quirks = state.quirks.quirks
    if quirks.latency_ms:
        await asyncio.sleep(quirks.latency_ms / 1000)
    status = state.quirks.failure_status()
    if status == 502:
        return web.Response(status=502, text=_NGINX_502, content_type="text/html")
    if status == 500:
        page = state.templates.get_template("500.html").render()
        return web.Response(status=500, text=page, content_type="text/html")
    return await handler(request)


@web.middleware
async def sessions(request: web.Request, handler: Handler) -> web.StreamResponse:
    state = request.app[STATE]
    cookie = request.cookies.get(SESSION_COOKIE)
    session = state.sessions.get(cookie)
    lifetime = state.quirks.quirks.session_lifetime
    if session is not None and state.sessions.expired(session, lifetime=lifetime, now=state.now()):
        state.sessions.drop(session)
        session = None
        request[SESSION_EXPIRED] = True
        state.quirks.sessions_expired += 1
    request[SESSION] = session or state.sessions.new()
    response = await handler(request)
    current = session_of(request)  # login/logout may have replaced it
    if current.id != cookie:
        response.set_cookie(SESSION_COOKIE, current.id, httponly=True, samesite="Lax", path="/")
    return response


def _back_to(request: web.Request) -> str:
    if request.method == "GET":
        return request.path_qs
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc == request.host and referer.path:
        return referer.path + (f"?{referer.query}" if referer.query else "")
    return "/rooms"


@web.middleware
async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Login required everywhere but public paths; then the one-time rules notice."""
    state = request.app[STATE]
    if _starts(request.path, _PUBLIC):
        return await handler(request)
    session = session_of(request)
    if session.user is None:
        if request.path.startswith("/api/"):
            return web.json_response({"error": "unauthorized"}, status=401)
        expired = "&expired=1" if request.get(SESSION_EXPIRED) else ""
        return redirect(f"/login?next={quote(_back_to(request), safe='')}{expired}")
    if (
        request.method == "GET"
        and not _starts(request.path, _NO_NOTICE)
        and state.quirks.needs_notice(session.user)
    ):
        return redirect(f"/notice?next={quote(request.path_qs, safe='')}")
    return await handler(request)


MIDDLEWARES = (error_pages, chaos, sessions, gate)
