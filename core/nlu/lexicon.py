"""The keyword vocabulary and its matcher: a word → its sense (concept, value, argument).

A ``Lexicon`` is built from parts (``Words``): a job's own words first, then the engine's
(``ENGINE_WORDS``: dates, times, numbers, counts, rooms and people, yes and no). A form
two parts claim means what the first part says, so a job's word wins over the engine's
(«нужно» is the booking job's «need», not a «yes»). The engine's own lexicon is
``engine_lexicon()``; a job builds its own once (the booking job's: ``scenarios.booking``).

Lookup order, fastest first: exact word form → Russian Snowball stem → fuzzy match
(optimal string alignment distance 1, or 2 for words of 8+ letters, via rapidfuzz) so
that a missing, doubled or swapped letter («бронирй», «четврег») still matches.
Common words that are one typo away from a keyword («среди», "there") never match fuzzily.
Results are cached per word. Buildings are not here: they come from the booking system's
catalogue at run time (``places``), which reuses ``stem``, ``typo_limit`` and the engine's
``is_keyword``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import NamedTuple

import snowballstemmer
from rapidfuzz import process
from rapidfuzz.distance import OSA

from core.nlu.numbers import NUMBER_WORDS

__all__ = ["ENGINE_WORDS", "Lexicon", "Sense", "Words", "engine_lexicon", "stem", "typo_limit"]


class Sense(NamedTuple):
    concept: str
    value: float | None = None
    arg: str | None = None


class Words(NamedTuple):
    """One part of a lexicon: concept → space-separated word forms, and multi-word
    expressions («друг с другом») matched on exact words before single words."""

    concepts: tuple[tuple[str, str], ...]
    phrases: tuple[tuple[str, Sense], ...] = ()


ENGINE_WORDS = Words(
    concepts=(
        (
            "ROOM",
            "аудитория аудиторию аудитории аудиторий аудиториях аудиториями аудитор ауд комната "
            "комнату комнаты комнат кабинет кабинета кабинеты кабинетов помещение помещения "
            "класс room rooms classroom classrooms auditorium",
        ),
        ("EVERY", "каждый каждую каждое каждые каждого every each"),
        ("WEEKLY", "еженедельно еженедельная еженедельную weekly"),
        (
            "HELP",
            "help помощь помоги помогите справка хелп команды команд commands умеешь умеет "
            "пользоваться инструкция инструкцию возможности функции функционал руководство "
            "памятка instructions usage guide manual tutorial features capabilities",
        ),
        ("TODAY", "сегодня седня today tonight"),
        ("TOMORROW", "завтра tomorrow tmrw tmr"),
        ("AFTER_TOMORROW", "послезавтра"),
        ("YESTERDAY", "вчера yesterday"),
        ("THIS", "этот эту это этой this ближайший ближайшую ближайшее coming"),
        ("NEXT", "следующий следующую следующее следующей next"),
        ("LAST", "прошлый прошлую прошлое прошлой прошедший last previous"),
        ("FROM", "с со from between между c"),
        ("TO", "до по to till until"),
        ("AND", "и and"),
        ("AT", "в во at @ к"),
        ("FOR", "на for"),
        ("IN", "через in"),
        ("HOUR", "час часа часов часик hour hours hr hrs h ч"),
        ("HALF_HOUR", "полчаса"),
        ("ONE_HALF", "полтора полторы"),
        ("HALF", "half половиной"),
        ("MINUTE", "минута минуту минуты минут мин minute minutes min mins"),
        ("DAY", "день дня дней сутки day days"),
        ("WEEK", "неделя неделю недели недель week weeks"),
        (
            "PEOPLE",
            "человек человека людей чел участников студентов гостей мест места персон персоны "
            "слушателей посетителей зрителей членов people persons person pax guests students "
            "participants seats seat attendees ppl folks members visitors",
        ),
        ("CAPACITY", "вместимость вместимостью вместимости capacity"),
        (
            "ADJ",
            "рядом подряд соседние соседних соседними соседнюю смежные смежных вплотную "
            "adjacent neighbouring neighboring consecutive contiguous nearby",
        ),
        ("AM", "am утра morning"),
        ("PM", "pm вечера дня evening afternoon"),
        ("NIGHT", "ночи"),
        ("EVENING", "вечером вечерком"),
        ("MORNING", "утром"),
        ("NOON", "полдень полудня noon midday"),
        ("ROOMNO", "№ номер номера number no"),
        ("ART", "a an"),
        ("WORKDAYS", "будням будни weekdays workdays"),
        ("WEEKENDS", "выходным выходные weekends"),
        ("YES", "да ага yes yeah yep sure конечно нужно"),
        ("NO", "нет не неважно любые no nope any"),
    ),
    phrases=(
        ("what can you do", Sense("HELP")),
        ("что ты умеешь", Sense("HELP")),
        ("что умеешь", Sense("HELP")),
        ("что ты можешь", Sense("HELP")),
        ("как пользоваться", Sense("HELP")),
        ("how does this work", Sense("HELP")),
        ("how does it work", Sense("HELP")),
        ("how to use", Sense("HELP")),
        ("how do i use", Sense("HELP")),
        ("how do you work", Sense("HELP")),
        ("what do you do", Sense("HELP")),
        ("who are you", Sense("HELP")),
        ("what can i ask", Sense("HELP")),
        ("кто ты", Sense("HELP")),
        ("не понимаю", Sense("HELP")),
        ("не понял как", Sense("HELP")),
        ("как работать", Sense("HELP")),
        ("как ты работаешь", Sense("HELP")),
        ("что можно делать", Sense("HELP")),
        ("что ты делаешь", Sense("HELP")),
        ("don't understand", Sense("HELP")),
        ("do not understand", Sense("HELP")),
        ("i'm lost", Sense("HELP")),
        ("how does this bot work", Sense("HELP")),
        ("what are you able to do", Sense("HELP")),
        ("what is this bot", Sense("HELP")),
        ("getting started", Sense("HELP")),
        ("что это за бот", Sense("HELP")),
        ("что ты такое", Sense("HELP")),
        ("как это работает", Sense("HELP")),
        ("next to each other", Sense("ADJ")),
        ("next to one another", Sense("ADJ")),
        ("side by side", Sense("ADJ")),
        ("in a row", Sense("ADJ")),
        ("close together", Sense("ADJ")),
        ("друг с другом", Sense("ADJ")),
        ("друг за другом", Sense("ADJ")),
        ("один за другим", Sense("ADJ")),
        ("the day after tomorrow", Sense("AFTER_TOMORROW")),
        ("day after tomorrow", Sense("AFTER_TOMORROW")),
        ("in the morning", Sense("MORNING")),
        ("in the evening", Sense("EVENING")),
        ("in the afternoon", Sense("PM")),
        ("half an hour", Sense("HALF_HOUR")),
        ("пол часа", Sense("HALF_HOUR")),
        ("a half hour", Sense("HALF_HOUR")),
        ("a couple of", Sense("NUM", 2)),
        ("couple of", Sense("NUM", 2)),
        ("every week", Sense("WEEKLY")),
        ("каждую неделю", Sense("WEEKLY")),
        ("every day", Sense("DAILY")),
        ("каждый день", Sense("DAILY")),
        ("o'clock", Sense("OCLOCK")),
    ),
)

_WEEKDAY_WORDS: tuple[tuple[str, str, str], ...] = (
    # singular forms, plural/dative forms (→ recurrence)
    (
        "mon",
        "понедельник понедельника понедельнике пн monday mon",
        "понедельникам понедельники mondays",
    ),
    ("tue", "вторник вторника вторнике вт tuesday tue tues", "вторникам вторники tuesdays"),
    ("wed", "среда среду среды среде ср wednesday wed", "средам wednesdays"),
    ("thu", "четверг четверга четверге чт thursday thu thur thurs", "четвергам четверги thursdays"),
    ("fri", "пятница пятницу пятницы пятнице пт friday fri", "пятницам пятницы fridays"),
    ("sat", "суббота субботу субботы субботе сб saturday sat", "субботам субботы saturdays"),
    ("sun", "воскресенье воскресенья вс sunday sun", "воскресеньям sundays"),
)

_MONTH_WORDS: tuple[str, ...] = (
    "январь января jan january",
    "февраль февраля feb february",
    "март марта mar march",
    "апрель апреля apr april",
    "май мая may",
    "июнь июня jun june",
    "июль июля jul july",
    "август августа aug august",
    "сентябрь сентября sep sept september",
    "октябрь октября oct october",
    "ноябрь ноября nov november",
    "декабрь декабря dec december",
)

# Real words one typo away from a keyword: never corrected.
_NOT_TYPOS_TEXT = (
    "среди через может можно есть будет было такой такие также тоже здесь хорошо спасибо "
    "погода погоду погоды новости дела делаешь пока почему сколько когда кто "
    "there these those where other their about after could would should think thing "
    "things thanks three hello world weather today's rooms' hours starting started starts "
    "standard stunning"
)
_NOT_TYPOS = frozenset(_NOT_TYPOS_TEXT.split())
_STEM_MIN = 4
# Colloquial forms taken as written but never as the target of a typo («сгдня» is no «седня»).
_EXACT_ONLY = frozenset({"седня"})
# Read by their exact forms only: short words, and «каждый», whose «каждая» agrees with rooms
# («две аудитории … каждая в пятницу»), never with a weekday.
_NO_STEMS = frozenset({"NUM", "TO", "FROM", "AT", "FOR", "EVERY"})


class Lexicon:
    """Words from ``parts`` (first part first) and the engine's, with weekday, month and
    number words; built once per product or job, as its tables take milliseconds."""

    def __init__(self, *parts: Words) -> None:
        every = (*parts, ENGINE_WORDS)
        self.exact = _exact_table(every)
        self.stems = _stem_table(self.exact)
        # A typo as close to an engine word as to a job's is the engine's («комант»: «комнат»
        # rooms, not «команд» commands): the engine's words are the ones every job reads.
        typos = {**_exact_table((ENGINE_WORDS,)), **self.exact}
        self.fuzzy = tuple(w for w in typos if len(w) >= 5 and w not in _EXACT_ONLY)
        self.phrases = _phrases_by_first_word(every)
        self._candidates: dict[tuple[int, int], tuple[str, ...]] = {}
        self._senses: dict[str, Sense | None] = {}

    def is_keyword(self, word: str) -> bool:
        """Whether ``word`` is exactly one of the vocabulary's forms (so it means that, always)."""
        return word in self.exact

    def sense_of(self, word: str) -> Sense | None:
        """The sense of one normalized word, or ``None`` if it is not in the vocabulary."""
        try:
            return self._senses[word]
        except KeyError:
            pass
        if len(self._senses) >= _CACHE_LIMIT:
            self._senses.clear()
        found = self._senses[word] = self._look_up(word)
        return found

    def forget(self) -> None:
        """Drop the per-word cache (a cold-start measurement)."""
        self._senses.clear()

    def phrase_at(self, words: list[str], i: int) -> tuple[int, Sense] | None:
        """The longest expression starting at ``words[i]``: its length in words and sense."""
        for phrase, sense in self.phrases.get(words[i], ()):
            n = len(phrase)
            if tuple(words[i : i + n]) == phrase:
                return n, sense
        return None

    def _look_up(self, word: str) -> Sense | None:
        found = self.exact.get(word)
        if found is not None:
            return found
        if word in _NOT_TYPOS or len(word) < 4:
            return None
        if _is_cyrillic(word):
            found = self.stems.get(stem(word))
            if found is not None:
                return found
        limit = typo_limit(word)
        if not limit:
            return None
        near = self._typo_candidates(len(word), limit)
        match = process.extractOne(word, near, scorer=OSA.distance, score_cutoff=limit)
        if match is None:
            return None
        return self.exact[match[0]]

    def _typo_candidates(self, length: int, limit: int) -> tuple[str, ...]:
        """The fuzzy forms a word of ``length`` letters can be within ``limit`` edits of, in
        vocabulary order (so ties resolve as before). An edit changes the length by at most
        one, so the others can never match; skipping them halves the cost of each lookup."""
        key = (length, limit)
        found = self._candidates.get(key)
        if found is None:
            found = self._candidates[key] = tuple(
                w for w in self.fuzzy if abs(len(w) - length) <= limit
            )
        return found


