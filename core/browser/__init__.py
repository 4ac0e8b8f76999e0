"""Shared Chromium for scenario runs (Playwright)."""

from core.browser.executable import chromium_args, find_chromium

__all__ = ["chromium_args", "find_chromium"]
