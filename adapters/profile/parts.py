"""The small parts a site profile is built of: how to find an element (``Find``), how to
read a value out of one (``Pick``), what to do on a page (``Action``), and templates.

A ``Find`` is a list of locator candidates tried in order, each one of: an ARIA role
and name, a form label, a visible text, a CSS selector or an XPath. Only the first
candidate that matches something is used, so a profile can name a site's accessible
name first and fall back to its CSS. ``Picks`` and ``Conds`` are alternatives the same
way: one written alone, or a list whose first that reads is used
(``adapters.profile.choosing``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    PlainSerializer,
    WithJsonSchema,
    model_validator,
)

from adapters.profile.errors import TemplateError
from adapters.profile.origin import site_address
from adapters.profile.patterns import check
from adapters.profile.template import DATE_FORMATS, FILTERS, TIME_FORMATS, Template

__all__ = [
    "Action",
    "Cond",
    "Conds",
    "Find",
    "Locator",
    "Part",
    "PathTemplate",
    "Pick",
    "Picks",
    "Regex",
    "TemplateText",
    "sought",
]


class Part(BaseModel):
    """A piece of a profile: unknown keys are errors (a typo never passes silently)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


def _template(value: Any) -> Template:
    if isinstance(value, Template):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, str):
        raise ValueError("a template must be text")
    try:
        return Template.parse(value)
    except TemplateError as exc:  # pydantic takes a ValueError: the loader adds the line
        raise ValueError(exc.message) from exc


TemplateText = Annotated[
    Template,
    BeforeValidator(_template),
    PlainSerializer(str, return_type=str),
    WithJsonSchema(
        {
            "type": "string",
            "description": "Text with {name} or {name|format} slots; formats: "
            + ", ".join(FILTERS),
        }
    ),
]


def _on_site(template: Template) -> Template:
    site_address(str(template))
    return template


# An address on the site, from one «/»: «http://elsewhere/…» would be joined as itself.
PathTemplate = Annotated[TemplateText, AfterValidator(_on_site)]

# Run only through ``adapters.profile.patterns`` (a time limit on every search).
Regex = Annotated[str, BeforeValidator(check)]


def _several(value: Any) -> Any:
    return (value,) if isinstance(value, str) else value


class Locator(Part):
    """One way to find an element; exactly one of role, label, text, css, xpath."""

    role: str | None = None
    name: str | None = None  # the accessible name, with ``role``
    label: str | None = None  # a form field's label
    text: str | None = None  # visible text
    css: str | None = None
    xpath: str | None = None
    exact: bool = True  # name/label/text match whole (else: contains, any case)

    @model_validator(mode="after")
    def _one_way(self) -> Locator:
        ways = [w for w in ("role", "label", "text", "css", "xpath") if getattr(self, w)]
        if len(ways) != 1:
            raise ValueError(
                "a locator takes exactly one of role, label, text, css, xpath"
                + (f" (here: {', '.join(ways)})" if ways else "")
            )
        if self.name is not None and self.role is None:
            raise ValueError("«name» goes with «role»")
        return self

    def describe(self) -> str:
        if self.role:
            return f"role={self.role}" + (f" name=«{self.name}»" if self.name else "")
        for way in ("label", "text", "css", "xpath"):
            if value := getattr(self, way):
                return f"{way}=«{value}»"
        return "?"


Find = Annotated[tuple[Locator, ...], Field(min_length=1)]

_FORMATS = Literal[
    "text",
    "int",
    "iso",
    "dmy",
    "dmy_slash",
    "mdy",
    "long",
    "hhmm",
    "h12",
    "h12_short",
    "seconds",
    "minutes",
    "span",
]
assert set(DATE_FORMATS) | set(TIME_FORMATS) <= set(_FORMATS.__args__)  # type: ignore[attr-defined]


