"""The JSON Schema editors check profiles with: current, and agreeing with the loader."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import pytest
import yaml

from adapters.profile import load_site_profile
from adapters.profile.model import SCHEMA_FILE, json_schema

PROFILES = sorted((Path(__file__).parents[3] / "profiles").glob("*.yaml"))


def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(yaml.safe_load(SCHEMA_FILE.read_text(encoding="utf-8")))


def test_the_committed_schema_is_the_one_the_models_give() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == json_schema(), (
        "profiles/site-profile.schema.json is stale: "
        "clubman site schema --output profiles/site-profile.schema.json"
    )


@pytest.mark.parametrize("profile", PROFILES, ids=lambda p: p.name)
def test_every_shipped_profile_loads_and_passes_the_schema(profile: Path) -> None:
    assert load_site_profile(profile).profile.name
    errors = list(_validator().iter_errors(yaml.safe_load(profile.read_text(encoding="utf-8"))))
    assert errors == [], [e.message for e in errors]


def test_the_schema_catches_a_typo_as_the_loader_does() -> None:
    data = yaml.safe_load(PROFILES[0].read_text(encoding="utf-8"))
    data["book"]["sumbit"] = data["book"].pop("submit")
    messages = [e.message for e in _validator().iter_errors(data)]
    assert any("sumbit" in m for m in messages) and any("submit" in m for m in messages)