_CACHE_LIMIT = 8192


def _forms(parts: tuple[Words, ...]) -> Iterator[tuple[str, Sense]]:
    for part in parts:
        for concept, forms in part.concepts:
            for form in forms.split():
                yield form, Sense(concept)
    for word, n in NUMBER_WORDS.items():
        yield word, Sense("NUM", n)
    for code, singular, plural in _WEEKDAY_WORDS:
        for form in singular.split():
            yield form, Sense("WD", None, code)
        for form in plural.split():
            yield form, Sense("WDP", None, code)
    for month, forms in enumerate(_MONTH_WORDS, start=1):
        for form in forms.split():
            yield form, Sense("MONTH", month)


def _exact_table(parts: tuple[Words, ...]) -> dict[str, Sense]:
    table: dict[str, Sense] = {}
    for form, sense in _forms(parts):
        table.setdefault(form, sense)
    return table


def _stem_table(exact: dict[str, Sense]) -> dict[str, Sense]:
    stems: dict[str, Sense] = {}
    clashes: set[str] = set()
    for form, sense in exact.items():
        if not _is_cyrillic(form) or sense.concept in _NO_STEMS:
            continue
        key = stem(form)
        if len(key) < _STEM_MIN:
            continue
        if key in stems and stems[key] != sense:
            clashes.add(key)
        stems.setdefault(key, sense)
    for key in clashes:
        del stems[key]
    return stems


