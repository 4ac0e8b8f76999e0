"""What a site's answer to a form means, by the profile's refusals (status, the
message's code attribute, words in the message), checked in order."""

from __future__ import annotations

from playwright.async_api import Page

from adapters.profile.finding import Finder
from adapters.profile.model import Meaning, Outcome

__all__ = ["Answer", "read_answer"]


class Answer:
    def __init__(self, meaning: Meaning, message: str, code: str | None) -> None:
        self.meaning = meaning
        self.message = message
        self.code = code


async def read_answer(
    page: Page, finder: Finder, outcome: Outcome, status: int, *, path: str
) -> Answer | None:
    """The page's message (``outcome.message``, at ``path``) and what it means; None when
    the page shows no message."""
    shown = await finder.maybe(page, outcome.message, path=path)
    message = " ".join((await shown.inner_text()).split()) if shown is not None else ""
    code = None
    if shown is not None and outcome.code_attr:
        code = await shown.get_attribute(outcome.code_attr)
    if not message and status < 400:
        return None
    lowered = message.lower()
    for refusal in outcome.refusals:
        if (
            (refusal.status is None or refusal.status == status)
            and (refusal.code is None or refusal.code == code)
            and (refusal.text is None or refusal.text.lower() in lowered)
        ):
            return Answer(refusal.error, message, code)
    return Answer(outcome.otherwise, message, code)
