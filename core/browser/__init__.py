"""Shared Chromium for scenario runs (Playwright).

``BrowserContext`` is Playwright's, named here so that the booking port can speak of
the context it is given without the rest of core importing Playwright.
"""

from playwright.async_api import BrowserContext

from core.browser.controls import find_control, press
from core.browser.executable import chromium_args, find_chromium
from core.browser.guard import NetworkGuard
from core.browser.pages import close_page, storage_state
from core.browser.pool import BrowserPool
from core.browser.screenshot import screenshot
from core.browser.summary import Control, read_controls

__all__ = [
    "BrowserContext",
    "BrowserPool",
    "NetworkGuard",
    "Control",
    "chromium_args",
    "close_page",
    "find_chromium",
    "find_control",
    "press",
    "read_controls",
    "screenshot",
    "storage_state",
]
