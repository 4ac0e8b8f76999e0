"""Where a plain GET form sends the browser, read from the page's HTML, so the adapter can
fetch a search's result page over HTTP instead of driving Chromium through the form.

Locators are followed as Playwright follows them, each to exactly one element, and the form
is serialized by the HTML entry-list rules, urlencoded as Chromium does. Whatever is not
followed exactly gives None and the caller uses the page; what its scripts or style sheets
do is not seen here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from urllib.parse import quote_plus, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

from adapters.profile.parts import Locator

__all__ = ["submitted_address"]

# fmt: off
# JavaScript's \s, which Playwright's text matching collapses (Python's differs).
_JS = "\t\n\v\f\r \xa0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(
    map(chr, range(0x2000, 0x200B)))
_TYPED = frozenset({"text", "search", "email", "tel", "url", "number"})  # the fields it fills
_BUTTONS = frozenset({"submit", "reset", "button"})
_LISTED = frozenset({"button", "fieldset", "input", "object", "output", "select", "textarea"})
_LABELABLE = _LISTED - {"fieldset", "object"} | {"meter", "progress"}
_PHRASING = frozenset({
    "b", "i", "em", "strong", "span", "small", "u", "s", "mark", "sub", "sup", "abbr", "code",
    "kbd",
})
# What changes an element's part in its button's name, or hides it.
_NAMING = frozenset({
    "hidden", "style", "title", "role", "aria-hidden", "aria-label", "aria-labelledby",
})
# Validation, other windows or owners: rules this reader does not follow.
_RISKY = frozenset({
    "pattern", "min", "max", "step", "minlength", "dirname", "wrap", "formtarget", "form", "target",
})
# fmt: on
_CHARSET = re.compile(r"charset\s*=\s*[\"']?\s*([^\s\"';>]*)", re.I)  # meta, accept-charset
_ACTION = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,=:@/?#]*")  # no escape, space, \ or ;


class _Unfollowed(ValueError):
    """Something this reader cannot follow exactly."""


def _matches(text: str, wanted: str, exact: bool, *, upper: bool = False) -> bool:
    """Playwright's text match: whitespace normalized, whole or a substring in any case."""
    text, wanted = (re.sub(f"[{_JS}]+", " ", re.sub("[\u200b\xad]", "", t)) for t in (text, wanted))
    text, wanted = text.strip(" "), wanted.strip(" ")
    if exact:
        return text == wanted
    return wanted.upper() in text.upper() if upper else wanted.lower() in text.lower()


def _ancestors(node: LexborNode | None) -> Iterator[LexborNode]:
    while node is not None and node.is_element_node:
        yield node
        node = node.parent


def _owner(node: LexborNode) -> int | None:
    return next((a.mem_id for a in _ancestors(node.parent) if a.tag == "form"), None)


def _kind(node: LexborNode) -> str:
    """An input's type (an unknown one kept, to be refused), a button's, else the tag."""
    kind = (node.attributes.get("type") or "").lower()
    if node.tag == "button":
        return kind if kind in ("reset", "button") else "submit"
    return (kind or "text") if node.tag == "input" else node.tag or ""


def _value(node: LexborNode, default: str = "") -> str:
    return (node.attributes.get("value") or "") if "value" in node.attributes else default


def _unreachable(node: LexborNode) -> bool:
    """Perhaps hidden, inert or disabled to Playwright, which would not act on it."""
    for at in _ancestors(node):
        attrs, style = at.attributes, (at.attributes.get("style") or "").replace(" ", "").lower()
        flags = {(attrs.get(k) or "").lower() for k in ("aria-hidden", "aria-disabled")}
        if {"true", "hidden", "inert"} & (flags | attrs.keys()) or "display:none" in style:
            return True
    return False


def _text(node: LexborNode, *, plain: bool = False) -> str | None:
    """Playwright's ``elementText``, the text a label is matched by; ``plain``: a button's
    name from its content, None when that holds more than text and plain phrasing."""
    if node.tag in ("script", "noscript", "style"):
        return ""
    if node.tag == "input" and _kind(node) in _BUTTONS:
        return _value(node)
    parts: list[str | None] = []
    for child in node.iter(include_text=True):
        if child.is_text_node or (plain and child.tag == "br"):
            parts.append(child.text_content or "" if child.is_text_node else " ")
        elif child.is_element_node:
            bare = not plain or (child.tag in _PHRASING and not _NAMING & child.attributes.keys())
            parts.append(_text(child, plain=plain) if bare else None)
    return None if None in parts else "".join(p or "" for p in parts)


