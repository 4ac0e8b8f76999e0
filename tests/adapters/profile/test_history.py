"""A profile's history keeps beside its versions the LLM's picks a step rejected (issue 65,
5): the adapter names the file (``NAME.history/rejected.json``) and what a version is (a
hash of the place's part), and hands them to ``core.brain.RejectedPicks``, which names no
adapter's layout."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from adapters.profile.history import ProfileHistory

WRONG = "role=link name=«Назад к аудиториям»"


class Part(BaseModel):
    submit: str


class Profile(BaseModel):
    login: Part
    book: Part


PROFILE = Profile(login=Part(submit="Войти"), book=Part(submit="Забронировать"))


def profile_file(tmp_path: Path) -> Path:
    path = tmp_path / "site.yaml"
    path.write_text("name: site\n", encoding="utf-8")
    return path


def test_a_rejection_is_kept_for_the_next_session_beside_the_profiles_versions(
    tmp_path: Path,
) -> None:
    file = profile_file(tmp_path)
    ProfileHistory(file).rejected_picks(PROFILE).keep("book.submit", WRONG)

    later = ProfileHistory(file).rejected_picks(PROFILE)

    assert later.get("book.submit") == [WRONG]
    assert (tmp_path / "site.history" / "rejected.json").is_file()
    assert ProfileHistory(file).versions() == []  # a rejection is not a version


def test_it_holds_for_the_version_of_its_part_only(tmp_path: Path) -> None:
    file = profile_file(tmp_path)
    ProfileHistory(file).rejected_picks(PROFILE).keep("book.submit", WRONG)
    login_healed = PROFILE.model_copy(update={"login": Part(submit="Вход")})
    book_healed = PROFILE.model_copy(update={"book": Part(submit="Отправить заявку")})

    assert ProfileHistory(file).rejected_picks(login_healed).get("book.submit") == [WRONG]
    assert ProfileHistory(file).rejected_picks(book_healed).get("book.submit") is None


def test_a_profile_not_read_from_a_file_keeps_them_for_the_session(tmp_path: Path) -> None:
    unread = tmp_path / "profile"  # a profile given as text: no file, no history
    picks = ProfileHistory(unread).rejected_picks(PROFILE)
    picks.keep("book.submit", WRONG)
    assert picks["book.submit"] == [WRONG]
    assert ProfileHistory(unread).rejected_picks(PROFILE) == {}
    assert not list(tmp_path.iterdir())
