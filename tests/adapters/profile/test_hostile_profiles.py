"""Profiles written to hang the bot or reach elsewhere (issue 65, «the attacks above
fail»): alias bombs and nesting are refused by ``clubman site show`` at once, naming the
file and the line; a regex that backtracks without end stops at its time limit on the
site's text; a ``may_change`` entry that is not a path is refused at load.

Each attack runs in a child process with a hang guard and a 2 GB memory cap, so that
before the fix it fails its test (busy, or out of memory) instead of hanging the suite.
The guard is generous: starting ``clubman`` takes 5-9 s on a busy two-core machine
(measured); the refusal itself takes milliseconds.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from adapters.profile.errors import SlowPattern
from adapters.profile.finding import Finder
from adapters.profile.loader import LIMITS, ProfileInvalid, load_site_profile, parse_site_profile
from adapters.profile.navigate import Navigator
from adapters.profile.origin import on_site
from adapters.profile.parts import Pick
from adapters.profile.patterns import Pattern
from adapters.profile.reading import Item, value
from adapters.profile.template import Template
from tests.adapters.profile.profile_text import FILE, REFPORTAL, TEXT, edited, line_of, refused

CLUBMAN = str(Path(sys.executable).parent / "clubman")
_HANG_GUARD_S = 60
_MEMORY = 2 << 30


def _capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))


def _site_show(path: Path, work: Path) -> subprocess.CompletedProcess[str]:
    """``clubman site show PATH`` as an operator runs it, against no site at all."""
    env = {k: v for k, v in os.environ.items() if k not in ("MONGODB_URI", "REDIS_URL")}
    env |= {"PORTAL__URL": "http://127.0.0.1:9", "PORTAL__USERNAME": "club",
            "PORTAL__PASSWORD": "demo", "DATA_DIR": str(work), "LOG_LEVEL": "WARNING"}  # fmt: skip
    try:
        return subprocess.run(
            [CLUBMAN, "site", "show", str(path)], env=env, capture_output=True, text=True,
            timeout=_HANG_GUARD_S, preexec_fn=_capped,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"clubman site show still busy after {_HANG_GUARD_S} s")


def _laughs(levels: int, wide: int) -> str:
    """The billion laughs: each level a list of ``wide`` aliases of the level before."""
    lines = [f"lol0: &l0 [{', '.join(['lol'] * wide)}]"]
    lines += [f"lol{n}: &l{n} [{', '.join([f'*l{n - 1}'] * wide)}]" for n in range(1, levels + 1)]
    return "\n".join(lines) + "\n"


def _one_mapping_aliased(keys: int, uses: int) -> str:
    """One large mapping, aliased ``uses`` times (each alias on its own line)."""
    big = ", ".join(f"k{i}: v" for i in range(keys))
    return f"big: &big {{{big}}}\nuses:\n" + "".join("  - *big\n" for _ in range(uses))


@pytest.mark.parametrize(
    ("attack", "first", "last", "words"),
    [
        # 12, 112, 1 112, 11 112 and 111 112 parts a line: past 50 000 at the fifth, lol4.
        pytest.param(_laughs(9, 10), 5, 5, "parts once its aliases", id="billion-laughs"),
        # 2 001 parts each time: past the limit at about the 24th of its aliases.
        pytest.param(
            _one_mapping_aliased(1000, 5000),
            3,
            3 + 30,
            "parts once its aliases",
            id="a-large-mapping-aliased-5000-times",
        ),  # fmt: skip
    ],
)
def test_an_alias_bomb_is_refused_by_site_show_at_once_naming_its_line(
    attack: str, first: int, last: int, words: str, tmp_path: Path
) -> None:
    """``first``..``last``: the lines of the attack (from 1) the refusal may name."""
    path = tmp_path / "bomb.yaml"
    path.write_text(TEXT + attack, encoding="utf-8")
    shown = _site_show(path, tmp_path)
    assert shown.returncode == 2, shown.stdout + shown.stderr[-2000:]
    where, _, problem = shown.stderr.removeprefix(f"clubman: {path}:").partition(": ")
    assert first <= int(where) - TEXT.count("\n") <= last, shown.stderr
    assert f"more than {LIMITS.parts} {words}" in problem, shown.stderr


def test_a_part_aliased_more_often_than_the_limit_is_refused_at_the_alias_past_it() -> None:
    text = TEXT + "word: &w x\nuses:\n" + "  - *w\n" * 5000
    error = refused(text)
    assert error.where == f"{FILE}:{TEXT.count(chr(10)) + 2 + LIMITS.aliases + 1}"
    assert error.problem == f"more than {LIMITS.aliases} aliases (*name)"


def test_an_alias_within_the_limits_is_still_read() -> None:
    text = edited("name: Reference portal\n", "name: &name Reference portal\n")
    text = text.replace("  password:\n", "  x-name: *name\n  password:\n", 1)
    error = refused(text)  # read through the alias, the part is named as any unknown key
    assert "unknown key «x-name»" in error.problem


def test_100000_nested_lists_are_refused_naming_their_line(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    text = edited("name: Reference portal\n", f"name: {'[' * 100_000}{']' * 100_000}\n")
    path.write_text(text, encoding="utf-8")
    shown = _site_show(path, tmp_path)
    assert shown.returncode == 2, shown.stderr[-2000:]
    assert shown.stderr.strip() == (
        f"clubman: {path}:{line_of(text, 'name:')}: parts nested more than {LIMITS.depth} deep"
    )


def test_an_alias_that_nests_too_deep_where_it_is_used_is_refused_there() -> None:
    """Each alias within the depth where it is written, too deep where it is put."""
    deep = "[" * 20 + "x" + "]" * 20
    text = edited(
        "name: Reference portal\n",
        f"name: Reference portal\na: &a {deep}\nb: [{'[' * 20}*a{']' * 20}]\n",
    )
    error = refused(text)
    assert error.where == f"{FILE}:{line_of(text, 'b:')}"
    assert f"nested more than {LIMITS.depth} deep" in error.problem


def test_a_profile_too_long_is_refused_naming_the_line_where_it_passes_the_limit() -> None:
    text = TEXT + "# padding\n" * (LIMITS.characters // 10 + 1)
    error = refused(text)
    assert error.where == f"{FILE}:{text.count(chr(10), 0, LIMITS.characters) + 1}"
    assert f"longer than {LIMITS.characters} characters" in error.problem


def test_the_shipped_profiles_are_well_within_the_limits() -> None:
    for name in ("refportal", "indico", "legacy"):
        path = Path(__file__).resolve().parents[3] / "profiles" / f"{name}.yaml"
        parse_site_profile(path.read_text(encoding="utf-8"), str(path))


# -- regular expressions ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("regex", "text", "read"),
    [
        # ``re`` runs for hours on each; ``regex`` answers the first at once (no match) and
        # needs its time limit for the second.
        pytest.param(r"(a+)+$", "a" * 40 + "b", "''", id="nested-plus"),
        pytest.param(r"(a|aa)+$", "a" * 60 + "b", "SlowPattern", id="alternation"),
    ],
)
def test_a_backtracking_regex_on_the_sites_text_ends_at_once_or_at_its_limit(
    regex: str, text: str, read: str
) -> None:
    """Run in a child: ``re`` would hold the GIL for hours, past any guard in the tests."""
    code = (
        "from adapters.profile.parts import Pick\n"
        "from adapters.profile.reading import Item, value\n"
        "from adapters.profile.errors import SlowPattern\n"
        "try:\n"
        f"    print(repr(value(Pick(regex={regex!r}), Item(text={text!r}))))\n"
        "except SlowPattern:\n"
        "    print('SlowPattern')\n"
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True,
            timeout=_HANG_GUARD_S, preexec_fn=_capped, cwd=Path(__file__).resolve().parents[3],
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"the pick still busy after {_HANG_GUARD_S} s")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == read + "\n"


def test_a_regex_past_its_limit_is_the_profiles_fault_naming_the_regex() -> None:
    """34 «a»: ``re`` ends after some 2 s and reads nothing (measured), ``regex`` passes
    its limit: short enough to run here, without a child."""
    with pytest.raises(SlowPattern) as caught:
        value(Pick(regex=r"(a|aa)+$"), Item(text="a" * 34 + "b"))
    assert isinstance(caught.value, ProfileInvalid)
    assert caught.value.where == "the regular expression «(a|aa)+$»"
    assert "on 35 characters of the site's text" in caught.value.problem
    assert caught.value.hint == "администратор клуба может проверить профиль сайта"


def test_a_profile_regex_reads_unicode_as_re_did() -> None:
    """Cyrillic words and a no-break space, as the shipped profiles read them."""
    found = Pattern(r"(\w+)\s*(\d+)\s*мест").search("Аудитория\xa024 места")
    assert found is not None and found.groups() == ("Аудитория", "24")


# -- may_change --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "entry",
    [
        ".evil.example/x",
        ":8443/book",
        "//evil.example/x",
        "http://evil.example/book",
        "book",
        r"/\evil.example/x",
        "/book x",
        "",
    ],  # fmt: skip
)
def test_a_may_change_entry_that_is_not_a_path_is_refused_naming_its_line(entry: str) -> None:
    text = edited("  book: [/book]", f"  book: ['{entry}']")
    error = refused(text)
    assert error.where == f"{FILE}:{line_of(text, '  book: [')}"
    assert "may_change.book.0" in error.problem
    assert "not a path on the site" in error.problem or "a path must" in error.problem


def test_a_path_is_joined_only_onto_the_sites_own_address() -> None:
    assert on_site("https://rooms.example", "/book") == "https://rooms.example/book"
    assert on_site("https://rooms.example/app/", "/book") == "https://rooms.example/app/book"
    for entry in (".evil.example/x", ":8443/book", "//evil.example/x", "https://evil/x"):
        with pytest.raises(ValueError, match="not a path on the site"):
            on_site("https://rooms.example", entry)


@pytest.mark.parametrize(
    "address", ["http://evil.example/booking/{number}", "//evil.example/b/{number}", "{number}"]
)
def test_an_address_template_that_is_not_a_path_is_refused_naming_its_line(address: str) -> None:
    text = edited("  url: /booking/{number}\n", f"  url: '{address}'\n")
    error = refused(text)
    assert error.where == f"{FILE}:{line_of(text, '  url: ' + repr(address))}"
    assert "booking_page.url" in error.problem
    assert "not an address on the site" in error.problem


def test_a_value_that_reads_as_an_address_does_not_take_a_page_off_the_site() -> None:
    """«/{building}» without «|url»: a building named «https://…» is not joined as itself."""
    loaded = load_site_profile(REFPORTAL)
    nav = Navigator(loaded, "https://rooms.example", Finder(loaded), timeout_ms=1000)
    wrote = Template.parse("/{building}")
    assert nav.url(wrote, {"building": "main"}) == "https://rooms.example/main"
    with pytest.raises(ProfileInvalid, match="leads off the site: https://evil.example/x"):
        nav.url(wrote, {"building": "https://evil.example/x"})


def test_an_alias_at_the_deepest_level_is_read_as_the_part_written_there() -> None:
    """A scalar aliased inside 32 collections nests no deeper than the scalar itself."""
    deepest = LIMITS.depth - 1  # lists, in the profile's own mapping
    written, aliased = (
        edited("name: Reference portal\n", f"w: &w x\nname: {'[' * deepest}{s}{']' * deepest}\n")
        for s in ("x", "*w")
    )
    assert refused(aliased).problem == refused(written).problem
    assert "nested" not in refused(aliased).problem
