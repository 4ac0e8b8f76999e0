"""Issue 16, "nothing the user sends is ignored", through the real aiogram stack on the
fake Bot API: captions are read as text, other media get a short answer, every button
press is answered, /settings arguments are checked."""

from __future__ import annotations

import pytest

from bot.callbacks import AnswerCb, LangCb
from storage import Storage
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram, SimUser, StoredMessage

TEXT_ONLY_RU = "Я понимаю только текст: напишите, что нужно, сообщением."
TEXT_ONLY_EN = "I understand text only: please type what you need."


async def test_a_photo_caption_is_read_as_the_command(tg: FakeTelegram, storage: Storage) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send_media("photo", caption="забронируй аудиторию")
        question = await user.wait_for_message()
        await user.send_media("document", caption="Шахматы")
        done = await user.wait_for_message(lambda m: "Забронирована" in (m.text or ""))
    assert question.text == "Для какого клуба?"
    assert done.text == "Забронирована 405 для клуба «Шахматы»"


@pytest.mark.parametrize("kind", ["sticker", "voice", "video", "document", "photo"])
async def test_media_without_text_gets_a_short_answer_in_the_users_language(
    tg: FakeTelegram, storage: Storage, kind: str
) -> None:
    anna = tg.user(1, "Анна", language_code="ru")
    john = tg.user(2, "John", language_code="en")
    async with running_bot(tg, storage):
        await anna.send_media(kind)
        await john.send_media(kind)
        ru = await anna.wait_for_message()
        en = await john.wait_for_message()
    assert (ru.text, en.text) == (TEXT_ONLY_RU, TEXT_ONLY_EN)


async def settings_panel(user: SimUser) -> StoredMessage:
    await user.send("/settings")
    return await user.wait_for_message(lambda m: "Настройки" in (m.text or ""))


@pytest.mark.parametrize(
    "data",
    [
        "zz:whatever",  # no router knows the prefix
        "a:broken",  # our prefix, but not an AnswerCb
        LangCb(lang="de").pack(),  # a LangCb the settings router does not take
        AnswerCb(run="gone00", seq=1, opt="chess").pack(),  # a run that does not exist
    ],
)
async def test_every_button_press_is_answered(
    tg: FakeTelegram, storage: Storage, data: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        panel = await settings_panel(user)
        answer = await user.wait_for_answer(user.press(data, message_id=panel.message_id))
    assert answer.text in ("Эта кнопка больше не действует.", "Этот вопрос уже закрыт.")
    assert answer.show_alert is False


@pytest.mark.parametrize("argument", ["Mars/Phobos", "fr", "x" * 4096, "../../etc/passwd"])
async def test_an_unknown_settings_argument_is_answered_with_the_choices(
    tg: FakeTelegram, storage: Storage, argument: str
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send(f"/settings {argument}")
        polite = await user.wait_for_message()
        panel = await user.wait_for_message()
    assert polite.text is not None and polite.text.startswith("Не понял «")
    assert "/settings ru, /settings en" in polite.text and len(polite.text) < 300
    assert "Часовой пояс: Europe/Moscow" in (panel.text or "")
    assert "Русский" in panel.labels[0] and "Novosibirsk" in panel.labels
    settings = await storage.users.get(user.id)
    assert settings is None or settings.timezone in (None, "Europe/Moscow")


async def test_a_settings_zone_is_taken_whatever_its_case(
    tg: FakeTelegram, storage: Storage
) -> None:
    user = tg.user(1, "Анна", language_code="ru")
    async with running_bot(tg, storage):
        await user.send("/settings europe/berlin")
        reply = await user.wait_for_message()
    assert reply.text == "Часовой пояс: Europe/Berlin."
