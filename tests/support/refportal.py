"""The reference portal as the product drives it: the profile adapter on the profile we
ship for it (``profiles/refportal.yaml``, what ``PORTAL__KIND=refportal`` runs)."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.profile import ProfileSystem, load_site_profile, parse_site_profile
from adapters.profile.history import ProfileHistory
from core.brain import ElementPicker
from core.browser.retry import RetryPolicy

__all__ = ["REFPORTAL_PROFILE", "page_path_only", "refportal_system"]

REFPORTAL_PROFILE = Path(__file__).parents[2] / "profiles" / "refportal.yaml"


def refportal_system(
    url: str,
    *,
    retry: RetryPolicy | None = None,
    page_path: bool = False,
    history: ProfileHistory | None = None,
    picker: ElementPicker | None = None,
) -> ProfileSystem:
    """``page_path``: with no ``book.request``, so the booking goes through the form's
    page (where the fast path falls back to; a test that routes the browser's POST)."""
    if page_path:
        text = page_path_only(REFPORTAL_PROFILE.read_text(encoding="utf-8"))
        loaded = parse_site_profile(text, str(REFPORTAL_PROFILE))
    else:
        loaded = load_site_profile(REFPORTAL_PROFILE)
    return ProfileSystem(url, loaded, retry=retry, history=history, picker=picker)


def page_path_only(text: str) -> str:
    """``text`` without its requests (``book.request``, ``my_bookings.request``, and the
    comment over each): every booking through the form's page, every list read on it."""
    without = re.sub(r"(?m)(^  #[^\n]*\n)*^  request:[^\n]*\n(^    [^\n]*\n)+", "", text)
    assert without != text, "the profile has no book.request"
    return without
