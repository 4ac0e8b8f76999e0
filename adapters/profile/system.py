"""``ProfileSystem``: any booking site a profile describes (``PORTAL__KIND=profile``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date

from adapters.profile.healing import Healing
from adapters.profile.history import ProfileHistory
from adapters.profile.loader import LoadedProfile, parse_site_profile
from adapters.profile.recall import Recall
from adapters.profile.session import ProfileSession
from core.brain.element import ElementPicker
from core.browser import BrowserContext
from core.browser.retry import RetryPolicy
from core.site.retry import OnRetry

__all__ = ["ProfileSystem"]


class ProfileSystem:
    kind = "profile"

    def __init__(
        self,
        url: str,
        loaded: LoadedProfile,
        *,
        retry: RetryPolicy | None = None,
        history: ProfileHistory | None = None,
        picker: ElementPicker | None = None,
        today: Callable[[], date] = date.today,
    ) -> None:
        self.url = url.rstrip("/")
        self._today = today  # the site's day, where it differs from this machine's (tests)
        self.loaded = loaded
        self._retry = retry
        # An element none of whose locators match any more is picked from the page by the
        # LLM (with one configured), under the network guard.
        self._picker = picker
        # A step that passed with a later locator (or a picked element) writes it first in
        # the file, and the sessions opened after it read that version (no history: a
        # profile not read from a file, only logged).
        self._healing = Healing(history, written=self._reload)
        # Per account: what earlier sessions learnt of the site (``Recall``).
        self._recall: dict[str, Recall] = {}

    def _reload(self, text: str) -> None:
        self.loaded = parse_site_profile(text, self.loaded.file)

    def __repr__(self) -> str:
        return f"ProfileSystem({self.loaded.profile.name!r}, {self.url!r})"

    def open_session(
        self,
        context: BrowserContext,
        *,
        username: str,
        password: str,
        on_retry: OnRetry | None = None,
    ) -> ProfileSession:
        return ProfileSession(
            context,
            self.loaded,
            base_url=self.url,
            username=username,
            password=password,
            retry=self._retry,
            on_retry=on_retry,
            healing=self._healing,
            picker=self._picker,
            recall=self._recall.setdefault(username, Recall(account=username)),
            today=self._today,
        )
