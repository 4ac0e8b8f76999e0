"""Indico's classic pages over a logged-in request API: WTForms forms posted as a browser
would (the page's CSRF token), their values read back from the HTML, and each failure
translated to an ``IndicoError`` (``adapters.indico.events`` drives events with them)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from html.parser import HTMLParser
from typing import Any

from playwright.async_api import APIRequestContext, APIResponse
from playwright.async_api import Error as PlaywrightError

from adapters.indico.errors import (
    FormRefused,
    Missing,
    NotAllowed,
    SessionLost,
    SystemUnavailable,
    UnexpectedAnswer,
)

__all__ = ["IndicoPages", "form_errors", "form_fields"]

# WTForms errors as Indico renders them: ``data-error="<ul><li>...</li></ul>"``.
_FORM_ERROR = re.compile(r'data-error="([^"]+)"')
_TAG = re.compile(r"<[^>]+>|&lt;[^&]*&gt;")


class _FormFields(HTMLParser):
    """The values a browser would send for the forms on a page (the last value of a name
    wins): checked boxes and radios only, a select's selected option, a textarea's text."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.fields: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None
        self._chosen = False
        self._textarea: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = {key: value or "" for key, value in attrs}
        name = found.get("name")
        if tag == "input" and name:
            kind = found.get("type", "text").lower()
            if kind in ("submit", "button", "image", "file", "reset"):
                return
            if kind in ("checkbox", "radio") and "checked" not in found:
                return
            self.fields[name] = found.get("value", "on")
        elif tag == "select" and name:
            self._select, self._first, self._chosen = name, None, False
        elif tag == "option" and self._select is not None:
            value = found.get("value", "")
            if self._first is None:
                self._first = value
            if "selected" in found:
                self.fields[self._select] = value
                self._chosen = True
        elif tag == "textarea" and name:
            self._textarea, self._text = name, []

    def handle_endtag(self, tag: str) -> None:
        if tag == "select" and self._select is not None:
            if not self._chosen and self._first is not None:
                self.fields[self._select] = self._first
            self._select = None
        elif tag == "textarea" and self._textarea is not None:
            self.fields[self._textarea] = "".join(self._text).removeprefix("\n")
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea is not None:
            self._text.append(data)


def form_fields(html: str) -> dict[str, str]:
    parser = _FormFields()
    parser.feed(html)
    return parser.fields


def form_errors(html: str) -> str:
    found = [_TAG.sub(" ", m).strip() for m in _FORM_ERROR.findall(html)]
    found = [" ".join(text.replace("&#34;", '"').split()) for text in found if text]
    return "; ".join(found) or "Indico sent the form back without saying why"


class IndicoPages:
    """GET and POST on Indico's pages as the logged-in user (``csrf_token`` from its page)."""

    def __init__(
        self, request: APIRequestContext, base_url: str, csrf_token: str, *, timeout_s: float
    ) -> None:
        self._request = request
        self.base_url = base_url.rstrip("/")
        self.csrf = csrf_token
        self._timeout_ms = timeout_s * 1000

    async def get_json(self, path: str, params: Mapping[str, str]) -> Any:
        response = await self.call("GET", path, params=params, xhr=False)
        try:
            return await response.json()
        except (PlaywrightError, ValueError) as exc:
            raise SystemUnavailable(f"Indico sent no JSON for GET {path}") from exc

    async def post_form(self, path: str, form: Mapping[str, str], *, xhr: bool) -> Any:
        """POST a WTForms form; Indico's XHR answer is JSON."""
        response = await self.call("POST", path, form=form, xhr=xhr)
        try:
            return await response.json()
        except (PlaywrightError, ValueError) as exc:
            raise SystemUnavailable(f"Indico sent no JSON for POST {path}") from exc

    async def post_redirect(self, path: str, form: Mapping[str, str]) -> str:
        """POST a classic form whose success is a redirect; the page again is a refusal."""
        response = await self.call("POST", path, form=form, xhr=False)
        if 300 <= response.status < 400:
            return response.headers.get("location", "")
        raise FormRefused(form_errors(await response.text()), status=response.status)

    async def call(
        self,
        method: str,
        path: str,
        *,
        params: Mapping[str, str] | None = None,
        form: Mapping[str, str] | None = None,
        xhr: bool,
    ) -> APIResponse:
        headers = {"X-CSRF-Token": self.csrf}
        if xhr:
            headers["X-Requested-With"] = "XMLHttpRequest"
        try:
            response = await self._request.fetch(
                self.base_url + path,
                method=method,
                params=dict(params) if params else None,
                form=dict(form) if form is not None else None,
                headers=headers,
                timeout=self._timeout_ms,
                max_redirects=0,
                fail_on_status_code=False,
            )
        except PlaywrightError as exc:
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise SystemUnavailable(f"Indico did not answer {method} {path}: {first}") from exc
        status = response.status
        if response.ok or (300 <= status < 400 and "/login" not in _location(response)):
            return response
        if 300 <= status < 400:
            raise SessionLost("Indico sent us to its login page", status=status)
        text = await _text(response)
        if status >= 500:
            raise SystemUnavailable(f"Indico failed ({status}) at {method} {path}", status=status)
        if status == 400 and "problem with your current session" in text:
            raise SessionLost("Indico refused the session (CSRF)", status=status)
        if status == 403:
            raise NotAllowed(f"Indico forbids {method} {path}", status=status)
        if status == 404:
            raise Missing(f"Indico has no {path}", status=status)
        raise UnexpectedAnswer(f"HTTP {status} for {method} {path}", status=status)


def _location(response: APIResponse) -> str:
    return response.headers.get("location", "")


async def _text(response: APIResponse) -> str:
    try:
        return await response.text()
    except PlaywrightError:
        return ""
