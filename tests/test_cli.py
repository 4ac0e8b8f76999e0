"""``clubman`` as a user runs it: real processes, real exit codes, one clear line on errors."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from storage.process import free_port

CLUBMAN = str(Path(sys.executable).parent / "clubman")


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "REDIS_URL")}
    full_env.update(env or {})
    return subprocess.run(
        [CLUBMAN, *args], capture_output=True, text=True, env=full_env, timeout=120
    )


def test_help_lists_the_commands() -> None:
    result = run("--help")
    assert result.returncode == 0
    for command in ("doctor", "chat", "demo", "portal"):
        assert command in result.stdout


def test_doctor_passes_with_zero_config(tmp_path: Path) -> None:
    result = run("doctor", env={"DATA_DIR": str(tmp_path)})
    assert result.returncode == 0, result.stdout + result.stderr
    assert "✓ mongodb: local SecantusDB" in result.stdout
    assert "✓ redis: in-process fakeredis" in result.stdout
    assert "✓ chromium" in result.stdout


def test_malformed_uri_is_one_clear_line(tmp_path: Path) -> None:
    result = run("doctor", env={"MONGODB_URI": "localhost:27017", "DATA_DIR": str(tmp_path)})
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "MONGODB_URI" in lines[0] and "mongodb://" in lines[0]
    assert "Traceback" not in result.stderr


def test_unreachable_redis_is_reported_with_a_fix(tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    result = run("doctor", env={"REDIS_URL": url, "DATA_DIR": str(tmp_path)})
    assert result.returncode == 1
    assert "✗ storage: cannot reach Redis at 127.0.0.1" in result.stdout
    assert "fix: start redis-server or fix REDIS_URL" in result.stdout
    assert "Traceback" not in result.stdout + result.stderr


def test_missing_chromium_is_reported_with_a_fix(tmp_path: Path) -> None:
    result = run(
        "doctor", env={"BROWSER__EXECUTABLE": "/nonexistent/chromium", "DATA_DIR": str(tmp_path)}
    )
    assert result.returncode == 1
    assert "✗ chromium: BROWSER__EXECUTABLE=/nonexistent/chromium does not exist" in result.stdout
    assert "fix:" in result.stdout


def test_bot_token_without_allow_list_is_flagged(tmp_path: Path) -> None:
    result = run("doctor", env={"TELEGRAM__TOKEN": "123:abc", "DATA_DIR": str(tmp_path)})
    assert result.returncode == 1
    assert "TELEGRAM__ALLOWED_USERS is empty" in result.stdout
    assert "123:abc" not in result.stdout + result.stderr


def test_mcp_without_the_bots_storage_or_with_a_bad_listen_address_is_one_line(
    tmp_path: Path,
) -> None:
    alone = run("mcp", env={"DATA_DIR": str(tmp_path)})
    assert alone.returncode == 2
    assert "MONGODB_URI" in alone.stderr and "Traceback" not in alone.stderr
    bad = run("mcp", "--http", "localhost", env={"DATA_DIR": str(tmp_path)})
    assert bad.returncode == 2
    assert "HOST:PORT" in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_mcp_token_refuses_what_is_no_persons_id_in_one_line(tmp_path: Path) -> None:
    """A group's id (negative), zero and an id past 52 bits: refused before any storage."""
    for user_id in ("-1001234567890", "0", "9" * 40):
        done = run("mcp-token", "--", user_id, env={"DATA_DIR": str(tmp_path)})
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "is no Telegram user id" in lines[0], done.stderr
        assert "Traceback" not in done.stderr and done.stdout == ""
