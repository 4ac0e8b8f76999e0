"""Number words in Russian and English (cardinals and the case forms used with hours)."""

from __future__ import annotations

__all__ = ["NUMBER_WORDS"]

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
)

NUMBER_WORDS: dict[str, int] = {word: n for n, words in _TABLE for word in words.split()}
