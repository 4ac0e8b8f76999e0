"""Going to a profile's pages and acting on them: URLs from templates, landing checks
(a server error is worth another try, the login page means the session ended), and a
profile's ``Action``s on a page's elements."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import urljoin, urlsplit

from playwright.async_api import Locator as PwLocator
from playwright.async_api import Page, Response
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from adapters.profile.errors import ProfileInvalid
from adapters.profile.finding import Finder
from adapters.profile.loader import LoadedProfile
from adapters.profile.model import Open
from adapters.profile.parts import Action, Find
from adapters.profile.patterns import compiled
from adapters.profile.template import Template
from adapters.profile.traffic import Traffic
from core.browser.retry import Bounced, Transient

__all__ = ["Navigator", "path_of"]

# Scroll an element into view unless it is in full view already (as Playwright's
# ``scroll_into_view_if_needed`` decides, by IntersectionObserver's ratio; a page the
# browser does not draw never answers that: scrolled then); whether it scrolled.
_SCROLL_TO = """(el) => new Promise((done) => {
  const scroll = () => { el.scrollIntoView({block: "center", inline: "nearest"}); done(true); };
  const observer = new IntersectionObserver(([seen]) => {
    clearTimeout(timer);
    observer.disconnect();
    if (seen.intersectionRatio < 1) scroll(); else done(false);
  });
  const timer = setTimeout(() => { observer.disconnect(); scroll(); }, 1000);
  observer.observe(el);
})"""


def path_of(page: Page) -> str:
    return urlsplit(page.url).path


class Navigator:
    def __init__(
        self,
        loaded: LoadedProfile,
        base_url: str,
        finder: Finder,
        *,
        timeout_ms: float = 15000,
        routed: Callable[[], bool] = lambda: True,  # the context routes requests now
    ) -> None:
        self.profile = loaded.profile
        self.timeout_ms = timeout_ms
        self.loaded = loaded
        self._base_url = base_url.rstrip("/") + "/"
        self._host = urlsplit(base_url).netloc
        login_path = loaded.profile.login.page_path()
        self._login_page = compiled(login_path) if login_path is not None else None
        self.finder = finder
        self._traffic = Traffic(self._host, routed=routed)
        self._went_to: str | None = None  # the path last asked for (before any redirect)

    def url(self, template: Template, values: Mapping[str, Any]) -> str:
        address = urljoin(self._base_url, template.render(values).lstrip("/"))
        # A value written without «|url» that reads as an address («https://…») would
        # be joined as itself: the site's scheme, host and port or nothing.
        if urlsplit(address)[:2] != urlsplit(self._base_url)[:2]:
            raise ProfileInvalid(
                self.loaded.file, f"«{template}» with its values leads off the site: {address}"
            )
        return address

    def url_path(self, template: Template, values: Mapping[str, Any]) -> str:
        return urlsplit(self.url(template, values)).path

    def shows(self, page: Page, template: Template) -> bool:
        """The page is at the template's address: its path, and its query if it has one
        (a page that takes its view from the query: «?view=list»)."""
        wanted, shown = urlsplit(self.url(template, {})), urlsplit(page.url)
        return wanted.path == shown.path and wanted.query in ("", shown.query)

    def where_it_went(self, page: Page) -> bool:
        """The page is at the path last gone to, not somewhere a redirect led instead."""
        return self._went_to is None or self._went_to == path_of(page)

    def on_login_page(self, page: Page) -> bool:
        """Whether the page's path is the login page's (``login.page``); ``asks_login``
        looks for the login form on it too."""
        return self.is_login_path(path_of(page))

    def is_login_path(self, path: str) -> bool:
        return self._login_page is not None and bool(self._login_page.search(path))

    async def asks_login(self, page: Page) -> bool:
        """Whether the page is the login page: its path is the login's, or the login form
        (``login.shown``) shows on it, whatever its address (drawn in place)."""
        return self.on_login_page(page) or await self._form_shown(page)

    async def _form_shown(self, page: Page) -> bool:
        shown = self.profile.login.shown
        if shown is None:
            return False
        return await self.finder.any_of(page, shown).filter(visible=True).count() > 0

    def login_form(self, page: Page) -> PwLocator:
        """What shows when the site asks for a login in place: the password field, or the
        login form (``login.shown``), for waiting with what a step waits for."""
        login = self.profile.login
        form = self.finder.any_of(page, login.password)
        if login.shown is not None:
            form = form.or_(self.finder.any_of(page, login.shown))
        return form

    def off_site(self, page: Page) -> str | None:
        """The host the page is on when it is not the site's (single sign-on)."""
        host = urlsplit(page.url).netloc
        return host if host and host != self._host else None

    def land(self, page: Page, response: Response | None, *, login_ok: bool = False) -> int:
        """Check where a navigation ended and return its HTTP status: a 5xx is
        ``Transient``, the login page (unless ``login_ok``) ``Bounced``."""
        status = response.status if response is not None else 200
        if status >= 500:
            raise Transient(f"HTTP {status} at {path_of(page)}")
        if not login_ok and self.on_login_page(page):
            raise Bounced()
        return status

    async def landed(self, page: Page, response: Response | None, *, login_ok: bool = False) -> int:
        """``land``, and the login form shown on the page (``login.shown``, any address)
        is ``Bounced`` too, unless ``login_ok``."""
        status = self.land(page, response, login_ok=login_ok)
        unavailable = self.profile.unavailable
        if unavailable is not None and await self.finder.any_of(page, unavailable).count():
            raise Transient(f"the site says it is unavailable at {path_of(page)}")
        if not login_ok and await self._form_shown(page):
            raise Bounced()
        return status

    async def goto(self, page: Page, url: str, *, login_ok: bool = False) -> int:
        self._traffic.watch(page)
        self._went_to = urlsplit(url).path
        return await self.landed(page, await page.goto(url), login_ok=login_ok)

    async def open(
        self,
        page: Page,
        how: Open,
        values: Mapping[str, Any],
        *,
        path: str,
        login_ok: bool = False,
        shown: Callable[[], Awaitable[None]] | None = None,
    ) -> int:
        """Load the page ``how`` describes: its URL, what it waits for (then ``shown`` is
        called, to look at the page before acting on it), its actions, its submit."""
        status = 200
        if how.url is not None:
            status = await self.goto(page, self.url(how.url, values), login_ok=login_ok)
        if how.wait is not None:
            wait_path = f"{path}.wait"
            # A page opened to act on is acted on once what its first action needs shows,
            # as a person would; one read as it shows, or showing nothing to act on yet
            # («nothing found» may come before the data), is first settled. A page read
            # is waited for as it loads all the same: looking for it the first time
            # readies the browser's look-up, in time its data spends on the way.
            if how.actions:
                early = await self.shows_early(
                    page, how.wait, how.actions[0].find, path=wait_path,
                    action_path=f"{path}.actions.0.find", login_ok=login_ok,
                )  # fmt: skip
            else:
                await self._any_shows(page, how.wait, path=wait_path, login_ok=login_ok)
                early = False
            if not early:
                await self.settle(page)
                await self.wait_for(page, how.wait, path=wait_path, login_ok=login_ok)
        if shown is not None:
            await shown()
        for index, action in enumerate(how.actions):
            await self.act(page, action, values, path=f"{path}.actions.{index}")
        if how.submit is not None:
            status = await self.click_and_wait(
                page, how.submit, path=f"{path}.submit", what="кнопки отправки", login_ok=login_ok
            )
        if how.after is not None:
            await self.settle(page)
            await self.wait_for(page, how.after, path=f"{path}.after", login_ok=login_ok)
        return status

    def page_coming(self, page: Page) -> None:
        """A press is about to load a page: what failed so far was the last page's."""
        self._traffic.watch(page)

    async def settle(self, page: Page) -> None:
        """Let a page its scripts draw fetch its data first: until then it may show a
        placeholder, or «nothing found», that is not the answer. A fetch that failed is
        ``Transient``: what the page shows then is not the site's answer."""
        with contextlib.suppress(PlaywrightTimeoutError):  # a page still loading: read as is
            await page.wait_for_load_state("load", timeout=self.timeout_ms)
        await self._traffic.quiet(page, timeout_ms=self.timeout_ms)

    async def scroll_to(self, page: Page, element: PwLocator) -> bool:
        """Scroll to ``element``, then let the page settle (what it fetches as it is
        scrolled); False when it was in full view: nothing scrolled, nothing to wait for
        (in one round trip, where Playwright's own scroll checks the element is still)."""
        if not await element.evaluate(_SCROLL_TO):
            return False
        await self.settle(page)
        return True

    async def wait_for(
        self,
        page: Page,
        find: Find,
        *,
        path: str,
        login_ok: bool = False,
        what: str = "",
        instead: tuple[str, Find] | None = None,
    ) -> None:
        """Wait until one of ``find`` shows (a page its scripts draw), or what may show
        ``instead`` (its path and Find: «no such booking»); the login form showing
        instead is ``Bounced``, nothing showing in time the LLM's pick or the profile's
        line. What showed is found at its path (a later candidate stands in)."""
        await self._any_shows(page, find, path=path, login_ok=login_ok, what=what,
                              instead=instead)  # fmt: skip
        if await self.finder.showing(page, find, path=path) or login_ok:
            return
        if instead is not None and await self.finder.maybe(page, instead[1], path=instead[0]):
            return
        if await self.asks_login(page) or await self.finder.maybe(
            page, self.profile.login.password, path="login.password"
        ):
            raise Bounced()
        raise Transient(f"what {path} waits for showed and went (the page was drawn again)")

    async def _any_shows(
        self,
        page: Page,
        find: Find,
        *,
        path: str,
        login_ok: bool,
        what: str = "",
        instead: tuple[str, Find] | None = None,
    ) -> None:
        """Until one of ``find`` (or ``instead``) shows, or (unless ``login_ok``) the
        login form. Nothing in time: the LLM's pick for ``find``, offered since every
        wait serves a step that ends in its own check (the login taken, the list or the
        day read, the booking read by its number), else ``ProfileMismatch``."""
        waiting = self.finder.any_of(page, find)
        if instead is not None:
            waiting = waiting.or_(self.finder.any_of(page, instead[1]))
        if not login_ok:
            waiting = waiting.or_(self.login_form(page))
        try:
            await waiting.first.wait_for(timeout=self.timeout_ms)
        except PlaywrightTimeoutError:
            if not login_ok and await self.asks_login(page):
                raise Bounced() from None
            what = what or "того, чего ждёт профиль"
            if await self.finder.picked(page, find, path=path, what=what) is None:
                raise await self.finder.mismatch(page, find, path=path, what=what) from None

    async def shows_early(
        self,
        page: Page,
        wait: Find,
        target: Find,
        *,
        path: str,
        action_path: str | None = None,
        login_ok: bool = False,
        instead: tuple[str, Find] | None = None,
    ) -> bool:
        """Whether ``target`` shows once something of ``wait`` (or ``instead``) does,
        unsettled. Anything else showing (the login form, what showed gone as the page was
        drawn again) is not: the page is then settled and waited for as any other. The
        ``target`` (at ``action_path``, else at ``path``) is found as ``first`` finds it,
        and remembered: it looks no more."""
        await self._any_shows(page, wait, path=path, login_ok=login_ok, instead=instead)
        return await self.finder.showing(page, target, path=action_path or path)

    async def click_and_wait(
        self, page: Page, find: Find, *, path: str, what: str, login_ok: bool = False
    ) -> int:
        control = await self.finder.control(page, find, path=path, what=what)
        async with page.expect_navigation() as navigation:
            await control.click()
        return await self.landed(page, await navigation.value, login_ok=login_ok)

    async def act(
        self, page: Page, action: Action, values: Mapping[str, Any], *, path: str
    ) -> bool:
        """Do one action; False when it is optional and its value is empty (skipped)."""
        template = action.value
        text = template.render(values) if template is not None else ""
        if action.optional and template is not None and not text:
            return False
        # A press (a click, a tick) only of what the step names so (``Finder.control``).
        presses = action.check is not None or action.click
        element = await (self.finder.control if presses else self.finder.first)(
            page, action.find, path=f"{path}.find", what=_called(action)
        )
        if action.fill is not None:
            await element.fill(text)
        elif action.select is not None or action.select_label is not None:
            by = "value" if action.select is not None else "label"
            if not await _offers(element, by, text):
                # Playwright would wait for the option until its timeout, told as «the
                # site does not answer»: the form lacks it (a time it does not take).
                raise await self.finder.mismatch(
                    page, action.find, path=f"{path}.find",
                    what=f"варианта «{text}» {_called(action)}",
                )  # fmt: skip
            if action.select is not None:
                await element.select_option(value=text)
            else:
                await element.select_option(label=text)
        elif action.check is not None:
            await element.set_checked(action.check)
        else:
            await element.click()
        return True


