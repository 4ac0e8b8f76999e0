"""The ``BookingSystemContract``, unchanged, on MRBS set up as a site nobody tuned the
learner for (``VARIANT`` in tests/sites/mrbs.py: English, London time, 15-minute slots
from 9:00 to 18:00, rooms «Room N-113»…) through its hand profile ``profiles/mrbs-en.yaml``,
written from docs/profiles.md and docs/sites/mrbs-notes.md."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_asyncio

from adapters.profile import ProfileSystem, load_site_profile
from tests.adapters.contract import BookingSystemContract
from tests.adapters.mrbs.harness import MrbsHarness
from tests.adapters.refportal.helpers import FAST
from tests.sites.mrbs import MrbsServer

__all__ = ["VARIANT_PROFILE", "TestMrbsVariantContract"]

pytestmark = pytest.mark.asyncio(loop_scope="session")

VARIANT_PROFILE = Path(__file__).parents[3] / "profiles" / "mrbs-en.yaml"


@pytest.fixture
def mrbs_variant(mrbs_variant_server: MrbsServer) -> Iterator[MrbsServer]:
    """The session's variant MRBS as seeded, at the start of each test and after it."""
    with mrbs_variant_server.seeded_only() as server:
        yield server


class TestMrbsVariantContract(BookingSystemContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, mrbs_variant: MrbsServer) -> MrbsHarness:
        harness = MrbsHarness(mrbs_variant)
        harness.system = ProfileSystem(
            mrbs_variant.base_url, load_site_profile(VARIANT_PROFILE), retry=FAST
        )
        return harness
