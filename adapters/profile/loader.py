"""Loading a site profile: YAML → ``SiteProfile``, every mistake reported with its line.

YAML errors, unknown keys, missing parts, bad regular expressions, unknown formats and
templates naming a variable their step does not have are all ``ProfileInvalid``s naming
the file and the line, before anything runs.

A profile is data from whoever wrote it, so it is read within limits (``LIMITS``): its
size, how deep its parts nest, how many aliases (``*name``) it uses and how many parts
it has once every alias is written out. Past one, it is refused at the line where the
limit was passed, before any of it is built: a billion-laughs bomb (nine aliases of nine
aliases ...) is a few hundred bytes that PyYAML's expansion turns into 10⁹ parts, and
100 000 nested lists end PyYAML's composer in a ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from pydantic import BaseModel, ValidationError

from adapters.profile.errors import ProfileInvalid
from adapters.profile.model import SiteProfile
from adapters.profile.template import (
    DATE_FORMATS,
    DATE_PARTS,
    TEXT_FILTERS,
    TIME_FORMATS,
    TIME_PARTS,
    Template,
)

__all__ = [
    "LIMITS",
    "VARIABLES",
    "Limits",
    "LoadedProfile",
    "ProfileInvalid",
    "load_site_profile",
    "parse_site_profile",
]

Path_ = tuple[str | int, ...]

_REQUEST = frozenset({"building", "date", "room", "room_id", "start", "end"})
# What each part's templates may name.
VARIABLES: dict[str, frozenset[str]] = {
    "login": frozenset(),
    "catalogue": frozenset(),
    "availability": frozenset({"building", "date"}),
    "book.open": _REQUEST,
    "book.fields": _REQUEST | {"purpose", "attendees"},
    "book.made_then": _REQUEST | {"purpose", "attendees"},
    "book.request": _REQUEST | {"purpose", "attendees", "room_key"},
    "cancel": frozenset(),
    "booking_page": frozenset({"number"}),
    "my_bookings": frozenset(),
}


@dataclass(frozen=True)
class Limits:
    """What a profile may be. The shipped ones are at most 8 kB, 8 levels deep, 554
    parts, with no alias: each limit is many times that."""

    characters: int = 256 * 1024
    depth: int = 32  # mappings and lists inside one another
    aliases: int = 100  # uses of ``*name``
    parts: int = 50_000  # mapping keys, values and list items, every alias written out


LIMITS = Limits()


class LoadedProfile(BaseModel):
    """A profile and where each of its parts was written (for messages naming a line)."""

    model_config = {"frozen": True, "arbitrary_types_allowed": True}

    profile: SiteProfile
    file: str
    lines: dict[str, int]  # "book.submit.0" → line

    def where(self, path: str) -> str:
        """«file:line» of the part at ``path`` (dotted), or of its nearest written parent."""
        return _where(self.file, self.lines, path)


def _where(file: str, lines: dict[str, int], path: str) -> str:
    while True:
        if path in lines:
            return f"{file}:{lines[path]}"
        if not path:
            return file
        path = path.rpartition(".")[0]


class _Lines(yaml.SafeLoader):
    """Composes a document within ``LIMITS``, keeping what each node holds once its
    aliases are written out; ``_plain`` then keeps each part's line."""

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        self._open = 0  # collections around the node being composed
        self._aliases = 0
        self._parts = 0  # the document's parts so far, aliases written out
        self._shape: dict[int, tuple[int, int]] = {}  # id(node) → (parts, depth) written out

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        event = self.peek_event()
        where = f"{{file}}:{event.start_mark.line + 1}"
        alias = isinstance(event, yaml.AliasEvent)
        opens = isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent)
        if alias:
            self._aliases += 1
            if self._aliases > LIMITS.aliases:
                raise ProfileInvalid(where, f"more than {LIMITS.aliases} aliases (*name)")
        elif opens:
            # Checked before going in: the composer recurses, and 100 000 levels crash it.
            self._open += 1
            if self._open > LIMITS.depth:
                raise ProfileInvalid(where, f"parts nested more than {LIMITS.depth} deep")
        try:
            node = super().compose_node(parent, index)
        finally:
            self._open -= opens
        assert node is not None  # an alias, a scalar or a collection: always a node
        if alias:
            shape = self._shape.get(id(node))
            if shape is None:  # its anchor's part is still being composed: it holds itself
                raise ProfileInvalid(where, "an alias refers to the part it is in")
            parts, depth = shape
            if self._open + depth > LIMITS.depth:
                raise ProfileInvalid(where, f"parts nested more than {LIMITS.depth} deep")
            self._parts += parts
        else:
            inner = [self._shape[id(child)] for child in _children(node)]
            parts = 1 + sum(p for p, _ in inner)
            depth = opens + max((d for _, d in inner), default=0)  # collections, as _open
            self._shape[id(node)] = (parts, depth)
            self._parts += 1
        if self._parts > LIMITS.parts:
            raise ProfileInvalid(
                where, f"more than {LIMITS.parts} parts once its aliases are written out"
            )
        return node


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


_PLAIN_TAGS = ("tag:yaml.org,2002:map", "tag:yaml.org,2002:seq")


