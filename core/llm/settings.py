"""``LLMSettings``: nested into the app ``Settings`` as ``llm`` (env ``LLM__...``).

LLM__PROVIDERS=anthropic,openai,local      order of fallback; empty = no LLM
LLM__ANTHROPIC__API_KEY / __MODEL / __BASE_URL / __PRICE_INPUT_PER_MTOK / ...
LLM__OPENAI__API_KEY / __MODEL / __BASE_URL (with /v1) / __STRICT / __RESPONSE_FORMAT
LLM__LOCAL__BASE_URL (with /v1) / __MODEL / __API_KEY / __RESPONSE_FORMAT=json_object
LLM__TIMEOUT_SECONDS, LLM__MAX_RETRIES, LLM__CACHE_TTL_SECONDS,
LLM__DAILY_BUDGET_USD, LLM__USER_DAILY_BUDGET_USD
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import BaseModel, Field, SecretStr, field_validator, model_validator
from pydantic_settings import NoDecode

from core.llm.protocol import Price

__all__ = [
    "AnthropicSettings",
    "LLMSettings",
    "LocalSettings",
    "OpenAISettings",
    "ProviderName",
    "ProviderSettings",
]

ProviderName = Literal["anthropic", "openai", "local"]


def _check_url(value: str | None) -> str | None:
    if value and not value.startswith(("http://", "https://")):
        raise ValueError("must start with http:// or https://")
    return value.rstrip("/") if value else None


class ProviderSettings(BaseModel):
    api_key: SecretStr | None = None
    model: str
    base_url: str | None = None
    price_input_per_mtok: float = Field(default=0.0, ge=0)
    price_output_per_mtok: float = Field(default=0.0, ge=0)

    check_base_url = field_validator("base_url")(_check_url)

    @property
    def price(self) -> Price:
        return Price(
            input_per_mtok=self.price_input_per_mtok, output_per_mtok=self.price_output_per_mtok
        )


class AnthropicSettings(ProviderSettings):
    model: str = "claude-haiku-4-5"
    price_input_per_mtok: float = Field(default=1.0, ge=0)
    price_output_per_mtok: float = Field(default=5.0, ge=0)


class OpenAISettings(ProviderSettings):
    model: str = "gpt-4.1-mini"
    price_input_per_mtok: float = Field(default=0.4, ge=0)
    price_output_per_mtok: float = Field(default=1.6, ge=0)
    # "json_schema" (structured outputs) or "json_object" + the schema in the prompt.
    response_format: Literal["json_schema", "json_object"] = "json_schema"
    # OpenAI strict mode: every property required, no extra keys (the schema is adapted).
    strict: bool = False


class LocalSettings(OpenAISettings):
    """Any OpenAI-compatible server: Ollama, vLLM, llama.cpp (key optional, price 0)."""

    model: str = "qwen2.5:7b-instruct"
    base_url: str | None = "http://127.0.0.1:11434/v1"
    price_input_per_mtok: float = Field(default=0.0, ge=0)
    price_output_per_mtok: float = Field(default=0.0, ge=0)


class LLMSettings(BaseModel):
    providers: Annotated[list[ProviderName], NoDecode] = Field(default_factory=list)
    anthropic: AnthropicSettings = Field(default_factory=AnthropicSettings)
    openai: OpenAISettings = Field(default_factory=OpenAISettings)
    local: LocalSettings = Field(default_factory=LocalSettings)
    timeout_seconds: float = Field(default=30.0, gt=0, le=600)
    max_retries: int = Field(default=2, ge=0, le=10)
    backoff_base_seconds: float = Field(default=0.5, ge=0)
    backoff_max_seconds: float = Field(default=8.0, ge=0)
    retry_after_cap_seconds: float = Field(default=20.0, ge=0)
    cache_ttl_seconds: int = Field(default=3600, ge=0)  # 0 = no cache
    daily_budget_usd: float | None = Field(default=5.0, ge=0)  # None = unlimited
    user_daily_budget_usd: float | None = Field(default=0.5, ge=0)

    @field_validator("providers", mode="before")
    @classmethod
    def _split(cls, value: object) -> object:
        # "anthropic, openai" in .env; a JSON list is accepted too.
        if isinstance(value, str):
            parts = value.strip("[]").split(",")
            return [p.strip().strip("\"'").lower() for p in parts if p.strip().strip("\"'")]
        return value

    @field_validator("providers")
    @classmethod
    def _unique(cls, value: list[ProviderName]) -> list[ProviderName]:
        if len(set(value)) != len(value):
            raise ValueError("a provider is listed twice")
        return value

    @model_validator(mode="after")
    def _keys_present(self) -> Self:
        for name in self.providers:
            if name != "local" and self.section(name).api_key is None:
                raise ValueError(
                    f"{name!r} is in LLM__PROVIDERS but LLM__{name.upper()}__API_KEY is not set"
                )
        return self

    def section(self, name: ProviderName) -> ProviderSettings:
        sections: dict[str, ProviderSettings] = {
            "anthropic": self.anthropic,
            "openai": self.openai,
            "local": self.local,
        }
        return sections[name]
