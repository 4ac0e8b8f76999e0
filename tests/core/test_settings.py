"""Settings from the environment and .env: names, nesting, secrets, clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.errors import ConfigError
from core.settings import OFFICIAL_BOT_API, load_settings


def test_defaults_need_no_configuration(tmp_path: Path) -> None:
    settings = load_settings()
    assert settings.telegram.token is None
    assert settings.telegram.api_base == OFFICIAL_BOT_API
    assert settings.mongodb_uri is None and settings.redis_url is None
    assert settings.timezone == "Europe/Moscow"
    assert settings.data_dir == tmp_path / "xdg" / "clubman"


def test_documented_names_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    env = {
        "TELEGRAM__TOKEN": "123:secret",
        "TELEGRAM__API_BASE": "http://127.0.0.1:8081/",
        "TELEGRAM__ALLOWED_USERS": "11, 22,33",
        "PORTAL__URL": "https://rooms.example.edu/",
        "PORTAL__USERNAME": "club",
        "PORTAL__PASSWORD": "club-demo",
        "MONGODB_URI": "mongodb://db:27017/clubman",
        "REDIS_URL": "redis://cache:6379/0",
        "DATA_DIR": "/srv/clubman",
        "LOG_LEVEL": "debug",
        "TIMEZONE": "Asia/Novosibirsk",
    }
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    settings = load_settings()
    assert settings.telegram.token is not None
    assert settings.telegram.token.get_secret_value() == "123:secret"
    assert settings.telegram.api_base == "http://127.0.0.1:8081"
    assert settings.telegram.allowed_users == [11, 22, 33]
    assert settings.portal.url == "https://rooms.example.edu"
    assert settings.portal.password is not None
    assert settings.data_dir == Path("/srv/clubman")
    assert settings.log_level == "DEBUG"
    assert settings.timezone == "Asia/Novosibirsk"
    assert "secret" not in repr(settings) and "club-demo" not in repr(settings)


def test_dotenv_is_read_and_empty_values_mean_unset(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("TELEGRAM__TOKEN=\nDATA_DIR=\nTIMEZONE=Europe/Berlin\n")
    settings = load_settings()
    assert settings.telegram.token is None
    assert settings.data_dir == tmp_path / "xdg" / "clubman"
    assert settings.timezone == "Europe/Berlin"


@pytest.mark.parametrize(
    ("name", "value", "expected"),
    [
        ("MONGODB_URI", "localhost:27017", "MONGODB_URI"),
        ("REDIS_URL", "cache:6379", "REDIS_URL"),
        ("TIMEZONE", "Mars/Olympus", "TIMEZONE"),
        ("TELEGRAM__ALLOWED_USERS", "12,abc", "TELEGRAM__ALLOWED_USERS"),
        ("PORTAL__URL", "rooms.example.edu", "PORTAL__URL"),
        ("BROWSER__MAX_CONTEXTS", "0", "BROWSER__MAX_CONTEXTS"),
    ],
)
def test_bad_values_give_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, expected: str
) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    message = str(info.value)
    assert expected in message and "\n" not in message
    assert info.value.__cause__ is None  # no pydantic traceback chained for the user
