"""``Recorder``: watches an operator use a site in a browser and records, per step, what
they did (``recording.Action``), what the page sent the site (``SentRequest``) and how
the page looked at the end.

A fixed script of ours is put in every page of the context; it reports clicks and
changed fields through a binding, each element described so that Python can give it
several locator candidates (role and name, label, id or name, text, a short CSS path),
best first. Requests are recorded without headers (so without cookies), and with the
value of every field that holds a password or is named like a secret replaced by «***».

What was typed as a secret (into a password field, or a field named like one) is told
to the recorder apart from the field's value, kept in memory only (``Secrets``), and
masked by value in everything a step records: a page that copies the password into a
visible field, an address or a request's body shows «***» there too.
"""

from __future__ import annotations

import contextlib
import json
import re
from typing import Any, Literal, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import structlog
from playwright.async_api import BrowserContext, Dialog, Frame, Page, Request
from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel, ConfigDict, ValidationError

from adapters.profile.learn.pieces import page_pieces
from adapters.profile.learn.recording import (
    Action,
    FormField,
    SentForm,
    SentRequest,
    Step,
    StepName,
)
from adapters.profile.learn.secrets import Secrets
from adapters.profile.learn.selects import page_selects
from adapters.profile.learn.titles import page_titles
from adapters.profile.parts import Locator

__all__ = ["Recorder"]

_Model = TypeVar("_Model", bound=BaseModel)

log = structlog.get_logger("clubman.learn")

_BINDING = "__clubmanLearn"
# Names of fields (and query parameters) whose values are never recorded.
_SECRET_NAME = re.compile(r"pass|pwd|token|csrf|xsrf|secret|session|auth|key", re.IGNORECASE)
# Names of fields that hold a password whatever their type: their values are masked by value.
_PASSWORD_NAME = re.compile(r"pass|pwd|пароль", re.IGNORECASE)
_HIDDEN = "***"

