"""A tiny local site that records what reached it, and the helpers the network guard's
tests (``test_guard*.py``) share: send from a page, open a socket, wait for a window to
close or for a request to arrive."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest
from playwright.async_api import Page

from core.browser import NetworkGuard
from core.browser.harm import RequestBlocked

__all__ = [
    "OPENER",
    "PAGE",
    "POPUP",
    "WAIT",
    "Site",
    "arrived",
    "blocked_by_lift",
    "closed",
    "open_socket",
    "send",
]

WAIT = 5.0  # seconds; anything the guard lets through arrives long before


@dataclass
class Site:
    """A local site: ``/page`` is a page (``/opener`` one that opens ``/popup``), ``/sink/…``
    takes any method, ``/acts/…`` too and redirects to ``/page``, ``/ws`` is a socket;
    ``received`` is what arrived ("POST /sink/x", "WS hello")."""

    url: str
    received: list[str] = field(default_factory=list)

    def at(self, path: str) -> str:
        return f"{self.url}{path}"


PAGE = "<!doctype html><title>guarded</title><h1>guarded</h1>"
# ``/opener``: a button that opens ``/popup``, which posts as it loads and on every tick.
OPENER = """<!doctype html><title>opener</title>
<button onclick="window.open('/popup')">Открыть</button>"""
POPUP = """<!doctype html><title>popup</title><script>
fetch("/sink/popup", {method: "POST"});
setInterval(() => fetch("/sink/tick", {method: "POST"}), 1);
</script>"""


async def send(page: Page, method: str, path: str, **init: object) -> str:
    """``fetch`` from the page: "sent" when the server answered, "failed" when it did not."""
    options = {"method": method, **init}
    script = "([path, init]) => fetch(path, init).then(() => 'sent', () => 'failed')"
    result = await asyncio.wait_for(page.evaluate(script, [path, options]), WAIT)
    return str(result)


async def blocked_by_lift(guard: NetworkGuard, page: Page | None) -> tuple[str, ...]:
    with pytest.raises(RequestBlocked) as caught:
        await guard.lift(page)
    return caught.value.what


async def open_socket(page: Page, site: Site) -> None:
    url = site.at("/ws").replace("http", "ws")
    await page.evaluate("(url) => { window.sock = new WebSocket(url); }", url)
    await page.wait_for_function("window.sock.readyState === 1")


async def closed(page: Page) -> None:
    for _ in range(int(WAIT / 0.02)):
        if page.is_closed():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"{page} is still open")


async def arrived(site: Site, entry: str) -> bool:
    for _ in range(int(WAIT / 0.02)):
        if entry in site.received:
            return True
        await asyncio.sleep(0.02)
    return False
