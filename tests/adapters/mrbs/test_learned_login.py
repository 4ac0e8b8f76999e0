"""The login ``clubman learn`` drafts from an operator logging in on a real MRBS 1.12.2,
whose form is drawn in place on every address: drafted as the form shown (``form#logon``,
no login path), it passes the contract's login part in ``profiles/mrbs.yaml`` instead of
the hand-written one — it logs in, logs in again when MRBS ends the session, and a wrong
password is ``LoginFailed`` in MRBS's words."""

from __future__ import annotations

from typing import Any

import pytest
import pytest_asyncio
import yaml

from adapters.profile import ProfileSystem
from adapters.profile.learn.login import draft_login
from adapters.profile.learn.recorder import Recorder
from adapters.profile.learn.recording import Recording
from adapters.profile.loader import parse_site_profile
from core.browser import BrowserPool
from tests.adapters.contract import (
    LoginContract,
    SiteHarness,
    a_wrong_password_is_login_failed,
)
from tests.adapters.mrbs.harness import PROFILE, MrbsHarness
from tests.adapters.refportal.helpers import FAST
from tests.sites.mrbs import MrbsServer

__all__ = ["TestDraftedMrbsLogin"]

pytestmark = [pytest.mark.browser, pytest.mark.asyncio(loop_scope="session")]


@pytest_asyncio.fixture(loop_scope="session", scope="module")
async def drafted(mrbs_server: MrbsServer, pool: BrowserPool) -> dict[str, Any]:
    """The login part drafted from the operator logging in on MRBS's first page."""
    async with pool.context() as context:
        recorder = Recorder(context)
        await recorder.attach()
        page = await context.new_page()
        await page.goto(f"{mrbs_server.base_url}/")
        recorder.begin()
        await page.get_by_label("Пользователь").fill(mrbs_server.club.username)
        await page.get_by_label("Пароль").fill(mrbs_server.club.password)
        async with page.expect_navigation():
            await page.get_by_role("button", name="Войти в систему").click()
        await page.get_by_role("button", name="Выйти из системы").wait_for()
        step = await recorder.end("login", page, {})
    return draft_login(Recording(name="MRBS", site=mrbs_server.base_url, steps=(step,)))


async def test_the_login_is_drafted_as_its_form_shown_in_place(drafted: dict[str, Any]) -> None:
    assert drafted["shown"] == [{"css": "form#logon"}] and "page" not in drafted


class TestDraftedMrbsLogin(LoginContract):
    @pytest_asyncio.fixture(loop_scope="session")
    async def site(self, mrbs: MrbsServer, drafted: dict[str, Any]) -> MrbsHarness:
        text = PROFILE.read_text(encoding="utf-8")
        login = yaml.safe_dump({"login": drafted}, allow_unicode=True, sort_keys=False)
        text = text[: text.index("\nlogin:\n") + 1] + login + text[text.index("\ncatalogue:\n") :]
        harness = MrbsHarness(mrbs)
        harness.system = ProfileSystem(
            mrbs.base_url, parse_site_profile(text, str(PROFILE)), retry=FAST
        )
        return harness

    async def test_a_wrong_password_is_login_failed(
        self, site: SiteHarness, pool: BrowserPool
    ) -> None:
        failed = await a_wrong_password_is_login_failed(site, pool)
        assert failed.args[0] == "неизвестный пользователь"  # MRBS's words, in its form