class Pick(Part):
    """How one value is read from an item (a table row, a grid cell, a detail page).

    Where: ``column`` (a table column by its header), ``term`` (a «term: value» pair on a
    detail page), ``css`` (an element inside the item, or several tried in order;
    ``@attr`` reads an attribute: ``a@href``, ``@data-room``). Then ``regex`` keeps its
    first group (or the whole match), and ``format`` says how the text is written:
    ``text``, ``int``, a date or time format, or ``span`` (two times, «18:00–19:30»).
    ``without`` (CSS) reads the text with the elements it matches left out (a room's
    header «101<span class=capacity>30</span>» reads «101» ``without: span.capacity``);
    with a ``column``, ``css`` is an element inside the column's cell."""

    column: str | None = None
    term: str | None = None
    css: Annotated[
        tuple[str, ...],
        BeforeValidator(_several),
        WithJsonSchema(
            {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
        ),
    ] = ()  # the first with a value
    # Grids: the cell (or a room's header cell), its row, its time header, or the first of
    # a room's cells that has the value (``cells``: a room id only free slots carry).
    # Lists: ``group``, the last element matching ``css`` before the item (a day's
    # heading over its cards); ``address``, the page's address after the item (or its
    # ``css`` element) is clicked, brought back after (a number shown only there).
    of: Literal["item", "line", "header", "cells", "group", "address"] = "item"
    regex: Regex | None = None
    format: _FORMATS = "text"
    # The text without what these elements show (glued to the value: a capacity, a unit).
    without: str | None = None

    @model_validator(mode="after")
    def _one_place(self) -> Pick:
        places = [p for p in ("column", "term") if getattr(self, p)]
        if len(places) > 1:
            raise ValueError("a pick takes at most one of column, term")
        if self.without is not None and (
            self.term is not None or self.of in ("group", "address")
            or any("@" in css for css in self.css)
        ):  # fmt: skip
            raise ValueError(
                "«without» leaves elements out of a text read from the page: not with "
                "«term», «of: group», «of: address» or an attribute («css: a@href»)"
            )
        if self.of == "group" and not self.css:
            raise ValueError("«of: group» needs the heading's «css»")
        if self.of == "address" and (places or self.regex is None):
            raise ValueError("«of: address» needs a «regex» for the part of the address")
        return self

    def describe(self) -> str:
        """Where it reads, as an error names it: «column=«Время начала»»."""
        where = [f"{way}=«{value}»" for way in ("column", "term") if (value := getattr(self, way))]
        where += [f"css=«{css}»" for css in self.css]
        if self.of != "item":
            where.append(f"of={self.of}")
        return " ".join(where) or "the item's text"

    def called(self) -> str:
        """The words the site shows for it, as a person is told: «колонка «Время начала»»."""
        if self.column is not None:
            return f"колонка «{self.column}»"
        return f"надпись «{self.term}»" if self.term is not None else ""


def sought(picks: Sequence[Pick] | None) -> tuple[str, str]:
    """A value's alternatives as an error names them: what was tried (for the operator)
    and, where the site's words name it, « (колонка «Начало»)» (for anyone)."""
    picks = picks or ()
    called = " или ".join(c for pick in picks if (c := pick.called()))
    return " | ".join(pick.describe() for pick in picks), f" ({called})" if called else ""


class Cond(Part):
    """A test on an item: it has an element (``has``, CSS) or its text (with its
    ``title``) contains ``text`` (any case)."""

    has: str | None = None
    text: str | None = None

    @model_validator(mode="after")
    def _something(self) -> Cond:
        if self.has is None and self.text is None:
            raise ValueError("a condition needs «has» or «text»")
        return self


def _alternatives(value: Any) -> Any:
    return value if isinstance(value, list | tuple) else (value,)


def _some(value: tuple[Any, ...]) -> tuple[Any, ...]:
    if not value:
        raise ValueError("a list of alternatives needs one at least")
    return value


# One pick written alone, or a list of alternatives: the first that reads is used, and a
# later one that did is promoted first when its step passes (as a ``Find``'s candidate).
Picks = Annotated[
    tuple[Pick, ...],
    BeforeValidator(
        _alternatives, json_schema_input_type=Pick | Annotated[list[Pick], Field(min_length=1)]
    ),
    AfterValidator(_some),
]
Conds = Annotated[
    tuple[Cond, ...],
    BeforeValidator(
        _alternatives, json_schema_input_type=Cond | Annotated[list[Cond], Field(min_length=1)]
    ),
    AfterValidator(_some),
]


class Action(Part):
    """One thing done to an element: fill it, choose an option (by value or by visible
    label), tick it, or click it. ``optional``: skipped when the value is empty."""

    find: Find
    fill: TemplateText | None = None
    select: TemplateText | None = None
    select_label: TemplateText | None = None
    check: bool | None = None
    click: bool = False
    optional: bool = False

    @model_validator(mode="after")
    def _one_thing(self) -> Action:
        things = [
            t for t in ("fill", "select", "select_label", "check") if getattr(self, t) is not None
        ] + (["click"] if self.click else [])
        if len(things) != 1:
            raise ValueError(
                "an action does exactly one of fill, select, select_label, check, click"
            )
        return self

    @property
    def value(self) -> Template | None:
        return self.fill or self.select or self.select_label