def _button(node: LexborNode, labelled: bool, way: Locator) -> bool | None:
    """Whether ``get_by_role("button", name=…)`` finds ``node``; None: it may, this reader
    cannot name it."""
    attrs, kind = node.attributes, _kind(node)
    roles = [r for r in (r.strip(_JS) for r in (attrs.get("role") or "").lower().split(" ")) if r]
    native = node.tag == "button" or (node.tag == "input" and kind in _BUTTONS | {"image", "file"})
    if not native and "button" not in roles:
        return False
    if roles[:1] not in ([], ["button"]) or "aria-labelledby" in attrs:
        return None  # another role may be its own; a name from elsewhere
    plain = native or node.tag in _PHRASING | {"a", "div", "p", "li", "td"}
    if not (name := attrs.get("aria-label") or "").strip(_JS):
        if labelled or not plain:
            return None  # named by its label, or by content this reader does not follow
        if node.tag == "input":
            given = [attrs.get("alt"), attrs.get("title")] if kind == "image" else [_value(node)]
            given = [t for t in given if kind != "file" and t and t.strip(_JS)]
            stock = {"submit": "Submit", "reset": "Reset", "image": "Submit", "file": "Choose File"}
            name = (given or [stock.get(kind, attrs.get("title") or "")])[0]
        elif (text := _text(node, plain=True)) is None:
            return None
        else:
            name = text if text.strip(_JS) else attrs.get("title") or ""
    return way.name is None or _matches(name, way.name, way.exact, upper=True)


def _labelable(node: LexborNode) -> bool:
    return node.tag in _LABELABLE and not (node.tag == "input" and _kind(node) == "hidden")


def _kept(node: LexborNode, kind: str, value: str, typed: bool) -> str:
    """The value a text field holds when given ``value`` (typed, or as the page set it),
    unfollowed unless it surely passes validation and is sent as it is."""
    attrs, units = node.attributes, len(value.encode("utf-16-le")) // 2
    kept = value if kind == "textarea" else value.replace("\r", "").replace("\n", "")
    bound = (attrs.get("maxlength") or "") if typed and "maxlength" in attrs else str(units)
    if (
        not re.fullmatch("[0-9]+", bound)
        or int(bound) < units
        or (typed and ("\r" in value or kept != value))
    ):
        raise _Unfollowed  # typing would not leave this value
    fraction = kind == "number" and not re.fullmatch("-?[0-9]+", kept)
    if kept and (fraction or kind in ("email", "url")):
        raise _Unfollowed  # Chromium may rewrite it, or validation stop it (a number's step)
    if "required" in attrs and not kept and "readonly" not in attrs:
        raise _Unfollowed  # validation would stop the form
    return kept


def _chosen(select: LexborNode, value: str | None) -> list[str]:
    """What a select sends: the option ``select_option(value)`` picks (by value or label,
    as Playwright does), else the one selected as the page was parsed."""
    if {"multiple", "size"} & select.attributes.keys():
        raise _Unfollowed  # a list box may have none selected, or several
    options = []  # each option's label (its text), value, whether disabled, and selected
    for option in (o for o in select.traverse() if o.tag == "option"):
        text = re.sub("[\t\n\f\r ]+", " ", option.text(deep=True)).strip(" ")
        if {"label", "aria-disabled"} & option.attributes.keys():
            raise _Unfollowed
        group = next(_ancestors(option.parent), option)
        off = "disabled" in option.attributes or (
            group.tag == "optgroup" and "disabled" in group.attributes
        )
        options.append((text, _value(option, text), off, "selected" in option.attributes))
    if value is not None:
        chosen = [o for o in options if value == o[1] or _matches(o[0], value, True)][:1]
        if not chosen or chosen[0][2]:
            raise _Unfollowed
    else:  # the last marked selected, else the first that may be
        chosen = [o for o in options if o[3]][-1:] or [o for o in options if not o[2]][:1]
    if "required" in select.attributes and not any(o[1] for o in chosen):
        raise _Unfollowed
    return [o[1] for o in chosen if not o[2]]


