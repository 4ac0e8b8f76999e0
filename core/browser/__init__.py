"""Shared Chromium for scenario runs (Playwright)."""

from core.browser.executable import chromium_args, find_chromium
from core.browser.pool import BrowserPool

__all__ = ["BrowserPool", "chromium_args", "find_chromium"]