def _plain(node: yaml.Node, path: Path_, lines: dict[str, int], loader: _Lines) -> Any:
    """The node as plain data, each part's line kept (a mapping value's: its key's line)."""
    lines.setdefault(".".join(map(str, path)), node.start_mark.line + 1)
    where = f"{{file}}:{node.start_mark.line + 1}"
    if isinstance(node, yaml.MappingNode | yaml.SequenceNode) and node.tag not in _PLAIN_TAGS:
        raise ProfileInvalid(where, f"the tag {node.tag} is not allowed in a profile")
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            key_where = f"{{file}}:{key_node.start_mark.line + 1}"
            if not isinstance(key_node, yaml.ScalarNode):
                raise ProfileInvalid(key_where, "a key must be a plain word")
            key = loader.construct_object(key_node, deep=True)
            if key in result:
                raise ProfileInvalid(key_where, f"«{key}» is given twice")
            lines[".".join(map(str, (*path, key)))] = key_node.start_mark.line + 1
            result[key] = _plain(value_node, (*path, key), lines, loader)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_plain(item, (*path, i), lines, loader) for i, item in enumerate(node.value)]
    return loader.construct_object(node, deep=True)


def _as_written(loc: tuple[str | int, ...], lines: dict[str, int]) -> tuple[str, ...]:
    """A mistake's place as the file writes it: a pick written alone (one of ``Picks``,
    a list of one once read) is named without the list's index 0."""
    written: list[str] = []
    for part in loc:
        if part == 0 and written and ".".join([*written, "0"]) not in lines:
            continue
        written.append(str(part))
    return tuple(written)


def parse_site_profile(text: str, file: str) -> LoadedProfile:
    """Parse and check a profile's text; ``ProfileInvalid`` for the first problem."""
    if len(text) > LIMITS.characters:
        at = text.count("\n", 0, LIMITS.characters) + 1
        raise ProfileInvalid(
            f"{file}:{at}", f"longer than {LIMITS.characters} characters: not a profile"
        )
    lines: dict[str, int] = {}
    try:
        loader = _Lines(text)
        try:
            node = loader.get_single_node()
            data = _plain(node, (), lines, loader) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as exc:
        # An unclosed [ or {: where it was opened, not where the parser gave up.
        flow = (exc.context or "").startswith("while parsing a flow")
        mark = (exc.context_mark if flow else None) or exc.problem_mark or exc.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        raise ProfileInvalid(f"{file}{line}", f"not valid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise ProfileInvalid(file, f"not valid YAML: {exc}") from None
    except ProfileInvalid as exc:
        raise ProfileInvalid(exc.where.format(file=file), exc.problem) from None
    if not isinstance(data, dict):
        raise ProfileInvalid(f"{file}:1", "a profile is a mapping of parts (login:, book:, …)")
    try:
        profile = SiteProfile.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors()
        # A typo («sumbit») is one key unknown and one missing: name the typo.
        first = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
        loc = _as_written(first["loc"], lines)
        field = ".".join(loc)
        message = first["msg"].removeprefix("Value error, ")
        if first["type"] == "extra_forbidden":
            message = f"unknown key «{loc[-1]}»"
        elif first["type"] == "missing":
            message = f"«{loc[-1]}» is missing"
        raise ProfileInvalid(_where(file, lines, field), f"{field}: {message}") from None
    loaded = LoadedProfile(profile=profile, file=file, lines=lines)
    _check_names(loaded)
    return loaded


def load_site_profile(path: Path) -> LoadedProfile:
    """The profile in ``path``; ``ProfileInvalid`` (a ``ConfigError``) when it is not usable."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileInvalid(str(path), f"cannot read it: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise ProfileInvalid(str(path), "it is not UTF-8 text") from None
    return parse_site_profile(text, str(path))


def _templates(value: Any, path: str) -> Iterator[tuple[str, Template]]:
    if isinstance(value, Template):
        yield path, value
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _templates(getattr(value, name), f"{path}.{name}")
    elif isinstance(value, tuple | list):
        for index, item in enumerate(value):
            yield from _templates(item, f"{path}.{index}")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _templates(item, f"{path}.{key}")


def _check_names(loaded: LoadedProfile) -> None:
    profile = loaded.profile
    parts: list[tuple[str, Any]] = [
        ("login", profile.login),
        ("catalogue", profile.catalogue),
        ("availability", profile.availability),
        ("book.open", profile.book.open),
        ("book.fields", profile.book.fields),
        ("book.made_then", profile.book.made_then),
        ("book.request", profile.book.request),
        ("cancel", profile.cancel),
        ("booking_page", profile.booking_page),
        ("my_bookings", profile.my_bookings),
    ]
    purposes = [
        t for _, t in _templates(profile.book.fields, "book.fields") if "purpose" in t.names
    ]
    if not purposes:  # the run's mark goes there: without it a lost answer is never found
        raise ProfileInvalid(
            loaded.where("book.fields"),
            "book.fields: no field writes {purpose} (the booking's purpose, with the bot's mark "
            "that finds a booking again after a lost answer)",
        )
    for part, value in parts:
        allowed = VARIABLES[part]
        for path, template in _templates(value, part):
            unknown = sorted(template.names - allowed)
            if unknown:
                known = ", ".join(sorted(allowed)) or "none"
                raise ProfileInvalid(
                    loaded.where(path),
                    f"{path}: the template «{template}» names {', '.join(unknown)}, "
                    f"which {part} does not know (it knows: {known})",
                )
            for name, fmt in template.slots:
                fits = _FITTING.get(name, TEXT_FILTERS)
                if fmt is not None and fmt not in fits:
                    raise ProfileInvalid(
                        loaded.where(path),
                        f"{path}: «{{{name}|{fmt}}}» writes {name} in a format that does not "
                        f"fit it (it takes: {', '.join(fits)})",
                    )


# Which formats each variable takes (the others: text filters only).
_FITTING: dict[str, Mapping[str, object]] = {
    "date": DATE_FORMATS | DATE_PARTS,
    "start": TIME_FORMATS | TIME_PARTS,
    "end": TIME_FORMATS | TIME_PARTS,
}