_OFFERS = """(select, [by, wanted]) => !select.options || [...select.options].some((option) =>
  by === "value" ? option.value === wanted
    : option.label === wanted || option.textContent.trim() === wanted)"""


_OFFER_TRIES = 12  # 3 s


async def _offers(select: PwLocator, by: str, wanted: str) -> bool:
    """Whether a drop-down has an option of this value (or label), given a few seconds:
    a page's script may fill the list after another field changed (the ends after the
    start)."""
    for _ in range(_OFFER_TRIES):
        if await select.evaluate(_OFFERS, [by, wanted]):
            return True
        await asyncio.sleep(0.25)
    return False


# What an action's element is called in messages, by what is done to it (a link is not a
# field, a list to choose from is not a box to type in): «ссылки …», «кнопки …», «флажка
# …», «списка …», «поля …»; then by its words on the page, else by what goes into it (a
# CSS selector is the operator's, said in ``for_admins``).
_KINDS = {"link": "ссылки", "button": "кнопки", "checkbox": "флажка", "radio": "переключателя"}
_VALUES = {
    "purpose": "для названия брони",
    "date": "для даты",
    "start": "для времени начала",
    "end": "для времени окончания",
    "attendees": "для числа участников",
    "room": "для аудитории",
    "room_id": "для аудитории",
    "building": "для корпуса",
}


def _called(action: Action) -> str:
    way = action.find[0]
    if action.check is not None:
        kind = "флажка"
    elif action.click:
        kind = _KINDS.get(way.role or "", "элемента")
    elif action.select is not None or action.select_label is not None:
        kind = "списка"
    else:
        kind = "поля"
    if words := way.name or way.label or way.text:
        return f"{kind} «{words}»"
    value = action.value
    slots = [part[0] for part in value.parts if isinstance(part, tuple)] if value else []
    named = next((_VALUES[slot] for slot in slots if slot in _VALUES), None)
    return f"{kind} {named}" if named is not None else f"{kind} «{way.describe()}»"
