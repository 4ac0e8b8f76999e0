"""Login, logout and the one-time «rules changed» notice."""

from __future__ import annotations

from aiohttp import web

from portal.auth import LOCKOUT_FOR, LoginResult
from portal.render import redirect, render, safe_next, session_of
from portal.state import SESSION, STATE

__all__ = ["routes"]

routes = web.RouteTableDef()

_BAD_FORM = "Срок действия формы истёк. Обновите страницу и попробуйте снова."


def _login_page(
    request: web.Request, *, error: str | None = None, status: int = 200, username: str = ""
) -> web.Response:
    expired = request.query.get("expired") == "1"
    info = "Сеанс истёк. Войдите снова." if expired and error is None else None
    return render(
        request,
        "login.html",
        status=status,
        error=error,
        info=info,
        next=safe_next(request.query.get("next")),
        username=username,
    )


@routes.get("/login")
async def login_form(request: web.Request) -> web.StreamResponse:
    if session_of(request).user is not None:
        return redirect(safe_next(request.query.get("next")))
    return _login_page(request)


@routes.post("/login")
async def login(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    form = await request.post()
    username = str(form.get("username", ""))
    if not session_of(request).csrf_ok(str(form.get("csrf_token", ""))):
        return _login_page(request, error=_BAD_FORM, status=403, username=username)
    result, fresh = state.sessions.login(
        session_of(request), username, str(form.get("password", "")), now=state.now()
    )
    if result == LoginResult.LOCKED:
        minutes = int(LOCKOUT_FOR.total_seconds() // 60)
        message = (
            "Слишком много неудачных попыток входа. Вход временно заблокирован, "
            f"попробуйте через {minutes} минут."
        )
        return _login_page(request, error=message, status=429, username=username)
    if fresh is None:
        return _login_page(
            request, error="Неверное имя пользователя или пароль.", status=401, username=username
        )
    request[SESSION] = fresh
    return redirect(safe_next(str(form.get("next", ""))))


@routes.get("/logout")
@routes.post("/logout")
async def logout(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    state.sessions.drop(session_of(request))
    request[SESSION] = state.sessions.new()
    return redirect("/login")


@routes.get("/notice")
async def notice_form(request: web.Request) -> web.StreamResponse:
    hostile = request.app[STATE].quirks.quirks.hostile
    template = "hostile.html" if hostile else "notice.html"
    target = safe_next(request.query.get("next"))
    return render(request, template, error=None, next=target, hostile=hostile)


@routes.post("/notice")
async def notice_ack(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    form = await request.post()
    target = safe_next(str(form.get("next", "")))
    session = session_of(request)
    if not session.csrf_ok(str(form.get("csrf_token", ""))):
        return render(request, "notice.html", status=403, error=_BAD_FORM, next=target)
    if form.get("ack") != "1":
        error = "Отметьте, что вы ознакомились с правилами."
        return render(request, "notice.html", status=400, error=error, next=target)
    if session.user is not None:
        state.quirks.notice_seen.add(session.user)
    return redirect(target)
