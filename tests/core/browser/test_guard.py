"""The network guard (``core.browser.guard``) on its own, in real Chromium against a tiny
local server that records what reached it (issue 31). The hostile-page tests catch a
broken guard only as a run that never ends (a 60-second wait); here each rule is an
assertion. This module: what is blocked, what passes, what is reported and when, and
that the guard comes off (windows, sockets and beacons: ``test_guard_windows.py``)."""

from __future__ import annotations

import pytest
from playwright.async_api import Page
from structlog.testing import capture_logs

from core.browser import NetworkGuard
from core.browser.harm import RequestBlocked
from tests.core.browser.guarded import Site, blocked_by_lift, send

pytestmark = pytest.mark.asyncio(loop_scope="module")


# --- requests -----------------------------------------------------------------------------


async def test_reads_pass_and_every_other_method_is_blocked_and_reported(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    failures: list[tuple[str, str]] = []
    page.on(
        "requestfailed",
        lambda request: failures.append((request.method, str(request.failure).split(".")[0])),
    )

    async def tried() -> None:
        for method in ("GET", "HEAD", "OPTIONS"):
            assert await send(page, method, f"/sink/{method.lower()}") == "sent"
        for method in ("POST", "PUT", "DELETE", "PATCH"):
            assert await send(page, method, f"/sink/{method.lower()}") == "failed"

    with pytest.raises(RequestBlocked) as caught:
        await guard.run(tried)
    what = tuple(f"{m} {site.at('/sink/' + m.lower())}" for m in ("POST", "PUT", "DELETE", "PATCH"))
    assert caught.value.what == what
    assert str(caught.value) == (
        "the page tried to change something the step may not: " + ", ".join(what)
    )
    # Refused as a blocker would, not as a network failure the page might retry.
    blocked = [(m, "net::ERR_BLOCKED_BY_CLIENT") for m in ("POST", "PUT", "DELETE", "PATCH")]
    assert [f for f in failures if f[0] not in ("GET", "HEAD", "OPTIONS")] == blocked
    assert site.received == ["GET /sink/get", "HEAD /sink/head", "OPTIONS /sink/options"]
    assert guard.armed


async def test_a_declared_endpoint_may_be_changed_and_nothing_else(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    async def tried() -> None:
        assert await send(page, "POST", "/sink/ack?from=notice") == "sent"
        assert await send(page, "POST", "/sink/cleanup") == "failed"

    with pytest.raises(RequestBlocked) as caught:
        await guard.run(tried, may_change=[site.at("/sink/ack")])
    assert caught.value.what == (f"POST {site.at('/sink/cleanup')}",)
    assert site.received == ["POST /sink/ack"]


async def test_an_action_that_tried_nothing_passes_and_the_guard_stays_on_until_lifted(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    async def harmless() -> None:
        assert await send(page, "GET", "/sink/read") == "sent"

    await guard.run(harmless)
    assert guard.armed
    # A timer on the page, after the action was judged: blocked all the same ...
    assert await send(page, "POST", "/sink/later") == "failed"
    # ... and reported when the guard comes off.
    assert await blocked_by_lift(guard, page) == (f"POST {site.at('/sink/later')}",)
    assert guard.armed is False
    assert page.url == "about:blank"
    await page.goto(site.at("/page"))  # off now: the adapter's own change goes through
    assert await send(page, "POST", "/sink/own") == "sent"
    assert site.received == ["GET /sink/read", "POST /sink/own"]


async def test_a_lift_with_nothing_blocked_says_nothing_and_a_report_is_made_once(
    guard: NetworkGuard, page: Page
) -> None:
    async def tried() -> None:
        await send(page, "POST", "/sink/x")

    with pytest.raises(RequestBlocked):
        await guard.run(tried)
    await guard.lift(page)  # reported by run already: not again
    await guard.arm()
    await guard.lift(page)


async def test_lifting_a_guard_that_is_off_leaves_the_page_alone(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    assert guard.armed is False
    await guard.lift(page)
    assert page.url == site.at("/page") and guard.armed is False


async def test_the_declared_endpoints_end_with_the_lift(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    await guard.arm(may_change=[site.at("/sink/ack")])
    await guard.lift(page)
    await page.goto(site.at("/page"))

    async def tried() -> None:
        assert await send(page, "POST", "/sink/ack") == "failed"

    with pytest.raises(RequestBlocked):
        await guard.run(tried)
    assert site.received == []


async def test_arming_again_replaces_what_may_change(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    await guard.arm(may_change=[site.at("/sink/first")])
    await guard.arm(may_change=[site.at("/sink/second")])
    assert await send(page, "POST", "/sink/first") == "failed"
    assert await send(page, "POST", "/sink/second") == "sent"
    assert await blocked_by_lift(guard, page) == (f"POST {site.at('/sink/first')}",)
    assert site.received == ["POST /sink/second"]


async def test_what_blocked_an_action_that_then_failed_is_the_news(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    async def tried_then_failed() -> None:
        await send(page, "POST", "/sink/x")
        raise TimeoutError("the click waited for a navigation that never came")

    with pytest.raises(RequestBlocked) as caught:
        await guard.run(tried_then_failed)
    assert isinstance(caught.value.__cause__, TimeoutError)
    assert caught.value.what == (f"POST {site.at('/sink/x')}",)


async def test_an_action_that_failed_without_trying_anything_fails_as_itself(
    guard: NetworkGuard, page: Page
) -> None:
    async def failed() -> None:
        raise LookupError("no such button")

    with pytest.raises(LookupError):
        await guard.run(failed)
    await guard.lift(page)  # and nothing is left to report


async def test_a_blocked_request_is_logged(guard: NetworkGuard, page: Page, site: Site) -> None:
    await guard.arm()
    with capture_logs() as logs:
        await send(page, "POST", "/sink/x")
    assert {"event": "browser.request_blocked", "method": "POST", "url": site.at("/sink/x"),
            "log_level": "warning"} in logs  # fmt: skip
    with pytest.raises(RequestBlocked):
        await guard.lift(page)


# --- reads the site answered as changes -----------------------------------------------------


async def test_a_page_read_the_site_redirected_is_what_the_lift_returns(
    guard: NetworkGuard, page: Page, site: Site
) -> None:
    """A link's GET answered by a redirect acted (issue 65: the brain keeps no such click);
    a redirect after a declared change is that change's, and a read answered with its
    page, or one to a declared address, acted on nothing undeclared."""
    await guard.arm(may_change=[site.at("/acts/declared"), site.at("/acts/posted")])
    await page.goto(site.at("/acts/read?x=1"))
    await page.goto(site.at("/acts/declared"))
    await page.goto(site.at("/page"))
    async with page.expect_navigation():
        await page.evaluate("""() => {
          const form = Object.assign(document.createElement("form"),
                                     {method: "post", action: "/acts/posted"});
          document.body.append(form);
          form.submit();
        }""")
    assert page.url == site.at("/page")

    assert await guard.lift(page) == (f"GET {site.at('/acts/read?x=1')}",)
    assert site.received == ["GET /acts/read", "GET /acts/declared", "POST /acts/posted"]
    await guard.arm()
    assert await guard.lift(page) == ()  # reported once, and arming again starts afresh
    assert await guard.lift(page) == ()  # off: nothing
