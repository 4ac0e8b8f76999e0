"""The site's own JSON calls, sent through the logged-in browser context (the fast path's
reads, and the booking's room keys): the site's list of rooms, read once per session and
shared by every call that names rooms by key; a CSRF token from a page's ``<meta>``; a
call's JSON answer. Each gives None when the site does not answer as expected (the
caller then reads the page), and logs why under ``event``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import structlog
from playwright.async_api import APIRequestContext
from playwright.async_api import Error as PlaywrightError

from adapters.profile.calls import HeaderToken, RoomKeys
from adapters.profile.navigate import Navigator
from adapters.profile.pagehtml import meta_content
from adapters.profile.template import Template

__all__ = ["Caller"]

log = structlog.get_logger("clubman.portal")


class Caller:
    """One session's JSON calls to the site."""

    def __init__(self, nav: Navigator, api: APIRequestContext) -> None:
        self._nav = nav
        self._api = api
        self._keys: dict[tuple[str, str, str], dict[str, str] | None] = {}  # per list

    async def room_keys(self, keys: RoomKeys) -> dict[str, str] | None:
        """The site's rooms, name → key, from its JSON list (read once a session); None
        when it is not given."""
        which = (str(keys.url), keys.name, keys.key)
        if self._keys.get(which) is None:
            self._keys[which] = await _listed(self._nav, self._api, keys)
        return self._keys[which]

    async def room_names(self, keys: RoomKeys, *, event: str) -> dict[str, str] | None:
        """The site's key of each room → its name (read once a session)."""
        listed = await self.room_keys(keys)
        if listed is None:
            log.info(event, why="no list of rooms")
            return None
        return {key: name for name, key in listed.items()}

    async def json(
        self,
        url: Template,
        values: Mapping[str, Any],
        *,
        method: str,
        token: HeaderToken | None,
        token_page: Template | None,
        body: Any,
        event: str,
    ) -> Any | None:
        """The call's JSON answer, ``token`` read from ``token_page`` first."""
        headers: dict[str, str] = {}
        if token is not None:
            found = await self._token(token_page, token.meta, values)
            if found is None:
                log.info(event, why="no token")
                return None
            headers = {token.header: found, "X-Requested-With": "XMLHttpRequest"}
        try:
            answer = await self._api.fetch(
                self._nav.url(url, values), method=method, headers=headers,
                max_redirects=0, data=body,
            )  # fmt: skip
            data = await answer.json() if answer.ok else None
        except (PlaywrightError, ValueError):
            log.info(event, why="no JSON")
            return None
        if data is None:
            log.info(event, why=f"HTTP {answer.status}")
        return data

    async def _token(
        self, page: Template | None, meta: str, values: Mapping[str, Any]
    ) -> str | None:
        if page is None:
            return None
        try:
            answer = await self._api.get(self._nav.url(page, values), max_redirects=0)
            html = await answer.text() if answer.ok else ""
        except PlaywrightError:
            return None
        return meta_content(html, meta) or None


async def _listed(nav: Navigator, api: APIRequestContext, keys: RoomKeys) -> dict[str, str] | None:
    """The site's rooms, name → key, from its JSON list; None when it is not given."""
    try:
        answer = await api.get(nav.url(keys.url, {}), max_redirects=0)
        listed = await answer.json() if answer.ok else None
    except (PlaywrightError, ValueError):
        return None
    if not isinstance(listed, list):
        return None
    entries = [e for e in listed if isinstance(e, dict)]
    return {
        str(e.get(keys.name, "")): str(e.get(keys.key, ""))
        for e in entries
        if e.get(keys.name) and e.get(keys.key) is not None
    }
