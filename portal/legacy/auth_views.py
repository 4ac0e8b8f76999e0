"""``/`` and the login pages: ``/auth/login`` (form, check, lock-out) and ``/auth/logout``."""

from __future__ import annotations

from aiohttp import web

from portal.legacy.render import HOME, redirect, render, safe_back, session_of, set_session
from portal.legacy.sessions import Login
from portal.legacy.state import STATE

__all__ = ["LOCKED_MESSAGE", "WRONG_MESSAGE", "routes"]

routes = web.RouteTableDef()

WRONG_MESSAGE = "Неверный логин или пароль"
LOCKED_MESSAGE = "Учётная запись временно заблокирована. Повторите попытку через 5 минут."


def _form(
    request: web.Request, *, back: str, error: str | None = None, status: int = 200,
    username: str = "",
) -> web.Response:  # fmt: skip
    return render(request, "login.html", status=status, error=error, back=back, username=username)


@routes.get("/")
async def index(request: web.Request) -> web.StreamResponse:
    return redirect(HOME)


@routes.get("/auth/login")
async def login_form(request: web.Request) -> web.StreamResponse:
    back = safe_back(request.query.get("back"))
    if session_of(request).user is not None:
        return redirect(back)
    return _form(request, back=back)


@routes.post("/auth/login")
async def login(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    form = await request.post()
    back = safe_back(str(form.get("back", "")))
    username = str(form.get("j_username", ""))
    result, fresh = state.sessions.login(
        session_of(request), username, str(form.get("j_password", "")), now=state.now()
    )
    if result is Login.LOCKED:
        return _form(request, back=back, error=LOCKED_MESSAGE, status=429, username=username)
    if fresh is None:
        return _form(request, back=back, error=WRONG_MESSAGE, username=username)
    set_session(request, fresh)
    return redirect(back)


@routes.get("/auth/logout")
async def logout(request: web.Request) -> web.StreamResponse:
    set_session(request, request.app[STATE].sessions.end(session_of(request)))
    return redirect("/auth/login")
