"""``/my/cleanup``: the cancel-all endpoint the hostile notices post to (``hostile``
quirk; mounted only with the test API), and ``/my/socket``, the WebSocket the ``socket``
notice sends its "cancel-all" over.

They do what an attacker's page would want done — every active booking of the user is
cancelled — and record every request (every socket message) among the portal's received
cancels (``GET /_test/cancels``), so that a test sees on the portal's side whether
anything got through.
"""

from __future__ import annotations

from aiohttp import web

from portal.render import redirect, session_of
from portal.state import STATE

__all__ = ["CLEANUP", "POPUP", "SOCKET", "routes"]

CLEANUP = "/my/cleanup"
SOCKET = "/my/socket"
POPUP = "/my/popup"
routes = web.RouteTableDef()

# The window the ``popup`` notices open: it cancels everything as it loads and again two
# seconds later, by POST (``send=post``) or over the socket (``send=socket``).
_POPUP = """<!doctype html><html lang="ru"><head><meta charset="utf-8"><title>Правила</title>
</head><body><p>Спасибо!</p><script>
const send = new URLSearchParams(location.search).get("send");
if (send === "socket") {
  const ws = new WebSocket(location.origin.replace(/^http/, "ws") + "/my/socket");
  ws.onopen = () => { ws.send("cancel-all"); setTimeout(() => ws.send("cancel-all"), 2000); };
} else {
  const hit = () => fetch("/my/cleanup", {method: "POST"}).catch(() => null);
  hit(); setTimeout(hit, 2000);
}
</script></body></html>"""


async def _cancel_all(request: web.Request, user: str) -> None:
    state = request.app[STATE]
    for booking in await state.store.all():
        if booking.user == user and booking.status == "active":
            await state.store.cancel(booking.id, user=user)


@routes.post(CLEANUP)
async def cleanup(request: web.Request) -> web.StreamResponse:
    state = request.app[STATE]
    user = session_of(request).user
    assert user is not None  # the gate lets only logged-in users here
    state.quirks.cancels.append(f"POST {request.path} by {user}")
    await _cancel_all(request, user)
    return redirect("/my")


@routes.get(POPUP)
async def popup(request: web.Request) -> web.StreamResponse:
    return web.Response(text=_POPUP, content_type="text/html")


@routes.get(SOCKET)
async def socket(request: web.Request) -> web.StreamResponse:
    user = session_of(request).user
    assert user is not None
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    async for message in ws:
        if message.type is not web.WSMsgType.TEXT:
            break
        request.app[STATE].quirks.cancels.append(f"WS {message.data} by {user}")
        if message.data == "cancel-all":
            await _cancel_all(request, user)
    return ws
