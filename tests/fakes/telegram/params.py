"""Bot API request parameters: read from query, form, multipart or JSON, then typed."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from tests.fakes.telegram.errors import bad_request

__all__ = ["UploadedFile", "decode_params", "read_multipart", "read_params"]

JsonDict = dict[str, Any]
_JSON_KEYS = frozenset(
    {
        "reply_markup", "entities", "caption_entities", "allowed_updates", "commands", "scope",
        "link_preview_options", "reply_parameters", "media",
    }
)  # fmt: skip
_INT_KEYS = frozenset(
    {"chat_id", "message_id", "offset", "limit", "timeout", "max_connections", "cache_time",
     "reply_to_message_id"}
)  # fmt: skip
_BOOL_KEYS = frozenset(
    {"show_alert", "drop_pending_updates", "disable_notification", "protect_content"}
)


@dataclass(frozen=True)
class UploadedFile:
    """A file part of a multipart request."""

    filename: str
    content: bytes


def _decode(key: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    if key in _JSON_KEYS:
        try:
            return json.loads(value)
        except ValueError:
            raise bad_request(f"can't parse {key} JSON object") from None
    if key in _INT_KEYS and re.fullmatch(r"-?\d+", value):
        return int(value)  # chat_id "@channel" stays a string
    if key in _BOOL_KEYS:
        return value.lower() in ("true", "1")
    return value


def decode_params(fields: JsonDict, files: dict[str, UploadedFile] | None = None) -> JsonDict:
    """Type form values and resolve ``attach://name`` references to uploaded files."""
    files = files or {}
    params: JsonDict = {**files, **fields}
    for key, value in params.items():
        if isinstance(value, str) and value.startswith("attach://"):
            params[key] = files.get(value.removeprefix("attach://"), value)
    return {key: _decode(key, value) for key, value in params.items()}


async def read_params(request: web.Request) -> JsonDict:
    """Parameters from the query string and a form, multipart or JSON body."""
    fields: JsonDict = dict(request.query)
    files: dict[str, UploadedFile] = {}
    if request.method == "POST" and request.can_read_body:
        if request.content_type == "application/json":
            try:
                body = await request.json()
            except ValueError:
                raise bad_request("can't parse JSON object") from None
            if isinstance(body, dict):
                fields.update(body)
        else:
            for key, value in (await request.post()).items():
                if isinstance(value, web.FileField):
                    files[key] = UploadedFile(value.filename, value.file.read())
                else:
                    fields[key] = value
    return decode_params(fields, files)


async def read_multipart(response: aiohttp.ClientResponse) -> JsonDict:
    """Parameters of a multipart/form-data body (aiogram's webhook replies use it)."""
    fields: JsonDict = {}
    files: dict[str, UploadedFile] = {}
    reader = aiohttp.MultipartReader(response.headers, response.content)
    while (part := await reader.next()) is not None:
        if not isinstance(part, aiohttp.BodyPartReader) or part.name is None:
            continue
        data = await part.read()
        if part.filename:
            files[part.name] = UploadedFile(part.filename, bytes(data))
        else:
            fields[part.name] = bytes(data).decode()
    return decode_params(fields, files)