_LISTEN = r"""
(() => {
  if (window.__clubmanLearnOn) return;
  window.__clubmanLearnOn = true;
  const clean = (s) => (s || "").replace(/\s+/g, " ").trim();
  const stable = (c) => !/\d{3,}|___|^css-|^sc-|^jsx-/.test(c);  // not a hashed name
  const role = (el) => {
    const t = el.tagName.toLowerCase(), ty = (el.getAttribute("type") || "").toLowerCase();
    if (el.getAttribute("role")) return el.getAttribute("role");
    if (t === "button") return "button";
    if (t === "a" && el.hasAttribute("href")) return "link";
    if (t === "select") return "combobox";
    if (t === "textarea") return "textbox";
    if (t !== "input") return "";
    if (["submit", "button", "reset", "image"].includes(ty)) return "button";
    if (ty === "checkbox" || ty === "radio") return ty;
    if (ty === "number") return "spinbutton";
    return ["", "text", "email", "search", "tel", "url", "password"].includes(ty) ? "textbox" : "";
  };
  const label = (el) => (el.labels && el.labels.length ? clean(el.labels[0].innerText) : "");
  const buttonValue = (el) =>
    el.tagName === "INPUT" && ["submit", "button"].includes(el.type) ? clean(el.value) : "";
  const field = (el) => ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName);
  const text = (el) => (field(el) ? "" : clean(el.innerText).slice(0, 80));
  const accname = (el) => clean(el.getAttribute("aria-label")) || label(el) || buttonValue(el)
    || text(el) || clean(el.getAttribute("title"));
  const path = (el) => {
    const parts = [];
    for (let e = el; e && e.nodeType === 1 && e !== document.body && parts.length < 4;
         e = e.parentElement) {
      // The attribute: a form's «.id» is its field named «id» where it has one (MRBS's).
      const id = e.getAttribute("id");
      if (id && stable(id)) { parts.unshift("#" + CSS.escape(id)); break; }
      let p = e.tagName.toLowerCase();
      const cls = Array.from(e.classList).filter(stable).slice(0, 2);
      if (cls.length) p += "." + cls.map((c) => CSS.escape(c)).join(".");
      const same = e.parentElement
        ? Array.from(e.parentElement.children).filter((x) => x.tagName === e.tagName) : [];
      if (same.length > 1) p += `:nth-of-type(${same.indexOf(e) + 1})`;
      parts.unshift(p);
    }
    return parts.join(" > ");
  };
  const describe = (el) => ({
    tag: el.tagName.toLowerCase(), type: (el.getAttribute("type") || "").toLowerCase(),
    id: el.id && stable(el.id) ? el.id : "", name: el.getAttribute("name") || "",
    role: role(el), accname: accname(el), label: label(el),
    text: text(el),
    css: path(el),
  });
  // A field's form by its id or name where it has one, else by its place in the page.
  const formOf = (el) => {
    const f = el.form;
    if (!f) return "";
    const id = f.getAttribute("id");
    if (id && stable(id)) return "form#" + CSS.escape(id);
    const name = f.getAttribute("name");
    return name ? `form[name=${JSON.stringify(name)}]` : path(f);
  };
  const report = (what) => { try { window.__clubmanLearn(what); } catch (e) {} };
  const typed = "input:not([type]), input[type=text], input[type=email], input[type=search],"
    + " input[type=tel], input[type=url], input[type=password], input[type=number],"
    + " input[type=date], input[type=time], input[type=datetime-local], textarea, select";
  const clickable = "button, a, input, [role=button], [role=link], [role=tab], [role=menuitem],"
    + " [role=option], [onclick], label, summary";
  document.addEventListener("click", (e) => {
    if (!(e.target instanceof Element)) return;
    const el = e.target.closest(clickable) || e.target;
    if (el.matches(typed)) return;  // its value is what counts: see «change»
    // The page's lines of text as the click finds them: what a change sent before it
    // brought to the page (a site answering in the page) is told by them.
    const lines = (document.body ? document.body.innerText : "").split("\n").map(clean)
      .filter(Boolean).slice(0, 500);
    report({ kind: el.matches("input[type=checkbox]") ? "check" : "click", el: describe(el),
             value: el.matches("input[type=checkbox]") ? String(el.checked) : null, lines });
  }, true);
  document.addEventListener("submit", (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement)) return;
    const fields = Array.from(form.elements)
      .filter((el) => el.name && el.matches("input, select, textarea")
        && !["submit", "button", "reset", "image"].includes(el.type)
        && !(["radio", "checkbox"].includes(el.type) && !el.checked))  // as a form sends
      .map((el) => ({ el: describe(el), control: el.tagName.toLowerCase(),
                      hidden: el.type === "hidden", secret: el.type === "password",
                      value: el.type === "password" ? null : el.value,
                      typed_secret: el.type === "password" ? el.value : null }));
    report({ kind: "submit", el: describe(form), fields });
  }, true);
  document.addEventListener("change", (e) => {
    const el = e.target;
    if (!(el instanceof Element) || !el.matches(typed)) return;
    const secret = el.matches("input[type=password]");
    const select = el.tagName === "SELECT";
    const option = select ? el.selectedOptions[0] : null;
    const chosen = option ? clean(option.textContent) : null;
    report({ kind: select ? "select" : "fill", el: describe(el), secret,
             value: secret ? null : el.value, option: chosen, form: formOf(el),
             typed_secret: secret ? el.value : null });
  }, true);
})();
"""


