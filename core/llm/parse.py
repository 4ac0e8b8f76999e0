"""Turn a model's text into the caller's pydantic model, or say exactly what is wrong."""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from core.llm.errors import ErrorKind, InvalidOutput
from core.llm.models import T, Validator

__all__ = ["parse_answer"]

_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors(include_url=False, include_input=False)[:8]:
        where = ".".join(str(p) for p in err["loc"]) or "(root)"
        parts.append(f"{where}: {err['msg']}")
    return "the JSON does not match the schema: " + "; ".join(parts)


def parse_answer(
    text: str, schema: type[T], *, provider: str, validate: Validator[T] | None = None
) -> T:
    """Parse ``text`` into ``schema``; raise ``InvalidOutput`` with a message for the model."""
    match = _FENCE.match(text)
    body = match.group(1) if match else text.strip()
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise InvalidOutput(f"the answer is not valid JSON ({exc.msg})", provider=provider) from exc
    try:
        value = schema.model_validate(data)
    except ValidationError as exc:
        raise InvalidOutput(_describe(exc), provider=provider) from exc
    if validate is not None:
        try:
            validate(value)
        except ValueError as exc:
            raise InvalidOutput(str(exc), provider=provider, kind=ErrorKind.REJECTED) from exc
    return value
