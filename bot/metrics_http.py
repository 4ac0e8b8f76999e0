"""``GET /metrics``: the app's ``Metrics`` in Prometheus' text format, on the webhook's
server or (long polling) on a server of its own."""

from __future__ import annotations

from aiohttp import web

from core.metrics import CONTENT_TYPE, Metrics

__all__ = ["add_metrics_route", "metrics_app"]


def add_metrics_route(web_app: web.Application, metrics: Metrics) -> None:
    async def scrape(request: web.Request) -> web.Response:
        return web.Response(body=metrics.exposition(), headers={"Content-Type": CONTENT_TYPE})

    web_app.router.add_get("/metrics", scrape)


def metrics_app(metrics: Metrics) -> web.Application:
    web_app = web.Application()
    add_metrics_route(web_app, metrics)
    return web_app
