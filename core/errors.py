"""The project's error hierarchy.

    ClubError
    ├── ConfigError          bad or missing configuration (one clear line for the user)
    ├── StorageError         MongoDB / SecantusDB / Redis failures
    │   ├── StorageUnavailable   a server cannot be reached or started
    │   ├── ConcurrencyError     optimistic concurrency lost (someone else wrote first)
    │   ├── DuplicateKey         a unique key is already taken
    │   └── NotFound             a document that must exist does not
    ├── BrowserError         Chromium / Playwright failures
    ├── PortalError          the booking portal said no or misbehaved
    ├── LLMError             every configured LLM provider failed
    ├── ScenarioError        a scenario cannot go on
    │   └── UncertainOutcome     it may have acted: what to check, told as it is
    └── AgentError           a request through the agent API (MCP) was refused

Third-party exceptions are translated into these where we call the library
(``raise ... from exc``); the bot's error router turns them into polite messages.
"""

from __future__ import annotations

__all__ = [
    "AgentError",
    "BrowserError",
    "ClubError",
    "ConcurrencyError",
    "ConfigError",
    "DuplicateKey",
    "InputError",
    "LLMError",
    "NotFound",
    "PortalError",
    "ScenarioError",
    "StorageError",
    "StorageUnavailable",
    "UncertainOutcome",
]


class ClubError(Exception):
    """Base of every error the project raises on purpose.

    ``hint`` tells the user (or operator) what to do next; ``for_admins`` is what the
    club's administrators need beyond the user's words (where in the site's profile it
    broke, what was tried): it goes to the run's timeline, never to the user.
    """

    def __init__(self, message: str, *, hint: str | None = None, for_admins: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.for_admins = for_admins

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


class InputError(ClubError):
    """What a person sent that no command takes (its message is in their language)."""


class ConfigError(ClubError):
    """Configuration is malformed or incomplete."""


class StorageError(ClubError):
    """A storage backend failed."""


class StorageUnavailable(StorageError):
    """A storage server cannot be reached or started."""


class ConcurrencyError(StorageError):
    """An optimistic-concurrency update lost: the document changed since it was read."""


class DuplicateKey(StorageError):
    """A unique index rejected the write (e.g. two upserts raced)."""


class NotFound(StorageError):
    """A document that must exist was not found."""


class BrowserError(ClubError):
    """Chromium could not be started or driven."""


class PortalError(ClubError):
    """The booking portal refused a request or behaved unexpectedly."""


class LLMError(ClubError):
    """No configured LLM provider produced a valid answer."""


class ScenarioError(ClubError):
    """A scenario cannot continue."""


class UncertainOutcome(ScenarioError):
    """A step sent something whose effect it could not confirm (a booking that may be
    made): its message says what was done and what to check, and the user reads it as it
    is, never as «не получилось» (which says nothing was done)."""


class AgentError(ClubError):
    """A request through the agent API (the MCP server) cannot be served as asked."""
