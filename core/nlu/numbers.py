"""Number words in Russian and English: cardinals (with the case forms used with hours),
multipliers («тысяча», "million": read, so «миллион аудиторий» is not taken for one)
and ordinals («седьмой», «в седьмом», "seventh"), which name numbered buildings."""

from __future__ import annotations

__all__ = ["MULTIPLIERS", "NUMBER_WORDS", "ORDINAL_WORDS"]

_TABLE: tuple[tuple[int, str], ...] = (
    (1, "один одна одну одно одного одной одним one"),
    (2, "два две двух двум двумя пару пара two couple"),
    (3, "три трех трем тремя three"),
    (4, "четыре четырех четырем four"),
    (5, "пять пяти five"),
    (6, "шесть шести six"),
    (7, "семь семи seven"),
    (8, "восемь восьми eight"),
    (9, "девять девяти nine"),
    (10, "десять десяти ten"),
    (11, "одиннадцать одиннадцати eleven"),
    (12, "двенадцать двенадцати twelve"),
    (13, "тринадцать тринадцати thirteen"),
    (14, "четырнадцать четырнадцати fourteen"),
    (15, "пятнадцать пятнадцати fifteen"),
    (16, "шестнадцать шестнадцати sixteen"),
    (17, "семнадцать семнадцати seventeen"),
    (18, "восемнадцать восемнадцати eighteen"),
    (19, "девятнадцать девятнадцати nineteen"),
    (20, "двадцать двадцати twenty"),
    (30, "тридцать тридцати thirty"),
    (40, "сорок сорока forty"),
    (50, "пятьдесят пятидесяти fifty"),
    (60, "шестьдесят шестидесяти sixty"),
    (70, "семьдесят семидесяти seventy"),
    (80, "восемьдесят восьмидесяти eighty"),
    (90, "девяносто девяноста ninety"),
    (100, "сто ста hundred"),
    (1000, "тысяча тысячи тысяч тысячу thousand thousands"),
    (10**6, "миллион миллиона миллионов millions million"),
    (10**9, "миллиард миллиарда миллиардов billion billions"),
)
MULTIPLIERS = frozenset({1000, 10**6, 10**9})  # «две тысячи»: the number before multiplies

NUMBER_WORDS: dict[str, int] = {word: n for n, words in _TABLE for word in words.split()}

# Ordinals: the Russian stem and its masculine ending («ый» or «ой»), then English.
_ORDINALS: tuple[tuple[int, str, str], ...] = (
    (1, "первый", "first"),
    (2, "второй", "second"),
    (4, "четвертый", "fourth"),
    (5, "пятый", "fifth"),
    (6, "шестой", "sixth"),
    (7, "седьмой", "seventh"),
    (8, "восьмой", "eighth"),
    (9, "девятый", "ninth"),
    (10, "десятый", "tenth"),
    (11, "одиннадцатый", "eleventh"),
    (12, "двенадцатый", "twelfth"),
    (13, "тринадцатый", "thirteenth"),
    (14, "четырнадцатый", "fourteenth"),
    (15, "пятнадцатый", "fifteenth"),
    (16, "шестнадцатый", "sixteenth"),
    (17, "семнадцатый", "seventeenth"),
    (18, "восемнадцатый", "eighteenth"),
    (19, "девятнадцатый", "nineteenth"),
    (20, "двадцатый", "twentieth"),
    (30, "тридцатый", "thirtieth"),
)
# Case and gender endings of an adjective like «седьмой»/«пятый» after its stem.
_ENDINGS = ("ого", "ому", "ым", "ом", "ая", "ой", "ую", "ое", "ые", "ых", "ыми")
# «третий» declines on its own.
_THIRD = "третий третьего третьему третьим третьем третья третьей третью третье третьи третьих"


def _ordinal_words() -> dict[str, int]:
    table: dict[str, int] = {word: 3 for word in _THIRD.split()}
    table["third"] = 3
    for n, masculine, english in _ORDINALS:
        stem = masculine[:-2]
        table[masculine] = n
        for ending in _ENDINGS:
            table[stem + ending] = n
        table[english] = n
    return table


ORDINAL_WORDS: dict[str, int] = _ordinal_words()
