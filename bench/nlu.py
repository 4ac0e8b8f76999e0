"""Benchmark the rule-based NLU: median and p99 parse time per command, and the worst
parse time of a 4096-character text (Telegram's longest message).

    python bench/nlu.py [--commands 5000] [--seed 1] [--long 4096]
    python bench/nlu.py --corpus [--misses]     accuracy on tests/nlu/corpus, both halves

Commands are a generated mix of Russian and English booking, listing, cancelling,
schedule, help and off-topic texts, with typos and varied case. Two passes are timed:
"cold" (every text new: per-word caches warm up as they would in a fresh process) and
"warm" (the same texts again, the steady state of a long-running bot). Buildings are the
reference portal's test catalogue (``tests.support.catalogues``); its ``Places`` is built
fresh for the cold pass, so its per-word cache starts empty too.

The long texts (issue 16) are adversarial: one digit run, one endless word, repeated
commands, ranges, signs, dots, unique made-up words (each a fuzzy lookup), random unicode.
Each is parsed cold (the whole-text, per-word and stemmer caches cleared)
five times and the least CPU time of this thread kept, since other jobs share the machine
and would otherwise be counted; the worst text, its time per 1 000 characters and the
growth from a quarter of the length show whether parsing stays linear.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.support

from core.nlu import Places  # noqa: E402
from core.nlu.analysis import forget_analyses  # noqa: E402
from core.nlu.lexicon import stem  # noqa: E402
from scenarios.booking.vocabulary import booking_lexicon, parse  # noqa: E402
from tests.support.catalogues import refportal_places  # noqa: E402

TZ = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 23, 10, 0, tzinfo=TZ)

_RU = {
    "verb": ["забронируй", "бронируй", "нужна", "хочу", "зарезервируй", "забронирй", "Забронируй"],
    "count": ["аудиторию", "две аудитории", "3 аудитории", "три аудитории", "пять комнат", ""],
    "adj": ["", "", "рядом", "подряд", "соседние", "рядом друг с другом"],
    "day": ["завтра", "послезавтра", "в этот четверг", "в следующую среду", "27 ноября",
            "27.11", "в пятницу", "сегодня", "через 2 дня", "в четврег", ""],
    "time": ["с 18 до 20", "с 9 до 11", "с 12:00 до 13:30", "в 19:00 на 2 часа",
             "в 18 на полтора часа", "18:00–20:00", "с 6 до 8", ""],
    "extra": ["", "", "на 40 человек", "в главном корпусе", "на Чайковского", "301",
              "в лабораторном", "на чайке", "в 7-м корпусе"],
    "other": ["мои брони", "покажи мои бронирования", "отмени бронь на пятницу",
              "каждый понедельник бронируй 405 с 18 до 20", "отключи автобронь по средам",
              "какие у меня регулярные брони", "что умеешь", "помощь",
              "какая сегодня погода", "привет", "по понедельникам и средам бронируй 301"],
}  # fmt: skip
_EN = {
    "verb": ["book", "reserve", "I need", "get me", "Book", "bok"],
    "count": ["a room", "two rooms", "3 rooms", "three rooms", "room 207", ""],
    "adj": ["", "", "adjacent", "next to each other", "side by side", "in a row"],
    "day": ["tomorrow", "the day after tomorrow", "on Thursday", "next Friday", "Nov 27",
            "11/27", "December 2", "today", "in 3 days", "on thursdy", ""],
    "time": ["from 2pm to 4pm", "10-12", "10am-12", "at 7pm for an hour", "18:00-20:00",
             "for 90 minutes at 10", "between 2 and 4", ""],
    "extra": ["", "", "for 25 people", "in the main building", "in Chaikovsky", "in the lab"],
    "other": ["my bookings", "show my reservations", "cancel my booking for tomorrow",
              "every Friday book a room 10-12", "stop the Friday autobooking",
              "list my recurring bookings", "help", "what can you do",
              "what's the weather today", "hello", "what did I book for tomorrow"],
}  # fmt: skip


def generate(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out: list[str] = []
    for _ in range(n):
        vocab = _RU if rng.random() < 0.6 else _EN
        if rng.random() < 0.25:
            out.append(rng.choice(vocab["other"]))
            continue
        parts = [rng.choice(vocab[k]) for k in ("verb", "count", "adj", "day", "time", "extra")]
        rng.shuffle(parts[1:])
        text = " ".join(p for p in parts if p)
        if rng.random() < 0.1:
            text = text.upper()
        out.append(text)
    return out


def long_texts(length: int, seed: int) -> dict[str, str]:
    rng = random.Random(seed)

    def fill(unit: str) -> str:
        return (unit * (length // len(unit) + 1))[:length]

    made_up = " ".join(
        "".join(rng.choice("абвгдежзиклмнопрстуфх") for _ in range(7)) for _ in range(length // 8)
    )
    return {
        "digits": "9" * length,
        "one word": "а" * length,
        "command ru": fill("забронируй 3 аудитории завтра с 18 до 20 на 40 человек "),
        "command en": fill("book 2 rooms tomorrow 10-12 for 25 people "),
        "ranges": fill("с 1 до 2 "),
        "dashes": fill("1-"),
        "signs": fill("-1 "),
        "dots": fill("1."),
        "clocks": fill("1:"),
        "rooms": fill("301а "),
        "ordinals": fill("1-го "),
        "buildings": fill("в 7-м корпусе "),
        "made-up words": made_up[:length],
        "unicode": "".join(chr(rng.randint(32, 0x2FFF)) for _ in range(length)),
    }


def _cold_ms(text: str) -> float:
    best = float("inf")
    for _ in range(5):
        forget_analyses()
        booking_lexicon().forget()
        stem.cache_clear()
        places = refportal_places()
        t0 = time.thread_time()
        parse(text, now=NOW, tz=TZ, places=places)
        best = min(best, (time.thread_time() - t0) * 1000)
    return best


def _report_long(length: int, seed: int) -> str:
    full = {name: _cold_ms(text) for name, text in long_texts(length, seed).items()}
    quarter = {name: _cold_ms(text) for name, text in long_texts(length // 4, seed).items()}
    worst = max(full, key=full.__getitem__)
    growth = max(full[n] / max(quarter[n], 1e-3) for n in full)
    per_1000 = full[worst] * 1000 / length
    per_1000_quarter = quarter[worst] * 1000 / (length // 4)
    return (
        f"long  worst {full[worst]:.1f} ms at {length} chars ({worst}), "
        f"{per_1000:.2f} ms per 1000 chars ({per_1000_quarter:.2f} at {length // 4}); "
        f"most growth x{growth:.1f} from {length // 4} chars (x4 is linear)"
    )


def _time_all(texts: list[str], places: Places) -> list[float]:
    timings: list[float] = []
    for text in texts:
        t0 = time.perf_counter()
        parse(text, now=NOW, tz=TZ, places=places)
        timings.append((time.perf_counter() - t0) * 1000)
    return timings


def _report(label: str, timings: list[float]) -> str:
    ordered = sorted(timings)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{label:<5} median {statistics.median(ordered):.3f} ms   p99 {p99:.3f} ms   "
        f"max {ordered[-1]:.3f} ms"
    )


def _report_corpus(*, misses: bool) -> str:
    """Accuracy per category for both halves of the corpus (``tests.nlu.measure``)."""
    from tests.nlu.measure import entries, measure, refusals

    corpus = entries()
    scores = measure(corpus)
    categories = sorted({c for c, _ in scores if c != "all"}) + ["all"]
    lines = [
        f"{'category':<16} {'tuning: n  intent  slots  exact':>34} "
        f"{'held-back: n  intent  slots  exact':>37}"
    ]
    for category in categories:
        row = f"{category:<16}"
        for half in ("tuning", "held-back"):
            got = scores.get((category, half))
            if got is None:
                row += f"{'-':>37}"
                continue
            row += (
                f"{got.commands:>14} {got.intent_share:>7.1%} {got.slot_share:>6.1%} "
                f"{got.exact / got.commands:>6.1%}"
            )
        lines.append(row)
    wrong = refusals(corpus)
    lines.append(f"negated commands that book or schedule: {len(wrong)}")
    if misses:
        lines.append("tuning misses:")
        lines.extend(f"  {miss}" for miss in scores[("all", "tuning")].misses)
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commands", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--long", type=int, default=4096, help="length of the long texts")
    parser.add_argument(
        "--corpus",
        action="store_true",
        help="measure accuracy on tests/nlu/corpus (both halves, per category) instead",
    )
    parser.add_argument(
        "--misses", action="store_true", help="with --corpus: list the tuning misses"
    )
    args = parser.parse_args()
    if args.corpus:
        print(_report_corpus(misses=args.misses))
        return
    texts = generate(args.commands, args.seed)
    t0 = time.perf_counter()
    places = refportal_places()
    built_ms = (time.perf_counter() - t0) * 1000
    parse("забронируй аудиторию завтра с 18 до 20", now=NOW, tz=TZ, places=places)
    setup_ms = (time.perf_counter() - t0) * 1000  # the tables are built
    forget_analyses()  # cold: no whole-text cache hits, per-word caches fill as we go
    places = refportal_places()
    cold = _time_all(texts, places)
    warm = _time_all(texts, places)
    print(
        f"{len(texts)} commands ({len(set(texts))} distinct), first call {setup_ms:.1f} ms "
        f"(Places.from_catalogue {built_ms:.1f} ms)"
    )
    print(_report("cold", cold))
    print(_report("warm", warm))
    target = statistics.median(cold) <= 1.0
    print("target median <= 1 ms:", "met" if target else "NOT met")
    print(_report_long(args.long, args.seed))


if __name__ == "__main__":
    main()
