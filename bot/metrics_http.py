"""``GET /metrics``: the app's ``Metrics`` in Prometheus' text format, on the webhook's
server or (long polling) on a server of its own.

Served on a public interface (anything but loopback) it takes ``Authorization: Bearer``
with ``SECURITY__METRICS_TOKEN``; with no token set it is not served there at all (the
counts name users' activity). On loopback the token is asked only when one is set.
"""

from __future__ import annotations

import hmac
import ipaddress

import structlog
from aiohttp import web
from pydantic import SecretStr

from core.metrics import CONTENT_TYPE, Metrics

__all__ = ["add_metrics_route", "is_loopback", "metrics_app"]

log = structlog.get_logger("clubman.bot.metrics")


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name: it may resolve anywhere
        return False


def add_metrics_route(
    web_app: web.Application, metrics: Metrics, *, host: str, token: SecretStr | None
) -> None:
    if token is None and not is_loopback(host):
        log.warning("metrics.not_served", host=host, why="no SECURITY__METRICS_TOKEN")
        return
    expected = f"Bearer {token.get_secret_value()}".encode() if token is not None else None

    async def scrape(request: web.Request) -> web.Response:
        given = request.headers.get("Authorization", "").encode()
        if expected is not None and not hmac.compare_digest(given, expected):
            return web.Response(status=401, text="Unauthorized")
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE})

    web_app.router.add_get("/metrics", scrape)


def metrics_app(metrics: Metrics, *, host: str, token: SecretStr | None) -> web.Application:
    web_app = web.Application()
    add_metrics_route(web_app, metrics, host=host, token=token)
    return web_app
