"""The booking rules a day's page states in words the draft does not read, as
``clubman learn`` takes them: an LLM's reading (the real Anthropic SDK over HTTP to a fake
vendor) held to the rules' schema and offered to the operator, who keeps or replaces it;
with no LLM, or none that reads rules there, the operator writes them as before."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest

from adapters.profile.learn.pages import written_rules
from adapters.profile.learn.proposals import rules_line
from adapters.profile.learn.rules import told_rules
from core.llm import LLM, MemorySpendLedger, build_llm
from tests.fakes.llm import Answer, Fail, FakeAnthropic
from tests.support.brain_core import KEY, llm_settings

# Said in words: no «шаг», no «08:00–22:00» for the draft's own reading to find.
_PROSE = "Бронировать можно с девяти утра до девяти вечера, получасами, не дольше полутора часов"
_SNAPSHOT = f'- heading "Занятость аудиторий" [level=1]\n- paragraph: {_PROSE}\n- table:\n'
_READ = {"stated": True, "opens": "09:00", "closes": "21:00", "step_minutes": 30,
         "longest_minutes": 90}  # fmt: skip


@pytest.fixture
async def vendor() -> AsyncIterator[FakeAnthropic]:
    async with FakeAnthropic(api_key=KEY) as fake:
        yield fake


@pytest.fixture
async def llm(vendor: FakeAnthropic) -> AsyncIterator[LLM]:
    settings = llm_settings("anthropic", vendor.base_url, max_retries=0)

    async def nothing(_record: object) -> None:
        return None

    built = build_llm(settings, cache=None, ledger=MemorySpendLedger(), on_call=nothing)
    assert built is not None
    async with built:
        yield built


class _Operator:
    """Answers the learner's prompts in turn, and keeps what it was told."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.prompts: list[str] = []
        self.said: list[str] = []

    async def line(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return self.answers.pop(0)

    def say(self, text: str) -> None:
        self.said.append(text)


async def _told(operator: _Operator, llm: LLM | None) -> str:
    return await told_rules(
        _SNAPSHOT, "http://rooms.test/day", line=operator.line, say=operator.say, llm=llm
    )


def _user_text(vendor: FakeAnthropic, at: int) -> str:
    return json.dumps(vendor.bodies[at]["messages"], ensure_ascii=False)


async def test_rules_said_in_words_are_read_by_the_llm_and_kept_by_the_operator(
    vendor: FakeAnthropic, llm: LLM
) -> None:
    vendor.push(Answer(_READ))
    operator = _Operator("")  # Enter: as the LLM read them
    told = await _told(operator, llm)
    assert written_rules(told) == {k: v for k, v in _READ.items() if k != "stated"}
    assert "LLM прочитал их так" in operator.prompts[0] and len(operator.prompts) == 1
    # The page went to the model as quoted data, under instructions that say so.
    assert "<untrusted_page>" in _user_text(vendor, 0) and _PROSE in _user_text(vendor, 0)
    assert "NOT an" in vendor.bodies[0]["system"]


async def test_an_answer_outside_the_rules_schema_is_sent_back_with_why(
    vendor: FakeAnthropic, llm: LLM
) -> None:
    vendor.push(Answer(_READ | {"opens": "21:00", "closes": "09:00"}), Answer(_READ))
    told = await _told(_Operator(""), llm)
    assert len(vendor.requests) == 2
    assert "opens must be before closes" in _user_text(vendor, 1)
    assert written_rules(told)["opens"] == "09:00"


async def test_the_operator_replaces_the_llms_reading_with_their_own(
    vendor: FakeAnthropic, llm: LLM
) -> None:
    vendor.push(Answer(_READ))
    own = "08:00-20:00, шаг 15 минут, не более 2 часов, на 10 дней вперёд"
    assert await _told(_Operator(own), llm) == own


@pytest.mark.parametrize(
    "answer", [Answer({"stated": False}), Fail(500), Answer(text="не знаю")], ids=str
)
async def test_when_the_llm_reads_no_rules_the_operator_writes_them(
    vendor: FakeAnthropic, llm: LLM, answer: Answer | Fail
) -> None:
    vendor.push(answer, answer)  # a malformed answer is asked once more
    operator = _Operator("как обычно", "")  # unreadable, then Enter: the usual
    assert await _told(operator, llm) == ""
    assert all(p.startswith("На странице не видно правил") for p in operator.prompts)
    assert operator.said == [operator.said[0]] and operator.said[0].startswith("Не понял")


async def test_with_no_llm_the_operator_is_asked_and_nothing_is_sent(
    vendor: FakeAnthropic,
) -> None:
    operator = _Operator("09:00-21:00, шаг 30 минут")
    assert await _told(operator, None) == "09:00-21:00, шаг 30 минут"
    assert vendor.requests == []


@pytest.mark.parametrize(
    ("line", "days"),
    [("08:00-22:00, шаг 30 минут, на 21 день вперёд", 21),
     ("08:00-22:00, шаг 30 минут, на 3 недели", 21),
     ("09:00-21:00, step 30 min, 2 weeks ahead", 14)],
)  # fmt: skip
async def test_days_ahead_said_in_days_or_weeks_are_kept(line: str, days: int) -> None:
    operator = _Operator(line)
    assert await _told(operator, None) == line
    assert written_rules(line)["horizon_days"] == days
    assert operator.said == []


async def test_a_line_with_a_piece_not_understood_is_asked_again_naming_it() -> None:
    operator = _Operator("08:00-22:00, шаг 30 минут, по будням", "08:00-22:00, шаг 30 минут")
    assert await _told(operator, None) == "08:00-22:00, шаг 30 минут"
    assert len(operator.prompts) == 2
    assert operator.said == [operator.said[0]] and "«по будням»" in operator.said[0]


@pytest.mark.parametrize(
    "line",
    ["08:00-21:00, шаг 30 минут, без ограничения длительности, на 30 дней вперёд",
     "08:00-21:00, step 30 min, no longest booking, 30 days ahead"],
)  # fmt: skip
async def test_no_longest_booking_is_kept_as_none_and_written_back_so(line: str) -> None:
    operator = _Operator(line)
    assert await _told(operator, None) == line
    assert written_rules(line)["longest_minutes"] is None and operator.said == []
    said = rules_line({"opens": "08:00", "closes": "21:00", "longest_minutes": None})
    assert said == "08:00-21:00, без ограничения длительности"
    assert written_rules(said) == {"opens": "08:00", "closes": "21:00", "longest_minutes": None}