class _Element(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    tag: str = ""
    type: str = ""
    id: str = ""
    name: str = ""
    role: str = ""
    accname: str = ""
    label: str = ""
    text: str = ""
    css: str = ""


class _Field(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    el: _Element
    control: Literal["input", "select", "textarea"]
    hidden: bool = False
    secret: bool = False
    value: str | None = None
    typed_secret: str | None = None  # a password field's value: to mask, never recorded


class _Reported(BaseModel):
    model_config = ConfigDict(extra="ignore", frozen=True)

    kind: str
    el: _Element
    value: str | None = None
    option: str | None = None
    secret: bool = False
    typed_secret: str | None = None  # a password field's value: to mask, never recorded
    fields: tuple[_Field, ...] = ()
    lines: tuple[str, ...] = ()
    form: str = ""  # a field's form, as CSS


_ROLES_BY_NAME = {"button", "link", "checkbox", "radio", "tab", "menuitem", "option", "textbox",
                  "combobox", "spinbutton"}  # fmt: skip


def candidates(el: _Element) -> tuple[Locator, ...]:
    """Locator candidates for a described element, the sturdiest first."""
    found: list[Locator] = []
    if el.role in _ROLES_BY_NAME and el.accname:
        found.append(Locator(role=el.role, name=el.accname))
    if el.label:
        found.append(Locator(label=el.label))
    if el.id:
        found.append(Locator(css=f"#{_css_ident(el.id)}"))
    elif el.name:
        found.append(Locator(css=f"{el.tag}[name={json.dumps(el.name)}]"))
    by_role = bool(found) and found[0].role is not None
    # The text, unless the role's name says it (an element with no role: by its text).
    if (
        el.text
        and el.tag not in ("input", "select", "textarea")
        and (el.text != el.accname or not by_role)
    ):
        found.append(Locator(text=el.text))
    if el.css and all(c.css != el.css for c in found):
        found.append(Locator(css=el.css))
    return tuple(found)


def _sent(field: _Field) -> FormField:
    secret = field.secret or bool(_SECRET_NAME.search(field.el.name))
    return FormField(
        name=field.el.name,
        control=field.control,
        field_type=field.el.type,
        hidden=field.hidden,
        candidates=candidates(field.el),
        value=None if secret else field.value,
    )


def _css_ident(text: str) -> str:
    return re.sub(r"([^\w-])", r"\\\1", text)


def _without_secrets(url: str) -> str:
    parts = urlsplit(url)
    # A blank value is kept: «/my?q=» (an empty search) is not the page «/my».
    pairs = parse_qsl(parts.query, keep_blank_values=True)
    query = [(k, _HIDDEN if _SECRET_NAME.search(k) else v) for k, v in pairs]
    return urlunsplit(parts._replace(query=urlencode(query, safe="/:{}"), fragment=""))


class Recorder:
    """Records one context's pages, step by step (``begin``, then ``end``)."""

    def __init__(self, context: BrowserContext) -> None:
        self._context = context
        self._actions: list[Action] = []
        self._requests: list[SentRequest] = []
        self._secret_fields: set[str] = set()  # names of password fields seen
        self._secrets = Secrets()  # what was typed into them: masked wherever it shows
        self._dialogs: list[str] = []
        self._forms: list[SentForm] = []
        self._lines: tuple[str, ...] = ()  # the page's text at the last click
        self._answered = False  # a change was sent since the last click
        self._last_page: Page | None = None  # where the operator last clicked or went

    async def attach(self) -> None:
        await self._context.expose_binding(_BINDING, self._reported)
        await self._context.add_init_script(_LISTEN)
        self._context.on("request", self._sent)
        self._context.on("page", self._watch)
        for page in self._context.pages:
            self._watch(page)
            # A page mid-navigation gets it from the init script.
            with contextlib.suppress(PlaywrightError):
                await page.evaluate(_LISTEN)

    def _watch(self, page: Page) -> None:
        page.on("framenavigated", self._navigated)
        # Listening keeps a dialog open for the operator (unheard, Playwright dismisses it).
        page.on("dialog", self._dialog)

    def _navigated(self, frame: Frame) -> None:
        if frame.parent_frame is None and frame.url.startswith("http"):
            self._last_page = frame.page
            self._actions.append(Action(kind="navigate", url=_without_secrets(frame.url)))

    def _dialog(self, dialog: Dialog) -> None:
        self._dialogs.append(dialog.type)

    def _reported(self, source: dict[str, Any], payload: object) -> None:
        try:
            event = _Reported.model_validate(payload)
        except ValidationError:
            log.warning("learn.unreadable_event")
            return
        if event.secret and event.el.name:
            self._secret_fields.add(event.el.name)
        self._keep_secrets(event)
        page = source.get("page")
        url = _without_secrets(page.url) if isinstance(page, Page) else ""
        if isinstance(page, Page):
            self._last_page = page
        if event.kind == "submit":
            self._forms.append(SentForm(url=url, fields=tuple(_sent(f) for f in event.fields)))
            return
        secret = event.secret or bool(_SECRET_NAME.search(event.el.name))
        kind = event.kind if event.kind in ("click", "fill", "select", "check") else "click"
        shown: tuple[str, ...] = ()
        if event.lines:
            if self._answered:  # what the change brought: lines new since the last click
                had = set(self._lines)
                shown = tuple(line for line in event.lines if line not in had)
            self._lines, self._answered = event.lines, False
        self._actions.append(
            Action(
                kind=kind,
                url=url,
                candidates=candidates(event.el),
                value=None if secret else (event.option if kind == "select" else event.value),
                secret=secret,
                field_type=event.el.type or event.el.tag,
                shown=shown,
                form=event.form,
            )
        )
        if kind == "select" and event.value not in (None, event.option) and not secret:
            self._actions.append(  # the option's value too: a profile may choose by it
                Action(
                    kind="select",
                    url=url,
                    candidates=candidates(event.el),
                    value=event.value,
                    field_type="value",
                )  # fmt: skip
            )

    def _keep_secrets(self, event: _Reported) -> None:
        """What ``event`` typed as a password: a password field's value, or a text
        field's named as one. A value typed into a field named like another secret
        («keyword», «auth_code») is hidden there by its name but not masked everywhere:
        «201» typed into a search box would otherwise hide every room 201 in the step."""
        self._secrets.add(event.typed_secret)
        if event.kind == "fill" and _PASSWORD_NAME.search(event.el.name):
            self._secrets.add(event.value)
        for field in event.fields:
            self._secrets.add(field.typed_secret)
            if not field.hidden and _PASSWORD_NAME.search(field.el.name):
                self._secrets.add(field.value)

    def masked(self, model: _Model) -> _Model:
        """``model`` (a step, a recording) with every secret typed so far masked."""
        return self._secrets.masked(model)

    def _sent(self, request: Request) -> None:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return
        if request.resource_type not in ("document", "xhr", "fetch"):
            return
        form: dict[str, str] = {}
        keys: tuple[str, ...] = ()
        body = request.post_data or ""
        kind = (request.headers.get("content-type") or "").split(";")[0].strip()
        if kind == "application/json":
            try:
                parsed = json.loads(body)
            except ValueError:
                parsed = None
            keys = tuple(parsed) if isinstance(parsed, dict) else ()
        elif body:
            for key, value in parse_qsl(body, keep_blank_values=True):
                hidden = key in self._secret_fields or _SECRET_NAME.search(key)
                form[key] = _HIDDEN if hidden else value
        self._answered = True
        self._requests.append(
            SentRequest(
                method=request.method,
                url=_without_secrets(request.url),
                form=form,
                json_keys=keys,
                after=len(self._actions),
                navigation=request.is_navigation_request(),
            )  # fmt: skip
        )

    def begin(self) -> None:
        """Start a step: what was recorded before it is dropped."""
        self._actions.clear()
        self._requests.clear()
        self._dialogs.clear()
        self._forms.clear()
        self._lines, self._answered = (), False

    @property
    def dialogs(self) -> tuple[str, ...]:
        """The browser's own dialogs (``confirm``, ``alert``) seen in this step."""
        return tuple(self._dialogs)

    @property
    def last_page(self) -> Page | None:
        """The open page the operator last clicked, typed or navigated in: with several
        windows, the one they work in."""
        page = self._last_page
        return page if page is not None and not page.is_closed() else None

    @property
    def actions(self) -> tuple[Action, ...]:
        return tuple(self._actions)

    @property
    def sent(self) -> tuple[SentRequest, ...]:
        return tuple(self._requests)

    async def end(self, name: StepName, page: Page, answers: dict[str, str]) -> Step:
        """The step as recorded, with the page's accessibility snapshot at its end."""
        try:
            snapshot = await page.locator("body").aria_snapshot(timeout=5000)
        except PlaywrightError:
            snapshot = ""
        step = Step(
            name=name,
            actions=tuple(self._actions),
            requests=tuple(self._requests),
            forms=tuple(self._forms),
            dialogs=tuple(self._dialogs),
            answers=answers,
            snapshot=snapshot,
            url=_without_secrets(page.url),
            pieces=await page_pieces(page) if name in ("book", "opened", "cancel", "day") else (),
            # What a profile reads of the day's page from its DOM: the building's
            # drop-down (hidden under a widget, maybe) and the grid's titles.
            selects=await page_selects(page) if name == "day" else (),
            titles=await page_titles(page) if name == "day" else (),
        )
        return self.masked(step)
