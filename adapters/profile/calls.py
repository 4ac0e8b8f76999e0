"""The site's own requests a profile may describe, sent through the logged-in browser
context instead of drawing pages (the fast path): the booking form's request, and the
calls «my bookings»'s page and the day's page make for what they show."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from adapters.profile.parts import Part, PathTemplate, Regex, TemplateText

__all__ = ["DayRequest", "HeaderToken", "ListRequest", "Request", "RoomFields", "RoomKeys", "Span"]


class HeaderToken(Part):
    """A CSRF token shown in the page's ``<meta name="{meta}" content=…>`` and sent in the
    header ``header`` (the way a site's own scripts call its JSON endpoints)."""

    meta: str
    header: str


class RoomKeys(Part):
    """The site's own key of each room, for requests that name a room by a number its
    pages do not show (``{room_key}``): a JSON list at ``url`` whose entry has, in the
    field ``name``, the room's id as the profile reads it (``{room_id}``) or that id
    followed by a space and more; ``key`` is the field holding the key. Read once a
    session."""

    url: PathTemplate
    name: str
    key: str


class Request(Part):
    """The booking form's own request, sent through the logged-in browser context without
    loading the form (the fast path): its address, and each field's value, as a form post
    (``form``; a made booking is the redirect to the booking's address) or as a JSON call
    (``json``; a made booking is a success whose JSON has the booking's number at the
    dotted path ``number``). ``token`` names a form field whose value is read from the
    form's page first, or a ``HeaderToken``. Any other answer is booked through the page,
    or looked for in «my bookings» first when it may have made the booking.
    """

    method: Literal["POST"] = "POST"
    url: PathTemplate
    form: dict[str, TemplateText] | None = None
    json_fields: dict[str, TemplateText] | None = Field(default=None, alias="json")
    number: str | None = None
    token: str | HeaderToken | None = None
    room_keys: RoomKeys | None = None

    @model_validator(mode="after")
    def _one_body(self) -> Request:
        if (self.form is None) == (self.json_fields is None):
            raise ValueError("a request has either `form` or `json`, not both and not neither")
        if (self.json_fields is None) != (self.number is None):
            raise ValueError(
                "`number` (where the JSON answer has the booking's number) goes with `json`"
            )
        if self.form is not None and isinstance(self.token, HeaderToken):
            raise ValueError("a form's token is one of its fields: name it (`token: csrf_token`)")
        return self


class ListRequest(Part):
    """The call «my bookings»'s page makes for its bookings (a JSON answer), read directly
    on the fast path instead of drawing the page. ``items`` is the dotted path to the
    bookings, where ``*`` takes every value (bookings grouped by day); in each booking, the
    dotted paths of its ``number``, ``start`` and ``end`` (ISO date-times), ``purpose`` and
    ``room`` (the site's key of the room, named by the list at ``rooms``; the building and
    room are read from that name by ``my_bookings``'s picks' regexes); ``owner``, who made
    it (read by ``my_bookings.owner``'s regex). ``at_most``: the most bookings one answer
    lists (the limit the address asks for): an answer with that many may leave some out.
    A ``token`` is read from the list's page, fetched as plain HTML. Any other answer: the
    page is read, as without this."""

    method: Literal["GET", "POST"] = "POST"
    url: PathTemplate
    json_fields: dict[str, TemplateText] | None = Field(default=None, alias="json")
    token: HeaderToken | None = None
    items: str
    number: str
    start: str
    end: str
    purpose: str
    room: str
    rooms: RoomKeys
    at_most: int | None = Field(default=None, ge=1)
    # Who made each booking, read by ``my_bookings.owner``'s regex: with it, and only
    # then, the list keeps the account's own (``adapters.profile.owner``).
    owner: str | None = None


class Span(Part):
    """One kind of busy time in a room's part of the answer: ``at``, the dotted path to
    its entries (``*`` takes every value, a number a list's element), and in each entry
    the paths of its ``start`` and ``end`` (date-times, cut to the day, or times of day).
    Without them, an entry holds the whole day (a blocking)."""

    at: str
    start: str | None = None
    end: str | None = None

    @model_validator(mode="after")
    def _both_or_none(self) -> Span:
        if (self.start is None) != (self.end is None):
            raise ValueError("a span has both `start` and `end`, or neither (the whole day)")
        return self


class RoomFields(Part):
    """Where a room's part of a day's answer has the room: the dotted paths of its
    ``number``, and of its ``id``, ``floor`` and ``capacity`` if the answer has them."""

    number: str
    id: str | None = None
    floor: str | None = None
    capacity: str | None = None


class DayRequest(Part):
    """The call the day's page makes for what holds each room of a building (a JSON
    answer), read directly on the fast path instead of drawing the page. In the answer,
    ``lines`` is where each room's part is, ``busy`` where its busy times are. Either the
    call names the building (``{building}`` in ``url``) and each part says which room it
    is (``room``), or it is sent the building's rooms: those of the site's list at
    ``rooms`` whose names ``building`` (a regex, its first group the building's code) puts
    in it, their keys as the JSON list ``keys``, each part naming its room by ``key``; a
    room's number, id and floor are then read from its name by the day's room picks'
    regexes. ``day``: where the answer says which day it is (an ISO date). Only an answer
    for the day asked, with every part as described (and one for every room sent), is the
    day; else the page is read, as without this."""

    method: Literal["GET", "POST"] = "POST"
    url: PathTemplate
    token: HeaderToken | None = None
    room: RoomFields | None = None
    rooms: RoomKeys | None = None
    building: Regex | None = None
    keys: str | None = None
    day: str | None = None
    lines: str
    key: str | None = None
    busy: tuple[Span, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _one_way_to_the_rooms(self) -> DayRequest:
        sent = (self.rooms, self.building, self.keys, self.key)
        if self.room is None and any(part is None for part in sent):
            raise ValueError(
                "the rooms are either in the answer (`room`) or sent from the site's list "
                "(`rooms`, `building`, `keys` and `key`)"
            )
        if self.room is not None and any(part is not None for part in sent):
            raise ValueError(
                "`room` (the answer names its rooms) goes without `rooms`, `building`, "
                "`keys` and `key`"
            )
        return self