def _entries(form: list[LexborNode], submitter: LexborNode, filled: dict[int, str]) -> list[str]:
    """The HTML entry list of a form (it, then its controls): a name and a value each."""
    entries: list[str] = []
    radios: set[str] = set()
    for node in form:
        attrs, kind, name = node.attributes, _kind(node), node.attributes.get("name") or ""
        if _RISKY & attrs.keys() or any(key.startswith("on") for key in attrs):
            raise _Unfollowed  # a handler may change it all
        if kind == "radio" and "checked" in attrs and name in radios:
            raise _Unfollowed  # two checked in a group: the parser leaves the last
        radios |= {name} if kind == "radio" and "checked" in attrs and name else set()
        if kind in ("form", "fieldset", "output") or "disabled" in attrs:
            continue
        if kind in _BUTTONS:
            if name and node.tag == "input" and "value" not in attrs:
                raise _Unfollowed  # Chromium sends its label, in the browser's language
            values = [_value(node)] if node.mem_id == submitter.mem_id else []
        elif kind == "select":
            values = _chosen(node, filled.get(node.mem_id))
        elif kind in ("checkbox", "radio"):
            if "required" in attrs and (kind == "radio" or "checked" not in attrs):
                raise _Unfollowed
            values = [_value(node, "on")] if "checked" in attrs else []
        elif kind == "hidden" and name.lower() != "_charset_":
            values = [_value(node)]
        elif kind in _TYPED | {"password", "textarea"}:
            given = node.text(deep=True) if kind == "textarea" else _value(node)
            typed = filled.get(node.mem_id)
            values = [_kept(node, kind, given, False) if typed is None else typed]
        else:
            raise _Unfollowed  # file, image, date, color, _charset_…: values of their own
        entries.extend(t for value in values if name for t in (name, value))
    return entries


def _address(page_url: str, action: str, query: str) -> str:
    """The action against the page's address (none is that address; a blank one, that
    without its fragment), its query replaced by the form's."""
    target = action.strip("\t\n\f\r ")
    if not _ACTION.fullmatch(target):
        raise _Unfollowed  # escapes, spaces, \ or ; Chromium may rewrite
    target = urljoin(page_url, target) if target else page_url.split("#")[0] if action else page_url
    parts = urlsplit(target)
    port = {"http": ":80", "https": ":443"}.get(parts.scheme, "")
    host = re.fullmatch(r"[a-z0-9.-]+(:[1-9][0-9]*)?", parts.netloc)
    if not host or parts.netloc.endswith(port) or {".", ".."} & set(parts.path.split("/")):
        raise _Unfollowed  # a scheme, host, port or path Chromium writes otherwise
    address = f"{parts.scheme}://{parts.netloc}{parts.path or '/'}?{query}"
    if "#" in target and address == page_url.split("#")[0]:
        raise _Unfollowed  # a move within the page: nothing is fetched
    return address


