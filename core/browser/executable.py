"""Which Chromium to launch and with which flags on a locked-down server."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["chromium_args", "find_chromium"]

_SYSTEM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")


def find_chromium(explicit: str | None = None) -> str | None:
    """``BROWSER__EXECUTABLE`` if set and present, else a system Chromium, else None
    (Playwright's own download, if installed, is used then)."""
    if explicit:
        return explicit if Path(explicit).exists() else None
    for candidate in _SYSTEM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    return shutil.which("chromium")


def chromium_args() -> list[str]:
    # Background networking, sync and component updates try to reach Google; on a
    # closed network they fail noisily and slow start-up, so they are off.
    args = [
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
        "--disable-dev-shm-usage",
    ]
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        args.append("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return args
