"""Request pipeline: error pages → chaos → session → CSRF → login gate."""

from __future__ import annotations

from urllib.parse import urlsplit

from aiohttp import web
from aiohttp.typedefs import Handler

from portal.legacy.render import HOME, login_url, redirect, render, session_of, set_session
from portal.legacy.sessions import COOKIE
from portal.legacy.state import SESSION, STATE

__all__ = ["CSRF_FIELD", "MIDDLEWARES"]

CSRF_FIELD = "_csrf"
_PUBLIC = ("/auth/", "/_test/", "/favicon.ico")
_NO_CHAOS = ("/_test/", "/favicon.ico")
_500 = (
    "<html><head><title>Error 500</title></head><body><h2>HTTP ERROR 500</h2>"
    "<p>Problem accessing the page. Reason:</p><pre>    Internal Server Error</pre>"
    "<hr><i><small>Powered by Jetty://</small></i></body></html>"
)


def _under(path: str, prefixes: tuple[str, ...]) -> bool:
    return any(path == p.rstrip("/") or path.startswith(p) for p in prefixes)


@web.middleware
async def error_pages(request: web.Request, handler: Handler) -> web.StreamResponse:
    try:
        return await handler(request)
    except web.HTTPNotFound:
        if SESSION not in request or _under(request.path, _NO_CHAOS):
            return web.Response(status=404, text="404 Not Found")
        return render(request, "error.html", status=404, title="Страница не найдена")


@web.middleware
async def chaos(request: web.Request, handler: Handler) -> web.StreamResponse:
    if not _under(request.path, _NO_CHAOS) and request.app[STATE].quirks.fails():
        return web.Response(status=500, text=_500, content_type="text/html")
    return await handler(request)


@web.middleware
async def sessions(request: web.Request, handler: Handler) -> web.StreamResponse:
    state = request.app[STATE]
    cookie = request.cookies.get(COOKIE)
    set_session(request, state.sessions.get(cookie) or state.sessions.new())
    response = await handler(request)
    current = session_of(request)  # login, logout or a CSRF failure may have replaced it
    if current.id != cookie:
        response.set_cookie(COOKIE, current.id, httponly=True, samesite="Lax", path="/")
    return response


def _back_after_post(request: web.Request, form_back: str) -> str:
    """Where a user goes after logging in again: the page the form was on."""
    if request.path.startswith("/auth/"):
        return form_back or HOME
    referer = urlsplit(request.headers.get("Referer", ""))
    if referer.netloc == request.host and referer.path:
        return referer.path + (f"?{referer.query}" if referer.query else "")
    return HOME


@web.middleware
async def csrf(request: web.Request, handler: Handler) -> web.StreamResponse:
    """A POST without the session's token ends the session, as the old system did."""
    if request.method != "POST" or _under(request.path, ("/_test/",)):
        return await handler(request)
    form = await request.post()  # cached: the handler reads the same form
    session = session_of(request)
    if not session.csrf_ok(str(form.get(CSRF_FIELD, ""))):
        set_session(request, request.app[STATE].sessions.end(session))
        return redirect(login_url(_back_after_post(request, str(form.get("back", "")))))
    return await handler(request)


@web.middleware
async def gate(request: web.Request, handler: Handler) -> web.StreamResponse:
    if _under(request.path, _PUBLIC) or session_of(request).user is not None:
        return await handler(request)
    return redirect(login_url(request.path_qs if request.method == "GET" else HOME))


MIDDLEWARES = (error_pages, chaos, sessions, csrf, gate)
