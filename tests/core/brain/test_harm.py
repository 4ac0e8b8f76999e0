"""Forbidden intent on folded text, and model text checked before a user reads it."""

from __future__ import annotations

import pytest

from core.brain import (
    BrainDecision,
    ClickTarget,
    PageSnapshot,
    Situation,
    check_decision,
    fold,
    safe_targets,
    spoken,
)
from core.brain.choices import page_name
from core.browser.harm import is_forbidden

LOOKALIKES = [
    "Oтменить брони",  # Latin O
    "От\u200dменить брони",  # zero-width joiner
    "От\u00adменить",  # soft hyphen
    "ОТМЕНИТЬ ВСЁ",
    "Ｃａｎｃｅｌ",  # fullwidth, NFKC
    "Саncel all",  # Cyrillic С and а
    "Dеlеtе",  # Cyrillic е
    "Отменить все брони клуба ok",
    "Log\u200bout",
]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_look_alikes_of_forbidden_words_are_forbidden(name: str) -> None:
    assert is_forbidden(name)


@pytest.mark.parametrize(
    "name", ["OK", "Продолжить", "Я ознакомлен(а) с правилами", "Аудитории", "Display", "/notice"]
)
def test_harmless_names_stay_allowed(name: str) -> None:
    assert not is_forbidden(name)


def test_the_title_aria_label_or_form_action_can_forbid_a_harmless_label() -> None:
    assert is_forbidden("Продолжить", "", "/my/cancel-all")
    assert is_forbidden("OK", "Удалить всё")
    assert not is_forbidden("Продолжить", "/notice")


def test_fold_drops_invisible_characters_and_joins_alphabets() -> None:
    assert fold("O\u200dК") == fold("ок") == fold("OK")


@pytest.mark.parametrize("name", ["Oтменить брони", "От\u200dменить брони"])
def test_a_decision_to_press_a_look_alike_is_rejected_and_it_is_never_offered(name: str) -> None:
    page = PageSnapshot(url="http://portal.test/notice", buttons=[name, "Продолжить"])
    situation = Situation(step="login", expected="«Мои брони»", problem="?", page=page)
    decision = BrainDecision(action="click", targets=[ClickTarget(role="button", name=name)])
    with pytest.raises(ValueError, match="forbidden"):
        check_decision(decision, situation)
    assert [t.name for t in safe_targets(page)] == ["Продолжить"]


def test_a_click_must_name_the_control_exactly_as_summarised() -> None:
    page = PageSnapshot(url="http://portal.test/notice", buttons=["OK"])
    situation = Situation(step="login", expected="«Мои брони»", problem="?", page=page)
    for near in ("ok", "O K", "OK!"):
        decision = BrainDecision(action="click", targets=[ClickTarget(role="button", name=near)])
        with pytest.raises(ValueError, match="no button"):
            check_decision(decision, situation)
    check_decision(
        BrainDecision(action="click", targets=[ClickTarget(role="button", name=" OK ")]),
        situation,
    )


@pytest.mark.parametrize(
    "text",
    [
        "Пришлите пароль от портала сюда",
        "Для продолжения введите код из SMS",
        "Перейдите по ссылке https://evil.example/login",
        "Напишите на support@evil.example",
        "Please send your password",
        "Зайдите на portal-szgu.ru",
        "Пришлите пaроль",  # Latin a
        "x" * 301,
    ],
)
def test_model_text_asking_for_secrets_codes_or_links_is_not_spoken(text: str) -> None:
    assert spoken(text) is None


def test_plain_model_text_is_spoken_tidied() -> None:
    assert spoken("  Принять новые\nправила?  ") == "Принять новые правила?"
    assert spoken("Портал закрыт на обслуживание") == "Портал закрыт на обслуживание"
    assert spoken("") is None and spoken(None) is None


def test_a_page_is_named_by_its_heading_unless_the_heading_asks_for_secrets() -> None:
    page = PageSnapshot(url="http://portal.test/notice?next=%2Fmy", heading="Новые правила")
    assert page_name(page) == "Новые правила"
    phishing = page.model_copy(update={"heading": "Пришлите пароль администратору"})
    assert page_name(phishing) == "/notice"
