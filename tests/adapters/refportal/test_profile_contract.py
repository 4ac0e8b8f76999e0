"""The ``BookingSystem`` contract on the reference portal, driven by the profile adapter
with ``profiles/refportal.yaml`` (the same portal and Chromium as the hand-written one)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_asyncio

from adapters.profile import ProfileSystem, load_site_profile
from core.browser import BrowserPool
from portal.server import RunningPortal
from tests.adapters.contract import BookingSystemContract
from tests.adapters.refportal.helpers import FAST
from tests.adapters.refportal.test_contract import RefPortalHarness

__all__ = ["TestRefPortalProfileContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")

PROFILE = Path(__file__).parents[3] / "profiles" / "refportal.yaml"


class TestRefPortalProfileContract(BookingSystemContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, fresh_portal: RunningPortal, pool: BrowserPool) -> RefPortalHarness:
        harness = RefPortalHarness(fresh_portal, pool)
        harness.system = ProfileSystem(fresh_portal.url, load_site_profile(PROFILE), retry=FAST)
        return harness
