"""Pure rendering: texts, keyboards, callback data sizes, long-text splitting."""

from __future__ import annotations

import pytest

from bot.callbacks import AnswerCb, CancelCb, OtherCb, RemindCb
from bot.keyboards import question_keyboard, settings_keyboard
from bot.render import error_text, progress_text, split_text, status_text
from core.output import Option, Progress, Question, RunView, StepState, StepView

WORST_RUN = "r" * 10


def _question(
    *, option_ids: list[str], allow_free_text: bool = True, seq: int = 7, lang: str = "ru"
) -> Question:
    return Question(
        chat_id=1,
        run_id=WORST_RUN,
        seq=seq,
        key="building",
        text="В каком корпусе?",
        options=[Option(id=o, label=f"label {o}") for o in option_ids],
        allow_free_text=allow_free_text,
        lang=lang,
    )


def _all_data(question: Question) -> list[str]:
    keyboard = question_keyboard(question)
    return [b.callback_data for row in keyboard.inline_keyboard for b in row if b.callback_data]


@pytest.mark.parametrize(
    "option_id",
    ["o" * 24, "Ч" * 24, "😀" * 24, "a:b" * 8],
    ids=["ascii", "cyrillic", "emoji", "separator"],
)
def test_callback_data_fits_64_bytes_for_worst_case_ids(option_id: str) -> None:
    for data in _all_data(_question(option_ids=[option_id], seq=10**9)):
        assert len(data.encode()) <= 64, data


def test_option_round_trips_through_callback_data() -> None:
    data = _all_data(_question(option_ids=["chaikovsky"]))[0]
    unpacked = AnswerCb.unpack(data)
    assert (unpacked.run, unpacked.seq, unpacked.opt) == (WORST_RUN, 7, "chaikovsky")


def test_long_non_ascii_option_drops_only_the_question_number() -> None:
    data = _all_data(_question(option_ids=["Ч" * 24], seq=123456))[0]
    unpacked = AnswerCb.unpack(data)
    assert unpacked.opt == "Ч" * 24
    assert unpacked.seq is None


@pytest.mark.parametrize("option_id", ["😀" * 24, "a:b", "#1"])
def test_option_id_that_cannot_travel_is_sent_as_its_index(option_id: str) -> None:
    data = _all_data(_question(option_ids=["first", option_id]))[1]
    unpacked = AnswerCb.unpack(data)
    assert (unpacked.seq, unpacked.opt) == (7, "#1")


def test_question_keyboard_has_other_only_with_free_text_and_always_cancel() -> None:
    with_free = question_keyboard(_question(option_ids=["a", "b"]))
    labels = [b.text for row in with_free.inline_keyboard for b in row]
    assert labels == ["label a", "label b", "Другое…", "Отмена"]
    without = question_keyboard(_question(option_ids=["a"], allow_free_text=False, lang="en"))
    labels = [b.text for row in without.inline_keyboard for b in row]
    assert labels == ["label a", "Cancel"]
    last_row = [b.callback_data for b in with_free.inline_keyboard[-1]]
    assert OtherCb.unpack(last_row[0] or "").run == WORST_RUN
    assert CancelCb.unpack(last_row[1] or "").run == WORST_RUN


def test_settings_keyboard_marks_current_choice_and_fits() -> None:
    keyboard = settings_keyboard(language="en", timezone="Asia/Novosibirsk", reminders=False)
    labels = [b.text for row in keyboard.inline_keyboard for b in row]
    assert "• English" in labels and "Русский" in labels and "• Novosibirsk" in labels
    assert "🔔 Remind me 1 hour before" in labels  # off: unmarked, a tap turns it on
    on = settings_keyboard(language="ru", timezone="UTC", reminders=True)
    remind = on.inline_keyboard[1][0]
    assert remind.text == "• 🔔 Напоминать за 1 час"
    assert RemindCb.unpack(remind.callback_data or "").on is False  # a tap turns it off
    assert all(
        len((b.callback_data or "").encode()) <= 64 for row in keyboard.inline_keyboard for b in row
    )


def test_progress_marks_steps_and_queue() -> None:
    steps = [
        StepView(name="a", label="Вход", state=StepState.DONE),
        StepView(name="b", label="Бронь", state=StepState.RUNNING),
        StepView(name="c", label="Проверка", state=StepState.FAILED),
    ]
    text = progress_text(
        Progress(chat_id=1, run_id="r", title="Бронирование", steps=steps, queued=True)
    )
    assert text == "Бронирование — в очереди\n✓ Вход\n⏳ Бронь\n✗ Проверка"


def test_status_lists_runs_and_waiting_questions() -> None:
    assert "ничего" in status_text([], "ru")
    run = RunView(
        run_id="abc", scenario="book", status="waiting", title="Бронь", steps=[], question="Когда?"
    )
    text = status_text([run], "en")
    assert "Бронь [abc]" in text and "waiting for an answer: Когда?" in text


def test_error_text_has_message_and_hint() -> None:
    assert error_text("unknown time zone 'X'", "use a name like Europe/Moscow", "ru") == (
        "Unknown time zone 'X'. Use a name like Europe/Moscow"
    )


def test_short_text_is_one_piece() -> None:
    assert split_text("hello") == ["hello"]


def test_split_prefers_paragraphs_then_lines() -> None:
    para = "a" * 3000
    text = f"{para}\n\n{para}\n\n{para}"
    pieces = split_text(text)
    assert pieces == [para, para, para]
    lines = "\n".join(f"line {i:04d}" for i in range(1000))  # no paragraph breaks
    pieces = split_text(lines)
    assert all(len(p) <= 4096 for p in pieces)
    assert "\n".join(pieces) == lines
    assert all(p.startswith("line ") for p in pieces)


def test_split_cuts_an_overlong_word_hard_and_loses_nothing() -> None:
    word = "x" * 10000
    pieces = split_text(word)
    assert [len(p) for p in pieces] == [4096, 4096, 1808]
    assert "".join(pieces) == word
