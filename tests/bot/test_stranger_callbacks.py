"""A button tap from someone not on the allow list (issue 31): the allow-list tests only
sent messages, so letting callbacks through survived them. Through the fake Telegram
server to the real bot on real storage: in a club's group, a stranger who is even the
group's administrator (whose tap the group rules would accept) taps the buttons under a
member's question; the tap is answered with nothing, and nothing changes."""

from __future__ import annotations

from core.store import RunStatus
from core.texts import Bot, tr
from storage import Storage
from tests.bot.support import running_bot
from tests.fakes.telegram import FakeTelegram

GROUP = -100_777


async def test_a_strangers_taps_under_a_members_question_change_nothing(
    tg: FakeTelegram, storage: Storage
) -> None:
    anna = tg.member(GROUP, 501, "Анна", language_code="ru")
    eve = tg.member(GROUP, 666, "Eve", admin=True, language_code="en")
    async with running_bot(tg, storage, allowed=[anna.id]):
        await anna.send("забронируй аудиторию")
        question = await anna.wait_for_message(lambda m: "Шахматы" in m.labels)
        (run,) = await storage.runs.active_for_chat(GROUP)
        shown = len(tg.messages(GROUP))

        tapped = await eve.wait_for_answer(await eve.tap("Шахматы", message_id=question.message_id))
        cancel = await eve.wait_for_answer(await eve.tap("Отмена", message_id=question.message_id))
        forged = await eve.wait_for_answer(
            eve.press("no-such-button", message_id=question.message_id)
        )

        # Each tap only stopped the spinner: no text, no alert, nothing sent to the group.
        assert [(a.text, a.show_alert) for a in (tapped, cancel, forged)] == [(None, False)] * 3
        assert len(tg.messages(GROUP)) == shown
        still = await storage.runs.get(run.short_id)
        assert still is not None and still.status is RunStatus.COLLECTING
        assert "club" not in still.slots and still.question is not None
        kept = tg.state.find(GROUP, question.message_id)
        assert kept is not None and kept.labels == question.labels

        # The question is still Анна's to answer, with the very buttons the stranger tapped.
        mine = await anna.wait_for_answer(await anna.tap("Театр", message_id=question.message_id))
        done = await anna.wait_for_message(lambda m: "Забронирована 405" in (m.text or ""))
    assert mine.text == "Принято: Театр"
    assert "«Театр»" in (done.text or "")


async def test_a_strangers_tap_does_not_use_up_the_one_refusal(
    tg: FakeTelegram, storage: Storage
) -> None:
    """The tap says nothing, and the stranger's first message still gets the refusal."""
    anna = tg.member(GROUP, 501, "Анна", language_code="ru")
    eve = tg.member(GROUP, 666, "Eve", language_code="en")
    async with running_bot(tg, storage, allowed=[anna.id]):
        await anna.send("забронируй аудиторию")
        question = await anna.wait_for_message(lambda m: "Шахматы" in m.labels)
        await eve.wait_for_answer(await eve.tap("Шахматы", message_id=question.message_id))
        await eve.send("hello")
        refusal = await eve.wait_for_message(lambda m: "666" in (m.text or ""))
    assert refusal.text == tr(Bot.REFUSAL, "en", user_id=666)
