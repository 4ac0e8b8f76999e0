"""The Docker files cannot be run here; check what can be: they parse, every service has
a health check and a named volume, and every ``clubman`` command they use exists."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path
from typing import Any

import yaml
from typer.main import get_command

from app.cli import app

ROOT = Path(__file__).resolve().parents[1]


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def _cli_commands() -> set[str]:
    return set(get_command(app).commands)  # type: ignore[attr-defined]


def test_compose_has_the_four_services_with_health_checks() -> None:
    services = _compose()["services"]
    assert set(services) == {"bot", "portal", "mongo", "redis"}
    assert services["mongo"]["image"].startswith("mongo:7")
    assert services["redis"]["image"].startswith("redis:7")
    for name, service in services.items():
        assert service["healthcheck"]["test"], name


def test_compose_volumes_are_named_and_declared() -> None:
    compose = _compose()
    declared = set(compose["volumes"])
    used = {
        volume.split(":")[0]
        for service in compose["services"].values()
        for volume in service.get("volumes", [])
    }
    assert used == declared


def test_bot_talks_to_the_compose_databases() -> None:
    env = _compose()["services"]["bot"]["environment"]
    assert env["MONGODB_URI"].startswith("mongodb://mongo:27017")
    assert env["REDIS_URL"].startswith("redis://redis:6379")


def test_every_clubman_command_used_by_docker_exists() -> None:
    used: set[str] = set()
    for service in _compose()["services"].values():
        for field in ("command",):
            argv = service.get(field)
            if argv and argv[0] == "clubman":
                used.add(argv[1])
        test = service["healthcheck"]["test"]
        if len(test) > 2 and test[1] == "clubman":
            used.add(test[2])
    cmd = re.search(r"^CMD (\[.*\])$", (ROOT / "Dockerfile").read_text(), re.MULTILINE)
    assert cmd is not None
    argv = json.loads(cmd.group(1))
    assert argv[0] == "clubman"
    used.add(argv[1])
    assert used <= _cli_commands(), used - _cli_commands()
    assert {"run", "portal", "doctor"} <= used


def test_dockerfile_copies_every_package() -> None:
    dockerfile = (ROOT / "Dockerfile").read_text()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = [p.rstrip("*") for p in project["tool"]["setuptools"]["packages"]["find"]["include"]]
    assert {"app", "adapters", "bot", "core", "scenarios", "storage", "portal"} <= set(packages)
    for package in packages:
        assert f"COPY {package} ./{package}" in dockerfile
    assert "apt-get install" in dockerfile and "chromium" in dockerfile
