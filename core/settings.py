"""One pydantic-settings ``Settings``, built once in the entry point and passed down.

Environment variables use ``__`` between a section and its field
(``TELEGRAM__TOKEN``, ``PORTAL__URL``); top-level ones have no prefix
(``MONGODB_URI``, ``REDIS_URL``). A ``.env`` file in the working directory is read too.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, Field, SecretStr, ValidationError, create_model, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from core.errors import ConfigError
from core.llm.settings import LLMSettings

__all__ = [
    "BrowserSettings",
    "PortalSettings",
    "RunnerSettings",
    "SecuritySettings",
    "Settings",
    "TelegramSettings",
    "default_data_dir",
    "load_settings",
    "with_sections",
]

OFFICIAL_BOT_API = "https://api.telegram.org"


def default_data_dir() -> Path:
    """Where the zero-config demo keeps its data (XDG data home)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "clubman"


class TelegramSettings(BaseModel):
    token: SecretStr | None = None
    api_base: str = OFFICIAL_BOT_API
    allowed_users: Annotated[list[int], NoDecode] = Field(default_factory=list)
    allow_all: bool = False
    # The club's administrators: they may answer, cancel and list anyone's requests and
    # bookings, and own the bookings made outside the bot.
    admins: Annotated[list[int], NoDecode] = Field(default_factory=list)

    @field_validator("allowed_users", "admins", mode="before")
    @classmethod
    def _split_ids(cls, value: object) -> object:
        # Operators write "123, 456" in .env; JSON lists are accepted too.
        if isinstance(value, str):
            return [part.strip() for part in value.strip("[]").split(",") if part.strip()]
        if isinstance(value, int):
            return [value]
        return value

    @field_validator("api_base")
    @classmethod
    def _strip_slash(cls, value: str) -> str:
        if not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/")


class PortalSettings(BaseModel):
    # Which booking system the URL runs; each kind is one package under adapters/.
    kind: str = "refportal"
    url: str | None = None
    # With kind "profile": the site profile (YAML, docs/profiles.md). With another kind:
    # local words for the site's buildings (TOML, core/site/profile.py), else the
    # adapter's own.
    profile: Path | None = None
    username: str | None = None
    password: SecretStr | None = None

    @field_validator("url")
    @classmethod
    def _check_url(cls, value: str | None) -> str | None:
        if value and not value.startswith(("http://", "https://")):
            raise ValueError("must start with http:// or https://")
        return value.rstrip("/") if value else value


class BrowserSettings(BaseModel):
    executable: str | None = None
    max_contexts: int = Field(default=4, ge=1, le=64)
    headless: bool = True


class SecuritySettings(BaseModel):
    # Fernet key (32 url-safe base64 bytes) for stored portal passwords and sessions.
    encryption_key: SecretStr | None = None
    # Bearer token /metrics asks for on a public interface (not served there without one).
    metrics_token: SecretStr | None = None

    @field_validator("encryption_key")
    @classmethod
    def _check_key(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None:
            return None
        import base64
        import binascii

        try:
            raw = base64.urlsafe_b64decode(value.get_secret_value().encode())
        except (binascii.Error, ValueError):
            raw = b""
        if len(raw) != 32:
            raise ValueError("must be a Fernet key: `clubman keygen` prints a new one")
        return value


class RunnerSettings(BaseModel):
    # A question left unanswered this long expires with a message to the user.
    waiting_ttl_seconds: int = Field(default=24 * 3600, ge=10)


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_nested_delimiter="__",
        env_file=".env",
        env_file_encoding="utf-8",
        env_ignore_empty=True,  # "VAR=" in .env means "not set", as in .env.example
        extra="ignore",
    )

    telegram: TelegramSettings = Field(default_factory=TelegramSettings)
    portal: PortalSettings = Field(default_factory=PortalSettings)
    browser: BrowserSettings = Field(default_factory=BrowserSettings)
    runner: RunnerSettings = Field(default_factory=RunnerSettings)
    security: SecuritySettings = Field(default_factory=SecuritySettings)
    llm: LLMSettings = Field(default_factory=LLMSettings)
    mongodb_uri: SecretStr | None = None
    redis_url: SecretStr | None = None
    data_dir: Path = Field(default_factory=default_data_dir)
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "INFO"
    timezone: str = "Europe/Moscow"

    @field_validator("mongodb_uri")
    @classmethod
    def _check_mongo(cls, value: SecretStr | None) -> SecretStr | None:
        if value and not value.get_secret_value().startswith(("mongodb://", "mongodb+srv://")):
            raise ValueError("must start with mongodb:// or mongodb+srv://")
        return value or None

    @field_validator("redis_url")
    @classmethod
    def _check_redis(cls, value: SecretStr | None) -> SecretStr | None:
        if value and not value.get_secret_value().startswith(("redis://", "rediss://", "unix://")):
            raise ValueError("must start with redis://, rediss:// or unix://")
        return value or None

    @field_validator("log_level", mode="before")
    @classmethod
    def _upper(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value

    @field_validator("timezone")
    @classmethod
    def _check_tz(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ValueError(f"unknown time zone {value!r} (use e.g. Europe/Moscow)") from exc
        return value

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.timezone)


def _env_name(loc: tuple[int | str, ...]) -> str:
    return "__".join(str(part).upper() for part in loc)


def with_sections(sections: Mapping[str, type[BaseModel]]) -> type[Settings]:
    """``Settings`` with each job's own section beside the engine's: ``{"scheduler":
    SchedulerSettings}`` reads ``SCHEDULER__LEAD_DAYS`` into ``settings.scheduler``."""
    fields: dict[str, Any] = {
        name: (model, Field(default_factory=model)) for name, model in sections.items()
    }
    return create_model("Settings", __base__=Settings, **fields)


def load_settings(model: type[Settings] = Settings, **overrides: object) -> Settings:
    """Build ``model`` (``Settings``, or one ``with_sections``) from the environment, turning
    validation errors into one clear line."""
    try:
        return model(**overrides)  # type: ignore[arg-type]
    except ValidationError as exc:
        problems = "; ".join(f"{_env_name(err['loc'])}: {err['msg']}" for err in exc.errors())
        raise ConfigError(
            f"bad configuration: {problems}",
            hint="fix the variable in your environment or .env (see .env.example)",
        ) from None
