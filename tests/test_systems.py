"""``PORTAL__KIND`` → adapter (``app/systems.py``): the reference portal's kind is the
profile adapter on the shipped profile, healed in a copy under ``DATA_DIR``."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.profile import ProfileSystem
from adapters.profile.history import ProfileHistory
from app import systems
from app.systems import choose_system, words_file
from core.settings import PortalSettings

URL = "http://127.0.0.1:9"


def _shipped(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "refportal.yaml").write_text(text, encoding="utf-8")
    return folder


def test_refportal_is_the_profile_adapter_on_the_shipped_profile() -> None:
    system = choose_system(PortalSettings(kind="refportal"), URL)
    assert isinstance(system, ProfileSystem)
    assert system.loaded.file == str(systems.SHIPPED_PROFILES / "refportal.yaml")
    main = system.loaded.profile.catalogue.words["main"]  # the portal's words are in it
    assert (main.name_en, "гк" in main.words) == ("Main building", True)


def test_refportal_words_file_is_only_the_users_own(tmp_path: Path) -> None:
    """Users' ``PORTAL__PROFILE`` for this kind stays a file of more words (TOML)."""
    assert words_file(PortalSettings(kind="refportal")) is None
    words = tmp_path / "words.toml"
    assert words_file(PortalSettings(kind="refportal", profile=words)) == words


def test_a_shipped_profile_runs_from_a_copy_in_the_data_dir(tmp_path: Path) -> None:
    shipped = systems.SHIPPED_PROFILES / "refportal.yaml"
    before = shipped.read_text(encoding="utf-8")
    system = choose_system(PortalSettings(kind="refportal"), URL, data_dir=tmp_path)
    working = tmp_path / "profiles" / "refportal.yaml"
    assert isinstance(system, ProfileSystem)
    assert system.loaded.file == str(working)
    assert working.read_text(encoding="utf-8") == before
    assert shipped.read_text(encoding="utf-8") == before  # the package's file untouched


def test_a_healed_copy_is_kept_until_a_release_changes_the_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (systems.SHIPPED_PROFILES / "refportal.yaml").read_text(encoding="utf-8")
    monkeypatch.setattr(systems, "SHIPPED_PROFILES", _shipped(tmp_path / "pkg", text))
    data = tmp_path / "data"
    choose_system(PortalSettings(kind="refportal"), URL, data_dir=data)
    working = data / "profiles" / "refportal.yaml"
    healed = text.replace("name: Reference portal", "name: Reference portal healed")
    assert healed != text
    ProfileHistory(working).write(healed, made_by="исправлен: бронирование")

    choose_system(PortalSettings(kind="refportal"), URL, data_dir=data)  # a restart
    assert working.read_text(encoding="utf-8") == healed

    released = text.replace("name: Reference portal", "name: Reference portal 2")
    _shipped(tmp_path / "pkg", released)
    system = choose_system(PortalSettings(kind="refportal"), URL, data_dir=data)
    assert isinstance(system, ProfileSystem)
    assert system.loaded.profile.name == "Reference portal 2"
    versions = ProfileHistory(working).versions()
    assert [v.made_by for v in versions][-1] == "новая версия из пакета"
    assert ProfileHistory(working).text(versions[-2].number) == healed  # to revert to


def test_an_unhealed_copy_follows_a_new_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = (systems.SHIPPED_PROFILES / "refportal.yaml").read_text(encoding="utf-8")
    monkeypatch.setattr(systems, "SHIPPED_PROFILES", _shipped(tmp_path / "pkg", text))
    data = tmp_path / "data"
    choose_system(PortalSettings(kind="refportal"), URL, data_dir=data)
    released = text.replace("name: Reference portal", "name: Reference portal 2")
    _shipped(tmp_path / "pkg", released)
    choose_system(PortalSettings(kind="refportal"), URL, data_dir=data)
    working = data / "profiles" / "refportal.yaml"
    assert working.read_text(encoding="utf-8") == released
    assert ProfileHistory(working).versions() == []
