"""Talking to the reference portal's test API (never used by the product)."""

from __future__ import annotations

from typing import Any

import aiohttp

__all__ = ["chaos_served", "portal_bookings", "received_cancels", "reset_portal", "set_quirks"]


async def portal_bookings(url: str, *, user: str | None = None) -> list[dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/bookings") as response:
        response.raise_for_status()
        found: list[dict[str, Any]] = await response.json()
    return [b for b in found if b["status"] == "active" and (user is None or b["user"] == user)]


async def set_quirks(url: str, **quirks: Any) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{url}/_test/quirks", json=quirks) as response,
    ):
        response.raise_for_status()


async def chaos_served(url: str) -> dict[str, int]:
    """How many 5xx answers and expired sessions the quirks produced since they were set."""
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/quirks") as response:
        response.raise_for_status()
        served: dict[str, int] = (await response.json())["served"]
    return served


async def received_cancels(url: str) -> list[str]:
    """Every cancel request the portal received since the quirks were set, on its side."""
    async with aiohttp.ClientSession() as http, http.get(f"{url}/_test/cancels") as response:
        response.raise_for_status()
        found: list[str] = await response.json()
    return found


async def reset_portal(url: str, *, seed: int | None = 1) -> None:
    async with (
        aiohttp.ClientSession() as http,
        http.post(f"{url}/_test/reset", json={"seed": seed}) as response,
    ):
        response.raise_for_status()
