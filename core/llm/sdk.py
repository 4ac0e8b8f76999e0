"""What the Anthropic and OpenAI providers share at the SDK boundary.

Both SDKs are generated from one template (Stainless): a status error that carries the
HTTP status and the response, a timeout error that is a connection error, and one base
class for the rest. A provider names its four classes and how to read the vendor's
words from a status error (``SdkErrors``); which exception becomes which ``ErrorKind``,
the ``retry-after`` it carried and the redaction of keys are decided here, once::

    with translated(_ERRORS, provider=self._name, secret=self._secret):
        reply = await self._client.messages.create(...)

This module imports neither SDK, so it costs nothing to load without an LLM.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Generic, TypeVar

from core.llm.errors import ErrorKind, ProviderCallError, kind_for_status, redact
from core.llm.protocol import Price
from core.llm.retry import parse_retry_after

__all__ = ["SdkErrors", "SdkProvider", "StatusReply", "api_name", "translated"]

S = TypeVar("S", bound=BaseException)


def api_name(schema_name: str) -> str:
    """A tool or schema name both APIs accept (``^[a-zA-Z0-9_-]{1,64}$``)."""
    return re.sub(r"[^a-zA-Z0-9_-]", "_", schema_name)[:64] or "answer"


class SdkProvider:
    """What records and cache keys know a provider by; each SDK's subclass adds the call."""

    def __init__(self, *, name: str, model: str, price: Price, secret: str | None) -> None:
        self._name = name
        self._model = model
        self._price = price
        self._secret = secret  # kept to be redacted from the vendor's error messages

    @property
    def name(self) -> str:
        return self._name

    @property
    def model(self) -> str:
        return self._model

    @property
    def price(self) -> Price:
        return self._price

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self._name!r}, model={self._model!r})"


@dataclass(frozen=True, slots=True)
class StatusReply:
    """What a vendor said with an HTTP error, read from the SDK's status error."""

    status: int
    headers: Mapping[str, str]
    message: str  # the vendor's words, redacted here before they go anywhere
    label: str = ""  # the vendor's error type (Anthropic's ``overloaded_error``), if any


@dataclass(frozen=True, slots=True)
class SdkErrors(Generic[S]):
    """One SDK's exception classes, and how to read its status error."""

    status: type[S]
    timeout: type[BaseException]
    connection: type[BaseException]
    base: type[BaseException]
    read: Callable[[S], StatusReply]


@contextmanager
def translated(sdk: SdkErrors[S], *, provider: str, secret: str | None) -> Iterator[None]:
    """Raise what the SDK raises inside the block as ``ProviderCallError``."""
    try:
        yield
    except sdk.status as exc:
        reply = sdk.read(exc)
        head = f"HTTP {reply.status} {reply.label}".strip()
        raise ProviderCallError(
            f"{head}: {redact(reply.message, [secret])}".strip(),
            provider=provider,
            kind=kind_for_status(reply.status),
            status=reply.status,
            retry_after=parse_retry_after(reply.headers),
        ) from exc
    # The timeout error is a connection error in both SDKs, so it is caught first.
    except sdk.timeout as exc:
        raise ProviderCallError("timed out", provider=provider, kind=ErrorKind.TIMEOUT) from exc
    except sdk.connection as exc:
        raise ProviderCallError(
            "cannot connect", provider=provider, kind=ErrorKind.CONNECTION
        ) from exc
    except sdk.base as exc:
        raise ProviderCallError(
            f"SDK error {type(exc).__name__}", provider=provider, kind=ErrorKind.UNKNOWN
        ) from exc
