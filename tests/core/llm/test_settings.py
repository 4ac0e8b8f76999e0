"""``LLMSettings`` from the environment, nested as ``llm`` in a pydantic-settings model."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import Field, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from core.llm import (
    AnthropicProvider,
    LLMSettings,
    MemorySpendLedger,
    OpenAIProvider,
    build_llm,
)


class AppSettings(BaseSettings):
    """Stands in for ``core.settings.Settings`` with the ``llm`` section."""

    model_config = SettingsConfigDict(env_nested_delimiter="__", extra="ignore")
    llm: LLMSettings = Field(default_factory=LLMSettings)


async def _nothing(record: object) -> None:
    return None


def test_defaults_mean_no_llm() -> None:
    settings = AppSettings().llm
    assert settings.providers == []
    assert settings.cache_ttl_seconds == 3600
    assert build_llm(settings, cache=None, ledger=MemorySpendLedger(), on_call=_nothing) is None


def test_env_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "LLM__PROVIDERS": "anthropic, OpenAI,local",
        "LLM__ANTHROPIC__API_KEY": "a-key",
        "LLM__ANTHROPIC__MODEL": "claude-sonnet-4-5",
        "LLM__ANTHROPIC__BASE_URL": "http://127.0.0.1:1234/",
        "LLM__ANTHROPIC__PRICE_INPUT_PER_MTOK": "3",
        "LLM__ANTHROPIC__PRICE_OUTPUT_PER_MTOK": "15",
        "LLM__OPENAI__API_KEY": "o-key",
        "LLM__OPENAI__MODEL": "gpt-4.1",
        "LLM__LOCAL__BASE_URL": "http://localhost:11434/v1",
        "LLM__LOCAL__MODEL": "llama3.1",
        "LLM__LOCAL__RESPONSE_FORMAT": "json_object",
        "LLM__TIMEOUT_SECONDS": "12.5",
        "LLM__MAX_RETRIES": "4",
        "LLM__CACHE_TTL_SECONDS": "60",
        "LLM__DAILY_BUDGET_USD": "10",
        "LLM__USER_DAILY_BUDGET_USD": "1.5",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)

    llm = AppSettings().llm

    assert llm.providers == ["anthropic", "openai", "local"]
    assert llm.anthropic.api_key is not None and llm.anthropic.api_key.get_secret_value() == "a-key"
    assert llm.anthropic.base_url == "http://127.0.0.1:1234"
    assert llm.anthropic.price.cost(1_000_000, 1_000_000) == 18.0
    assert (llm.openai.model, llm.local.model) == ("gpt-4.1", "llama3.1")
    assert llm.local.response_format == "json_object" and llm.local.api_key is None
    assert (llm.timeout_seconds, llm.max_retries, llm.cache_ttl_seconds) == (12.5, 4, 60)
    assert (llm.daily_budget_usd, llm.user_daily_budget_usd) == (10.0, 1.5)

    built = build_llm(llm, cache=None, ledger=MemorySpendLedger(), on_call=_nothing)
    assert built is not None
    kinds = [type(p) for p in built.providers]
    assert kinds == [AnthropicProvider, OpenAIProvider, OpenAIProvider]
    assert [p.name for p in built.providers] == ["anthropic", "openai", "local"]


def test_json_list_is_accepted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LLM__PROVIDERS", '["local"]')
    assert AppSettings().llm.providers == ["local"]


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"LLM__PROVIDERS": "anthropic"}, "LLM__ANTHROPIC__API_KEY is not set"),
        ({"LLM__PROVIDERS": "gemini"}, "anthropic"),
        ({"LLM__PROVIDERS": "local,local"}, "listed twice"),
        ({"LLM__LOCAL__BASE_URL": "localhost:11434"}, "http://"),
    ],
)
def test_bad_configuration_is_refused(
    monkeypatch: pytest.MonkeyPatch, env: dict[str, str], message: str
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError, match=message):
        AppSettings()


def test_importing_the_layer_does_not_load_the_sdks() -> None:
    # The product runs without an LLM; the SDKs take seconds to import.
    code = (
        "import sys, core.llm, core.llm.settings\n"
        "assert 'anthropic' not in sys.modules and 'openai' not in sys.modules\n"
        "from core.llm import AnthropicProvider, OpenAIProvider\n"
        "assert 'anthropic' in sys.modules and 'openai' in sys.modules\n"
    )
    root = Path(__file__).resolve().parents[3]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root, timeout=60)