class _Page:
    """The page as a browser running scripts has it (``<noscript>`` holds text only): its
    elements in tree order, ids, and the labels of each labelled control."""

    def __init__(self, html: str) -> None:
        self.html, self.tree = html, LexborHTMLParser(html)
        hush = self.tree.css("noscript")
        unseen = {d.mem_id for n in hush for d in n.traverse()} - {n.mem_id for n in hush}
        every = self.tree.root.traverse() if self.tree.root is not None else ()
        self.nodes = [n for n in every if n.is_element_node and n.mem_id not in unseen]
        # The first element with an id is the one it names.
        self.ids = {n.attributes["id"]: n for n in reversed(self.nodes) if n.attributes.get("id")}
        self.labels: dict[int, list[LexborNode]] = {}
        for label in (n for n in self.nodes if n.tag == "label"):
            inside = (d for d in label.traverse() if d.mem_id not in unseen and _labelable(d))
            at = label.attributes
            control = self.ids.get(at["for"] or "") if "for" in at else next(inside, None)
            if control is not None and _labelable(control):
                self.labels.setdefault(control.mem_id, []).append(label)

    def find(self, way: Locator, *, field: bool) -> LexborNode:
        """The one element ``way`` finds, as Playwright finds it: a field by ``label`` or
        ``css``, a submit control by ``role: button`` or ``css``."""
        if way.css is not None:
            found = self.css(way.css)
        elif field and (label := way.label) is not None:
            texts = ((n, self.texts(n)) for n in self.nodes)
            found = [n for n, t in texts if any(_matches(x, label, way.exact) for x in t)]
        elif not field and way.role == "button":
            matched = [(n, _button(n, n.mem_id in self.labels, way)) for n in self.nodes]
            if any(m is None for _, m in matched):
                raise _Unfollowed  # a button this reader cannot name may be the one
            found = [n for n, m in matched if m]
        else:
            raise _Unfollowed
        if len(found) != 1 or _unreachable(found[0]):
            raise _Unfollowed
        return found[0]

    def css(self, css: str) -> list[LexborNode]:
        bare = re.sub(r"\[[^\]]*\]", "", re.sub(r"\"[^\"]*\"|'[^']*'", "", css))
        engine = "=" in css and re.fullmatch(r"[\w+:*-]+", css.split("=", 1)[0].strip())
        if engine or ":" in bare or ">>" in css or css.lstrip().startswith(("//", "..", '"', "'")):
            raise _Unfollowed  # Playwright's own syntax, or a state lexbor does not match
        try:
            matched = {node.mem_id for node in self.tree.css(css)}
        except SelectolaxError as exc:
            raise _Unfollowed from exc
        return [n for n in self.nodes if n.mem_id in matched]

    def texts(self, node: LexborNode) -> list[str]:
        """Playwright's ``getElementLabels``: the texts ``get_by_label`` matches."""
        ids = re.split("[ \t\n\f\r]+", node.attributes.get("aria-labelledby") or "")
        if refs := [self.ids[i] for i in ids if i in self.ids]:
            return [_text(ref) or "" for ref in refs]
        if (label := node.attributes.get("aria-label")) is not None and label.strip(_JS):
            return [label]
        return [_text(label) or "" for label in self.labels.get(node.mem_id, [])]

    def form(self, fields: Sequence[tuple[Locator, str]], submit: Locator) -> tuple[str, list[str]]:
        """The submit control's action, and its form's entries once the fields are filled."""
        for n in self.nodes:  # controls the parser or form= may tie to a form not theirs
            tied = "form" in n.attributes or (n.attributes.get("name") and _owner(n) is None)
            if n.tag == "base" or "shadowrootmode" in n.attributes or (n.tag in _LISTED and tied):
                raise _Unfollowed
        filled: dict[int, str] = {}
        for way, value in fields:
            node = self.find(way, field=True)
            kind, fixed = _kind(node), {"disabled", "readonly", "aria-readonly"}
            if kind not in _TYPED | {"textarea", "select"} or fixed & node.attributes.keys():
                raise _Unfollowed
            filled[node.mem_id] = value if kind == "select" else _kept(node, kind, value, True)
        submitter = self.find(submit, field=False)
        form = next((n for n in self.nodes if n.mem_id == _owner(submitter)), None)
        if form is None or _kind(submitter) != "submit" or _owner(form) is not None:
            raise _Unfollowed
        own, sub = form.attributes, submitter.attributes
        members = [n for n in self.nodes if n.tag in _LISTED and _owner(n) == form.mem_id]
        method = sub.get("formmethod") if "formmethod" in sub else own.get("method")
        around = [d for d in (*form.traverse(), *_ancestors(form)) if d.is_element_node]
        odd = [d for d in around if d.tag in ("noscript", "datalist") or "-" in (d.tag or "")]
        odd += [d for d in around if d.tag == "fieldset" and "disabled" in d.attributes]
        if odd or {"commandfor", "popovertarget", "disabled"} & sub.keys():
            raise _Unfollowed  # scripts' elements; a disabled fieldset (its legend is not)
        if (method or "get").lower() != "get" or not filled.keys() <= {n.mem_id for n in members}:
            raise _Unfollowed
        action = sub.get("formaction") if "formaction" in sub else own.get("action")
        return action or "", _entries([form, *members], submitter, filled)


def submitted_address(
    html: str,
    page_url: str,
    fields: Sequence[tuple[Locator, str]],
    submit: Locator,
    *,
    encoding: str = "utf-8",
) -> str | None:
    """The address the browser goes to when, on the page at ``page_url`` whose HTML is
    ``html``, each field found by its locator is given its value (typed into a text field,
    or the option with that value chosen in a select) and ``submit`` is pressed; None when
    that is not one GET form this reader can follow. ``encoding``: the page's (the
    browser's ``document.characterSet``), in which a form sends non-ASCII text."""
    try:
        action, entries = _Page(html).form(fields, submit)
        charsets = {c.lower() for c in (encoding, *_CHARSET.findall(html))}
        if not "".join(entries).isascii() and charsets - {"utf-8", "utf8"}:
            return None  # sent in the page's encoding, which may not be UTF-8
        sent = [quote_plus(re.sub("\r\n?|\n", "\r\n", t), safe="*") for t in entries]
        query = "&".join(map("=".join, zip(sent[::2], sent[1::2], strict=True)))
        return _address(page_url, action, query.replace("~", "%7E"))
    except (_Unfollowed, UnicodeError):  # UnicodeError: a lone surrogate
        return None