def _phrases_by_first_word(
    parts: tuple[Words, ...],
) -> dict[str, tuple[tuple[tuple[str, ...], Sense], ...]]:
    index: dict[str, list[tuple[tuple[str, ...], Sense]]] = {}
    for part in parts:
        for words, sense in part.phrases:
            phrase = tuple(words.split())
            index.setdefault(phrase[0], []).append((phrase, sense))
    # longest first, so "the day after tomorrow" wins over "day after tomorrow"
    return {w: tuple(sorted(c, key=lambda p: -len(p[0]))) for w, c in index.items()}


@lru_cache(maxsize=1)
def engine_lexicon() -> Lexicon:
    """The engine's words alone (an answer to a clarifying question, the places' keywords)."""
    return Lexicon()


@lru_cache(maxsize=1)
def _ru_stemmer() -> snowballstemmer.stemmer:
    return snowballstemmer.stemmer("russian")


def _is_cyrillic(word: str) -> bool:
    return any("а" <= ch <= "я" for ch in word)


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """The Russian Snowball stem of a Cyrillic word (~50 µs, hence cached); other words as is."""
    return _ru_stemmer().stemWord(word) if _is_cyrillic(word) else word


def typo_limit(word: str) -> int:
    """How many edits a typo in ``word`` may have (0: never corrected, short or a real word)."""
    if len(word) < 5 or word in _NOT_TYPOS:
        return 0
    return 2 if len(word) >= 8 else 1
