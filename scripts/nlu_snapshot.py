"""Every reading the rules make of ~14 000 texts, written to JSON, to prove a refactor of
the NLU changes nothing: the corpus (``tests/nlu/corpus``), generated commands
(``bench/nlu.py``) and one-letter typos of them, each read as the booking job reads a
command (decision and rule scores), as the events job reads one, and as an answer to
each clarifying question (in the booking job's words).

    python -m scripts.nlu_snapshot before.json     # on the old commit
    python -m scripts.nlu_snapshot after.json      # on the new one
    python -m scripts.nlu_snapshot --compare before.json after.json

Before ``06334c9`` the booking job's reading was ``core.nlu.parse``; the script reads it
from there on such a commit. Not in CI: a tool for whoever changes the NLU.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import yaml

from bench.nlu import generate
from core.nlu import Places, SlotName, SlotParseError, detect_lang, parse_slot
from core.scenario import Utterance
from scenarios.events.vocabulary import read
from tests.support.catalogues import refportal_places

TZ = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 23, 10, 0, tzinfo=TZ)
SLOTS: tuple[SlotName, ...] = ("date", "start", "end", "rooms", "capacity", "building",
                               "room", "adjacent", "recurrence")  # fmt: skip
CORPUS = Path(__file__).parents[1] / "tests" / "nlu" / "corpus"


def _corpus_texts() -> list[str]:
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("text"), str):
                found.append(node["text"])
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for path in sorted(CORPUS.glob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def _typos(texts: list[str], seed: int) -> list[str]:
    """Two one-letter edits of each text: a letter dropped, swapped, doubled or replaced."""
    rng = random.Random(seed)
    letters = "абвгдеёжзийклмнопрстуфхцчшщъыьэюяabcdefghijklmnopqrstuvwxyz "
    out: list[str] = []
    for text in texts:
        for _ in range(2):
            if len(text) < 3:
                continue
            i = rng.randrange(len(text) - 1)
            kind = rng.choice(("drop", "swap", "double", "replace"))
            if kind == "drop":
                out.append(text[:i] + text[i + 1 :])
            elif kind == "swap":
                out.append(text[:i] + text[i + 1] + text[i] + text[i + 2 :])
            elif kind == "double":
                out.append(text[:i] + text[i] + text[i:])
            else:
                out.append(text[:i] + rng.choice(letters) + text[i + 1 :])
    return out


def texts() -> list[str]:
    found = _corpus_texts() + generate(5000, 1) + generate(3000, 7)
    short = ["нужно", "не нужно", "да", "нет", "рядом", "неважно", "конечно", "любые",
             "мои брони", "не бронируй ничего", "помощь", "привет", "хватит бронировать",
             "stop booking 301", "no booking needed", "передумал"]  # fmt: skip
    return found + _typos(found[:4000], 3) + short


def _readers() -> tuple[Any, Any, Any]:
    """The booking job's reading, its rule scores and the words its answers are read in."""
    try:
        from scenarios.booking.vocabulary import booking_lexicon, parse, score_intents
    except ImportError:  # a commit before the reading left core
        from core.nlu import parse, score_intents  # type: ignore[attr-defined,no-redef]

        return parse, score_intents, None
    return parse, score_intents, booking_lexicon()


def _answers(text: str, places: Places, lexicon: Any) -> dict[str, str]:
    lang = detect_lang(text)
    words = {} if lexicon is None else {"lexicon": lexicon}
    found: dict[str, str] = {}
    for name in SLOTS:
        try:
            value = parse_slot(name, text, now=NOW, tz=TZ, lang=lang, places=places, **words)
            found[name] = repr(value)
        except SlotParseError as exc:
            found[name] = f"refused: {exc}"
    return found


def snapshot() -> dict[str, Any]:
    parse, score_intents, lexicon = _readers()
    places = refportal_places()
    out: dict[str, Any] = {}
    for text in texts():
        decision = parse(text, now=NOW, tz=TZ, places=places)
        scores = score_intents(text, places=places)
        event = read(Utterance(text=text, now=NOW, tz=TZ, places=places), NOW.date())
        entry: dict[str, Any] = {
            "decision": decision.model_dump(mode="json"),
            "scores": {str(k): round(v, 6) for k, v in scores.items()},
            "event": None if event is None else event.model_dump(mode="json"),
        }
        if len(text) < 40:
            entry["answers"] = _answers(text, places, lexicon)
        out[text] = entry
    return out


def compare(before: Path, after: Path) -> int:
    old = json.loads(before.read_text(encoding="utf-8"))
    new = json.loads(after.read_text(encoding="utf-8"))
    differ = [text for text in old if old[text] != new.get(text)]
    parts = Counter(part for t in differ for part in old[t] if old[t][part] != new[t].get(part))
    print(f"{len(old)} texts, {len(differ)} read differently {dict(parts)}")
    for text in differ[:20]:
        for part in old[text]:
            if old[text][part] != new[text].get(part):
                print(f"  {text!r} {part}: {old[text][part]} → {new[text].get(part)}")
    return 1 if differ or set(old) != set(new) else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, help="where to write the snapshot")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        return compare(*args.compare)
    if args.out is None:
        parser.error("give OUT.json, or --compare BEFORE AFTER")
    taken = snapshot()
    args.out.write_text(json.dumps(taken, ensure_ascii=False, sort_keys=True), encoding="utf-8")
    print(f"{len(taken)} texts read into {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
