"""What ``clubman learn`` records while an operator shows the bot a site: per step, the
pages, the fields and their values, the clicks (each element with several locator
candidates, as a profile takes them), the changes the site was sent, and what the page
looked like at the end (its accessibility snapshot).

Nothing secret is in it: a request's body keeps no value of a password field or of a
field named like a secret, headers (cookies) are not recorded at all, and a password
typed is masked wherever else the step shows it (``secrets``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from adapters.profile.parts import Locator

__all__ = [
    "Action",
    "FormField",
    "ListByExample",
    "PickedText",
    "Recording",
    "SelectOption",
    "SentForm",
    "SentRequest",
    "ShownSelect",
    "Step",
    "StepName",
    "TitleCell",
    "TitlePart",
]

# The demonstration's steps, in order.
# «opened»: the booking's own page, opened from «my bookings» where no page the booking's
# form led to was that page (the save went back to the day).
StepName = Literal["login", "day", "book", "refused", "my_bookings", "opened", "cancel"]


class _Frozen(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Action(_Frozen):
    """One thing the operator did to an element (or a page they went to)."""

    kind: Literal["navigate", "click", "fill", "select", "check"]
    url: str  # the page it happened on (for «navigate»: the page reached)
    candidates: tuple[Locator, ...] = ()  # the element, best first
    value: str | None = None  # what was typed or chosen; a secret typed: «***» or None
    secret: bool = False  # a password field: its value is not recorded
    field_type: str = ""  # an input's type («text», «date», «password», ...)
    # A click after a change was sent: the lines of text the page showed by then that it
    # did not at the click before (a site that answers in the page, not a new one).
    shown: tuple[str, ...] = ()
    # A field's form, as CSS (by its id or name where it has one, else by its place): the
    # login form a site draws in place is told by it (``adapters.profile.learn.login``).
    form: str = ""


class FormField(_Frozen):
    """One field of a form as it was sent: how to find it and what it held."""

    name: str
    control: Literal["input", "select", "textarea"]
    field_type: str = ""  # an input's type
    hidden: bool = False
    candidates: tuple[Locator, ...] = ()
    value: str | None = None  # never a password's


class SentForm(_Frozen):
    """A form the page submitted (its fields, and how to find its submit button)."""

    url: str
    fields: tuple[FormField, ...] = ()


class SentRequest(_Frozen):
    """A change the page sent the site (not a read): method, address, body fields."""

    method: str
    url: str
    form: dict[str, str] = Field(default_factory=dict)  # secrets replaced by «***»
    json_keys: tuple[str, ...] = ()  # a JSON body: its keys only
    after: int = 0  # how many of the step's actions came before it (which click sent it)
    # The page's own navigation (a form sent, a link followed), not a request its scripts
    # sent in the background (a check while a form is open, which may go to the same URL).
    navigation: bool = False


class PickedText(_Frozen):
    """A piece of text in a list's item, and where it is inside the item."""

    css: str
    text: str


class ListByExample(_Frozen):
    """A list the operator showed by clicking two of its items."""

    css: str  # every item of the list
    count: int  # as the operator confirmed it
    samples: tuple[str, ...] = ()  # the first items' first lines
    texts: tuple[PickedText, ...] = ()  # the pieces of the item holding the booking made
    heading: PickedText | None = None  # what that item sits under (a day's title)


class SelectOption(_Frozen):
    value: str
    text: str


class ShownSelect(_Frozen):
    """A drop-down of the page as its DOM has it: shown, or hidden under a widget a script
    draws over it (select2), whose snapshot shows no options."""

    css: str  # finds it (or the copies of it the page draws, all alike)
    name: str = ""
    label: str = ""  # its label, else its aria-label or title
    options: tuple[SelectOption, ...] = ()
    chosen: str | None = None  # the chosen option's value
    shown: bool = True  # visible itself, not hidden under a widget

    def chosen_text(self) -> str | None:
        return next((o.text for o in self.options if o.value == self.chosen), None)


class TitlePart(_Frozen):
    """An element with text of its own inside a table's heading cell (a capacity
    glued to a room's name), and the cell's text with it left out (``without``)."""

    css: str  # inside the cell: its tag and stable classes
    text: str
    rest: str


class TitleCell(_Frozen):
    """A table's heading cell as a profile reads its text (the DOM's, where the snapshot
    shows another: «10130» for «101 (30)», a capacity's brackets drawn by CSS)."""

    text: str
    parts: tuple[TitlePart, ...] = ()
    table: str = ""  # the CSS that finds its table alone on the page


class Step(_Frozen):
    name: StepName
    actions: tuple[Action, ...] = ()
    requests: tuple[SentRequest, ...] = ()
    forms: tuple[SentForm, ...] = ()
    dialogs: tuple[str, ...] = ()  # the browser's own questions shown («confirm», «alert»)
    answers: dict[str, str] = Field(default_factory=dict)  # what the operator named
    snapshot: str = ""  # the page's accessibility tree at the step's end
    url: str = ""  # where the step ended
    lists: dict[str, ListByExample] = Field(default_factory=dict)  # shown by example
    # The booking's and the cancel's ends: the words the page (its dialog) shows, where
    # it has no «term: value» pairs (``adapters.profile.learn.pieces``); the day's: where
    # it writes its date outside the grid.
    pieces: tuple[PickedText, ...] = ()
    # The cancel's: the booking's own page as the learner opened it again afterwards
    # (its snapshot): how the site says a booking it deleted outright is gone.
    revisited: str = ""
    # The cancel's: «my bookings» as the learner opened it again afterwards, where a press
    # posts it (its snapshot): what the list says when it has none.
    relisted: str = ""
    # The day's page as its DOM has it, where the snapshot does not show what a profile
    # reads: its drop-downs (``adapters.profile.learn.selects``) and its tables' heading
    # cells (``adapters.profile.learn.titles``).
    selects: tuple[ShownSelect, ...] = ()
    titles: tuple[TitleCell, ...] = ()


class Recording(_Frozen):
    name: str
    site: str  # the address the learner was given
    steps: tuple[Step, ...] = ()

    def step(self, name: StepName) -> Step | None:
        return next((s for s in reversed(self.steps) if s.name == name), None)
