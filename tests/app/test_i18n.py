"""Every string the app shows exists in English and Hebrew, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from app.i18n import LANGUAGES, RTL, STRINGS, tr
from vision.types import DOUBT_TEXT

UI = Path(__file__).resolve().parents[2] / "app" / "ui"
DYNAMIC = {  # keys built at run time: f"prefix_{value}"
    "page_": ["check", "turn", "round", "settings"],
    "photo_": ["upload", "camera"],
    "source_": ["photo", "type"],
    "turn_table_": ["checked", "type"],
    "kind_": ["rummikub", "closed", "classic"],
    "penalty_": ["three", "one", "none"],
    "doubt_": list(DOUBT_TEXT),  # the reader's reasons of its own, each said in both languages
}


def _used_keys() -> set[str]:
    keys: set[str] = set()
    for path in UI.glob("*.py"):
        src = path.read_text()
        keys |= set(re.findall(r"\.t\(\s*[\"']([a-z_]+)[\"']\s*[,)]", src))
        for pair in re.findall(r"t\(\s*\"([a-z_]+)\" if [^\n]+? else \"([a-z_]+)\"", src):
            keys |= set(pair)
    for prefix, values in DYNAMIC.items():
        keys |= {prefix + v for v in values}
    return keys | {"run", "group"}  # ctx.t(check.kind)


def test_every_used_key_exists():
    missing = sorted(k for k in _used_keys() if k not in STRINGS)
    assert not missing


@pytest.mark.parametrize("key", sorted(STRINGS))
def test_both_languages_with_the_same_placeholders(key):
    entry = STRINGS[key]
    assert set(entry) == set(LANGUAGES)
    fields = {lang: {f for _, f, _, _ in string.Formatter().parse(text) if f} for lang, text in entry.items()}
    assert fields["he"] == fields["en"], key
    assert entry["he"].strip() and entry["en"].strip()


def test_tr_fills_in_and_falls_back():
    assert tr("round_n", "en", n=3) == "Round 3"
    assert tr("round_n", "he", n=3) == "סיבוב 3"
    assert tr("no_such_key", "he") == "no_such_key"
    assert tr("round_n", "fr", n=2) == "Round 2"
    assert tr("round_n", "en") == "Round {n}"  # no values: the template, never an error
    assert tr("round_n", "en", wrong=1) == "Round {n}"
    assert "he" in RTL and "en" not in RTL


# --------------------------------------------------------------------------- the engine's reasons

from engine.reasons import CODES, Reason, render  # noqa: E402


def _sample(code: str) -> Reason:
    """A reason of ``code`` with made-up params of the right kinds."""
    ints = {"count", "min", "max", "jokers", "limit", "missing", "total", "threshold", "set", "meld",
            "left", "need_run", "some_only_groups", "moved"}
    params = {}
    for name in CODES[code]:
        if name in ints:
            params[name] = 2
        elif name in ("candidates", "players", "colours"):
            params[name] = ("Dana", "Omer")
        elif name in ("name", "game"):  # a player's name, a game: words, not codes
            params[name] = "Dana"
        elif name in ("pieces", "sources") or (name == "tiles" and code.startswith("step_")):  # lists of tiles
            params[name] = ("R7 R8 B9", "J")
        else:
            params[name] = "R7 R8 B9"
    parts = (Reason("set_mixed", {"tiles": "K5 K6 B8"}),) if code in (
        "initial_invalid_sets", "invalid_set", "table_set_invalid") else ()
    if code == "over_supply":
        parts = (Reason("supply_copies", {"tile": "R5", "count": 3, "limit": 2}),)
    if code == "initial_invalid_sets":
        parts = (Reason("invalid_set", {"set": 1, "tiles": "K5 K6 B8"}, parts),)
    return Reason(code, params, parts)


@pytest.mark.parametrize("code", sorted(CODES))
def test_every_engine_reason_is_said_in_hebrew(code):
    from app.i18n import LRI, reason_text

    reason = _sample(code)
    hebrew = reason_text(reason, "he")
    assert hebrew and hebrew != render(reason), f"{code} has no Hebrew text"
    assert re.search("[\u0590-\u05ff]", hebrew), hebrew
    assert "{" not in hebrew
    for value in reason.params.values():  # tile codes stay left to right inside the Hebrew
        if isinstance(value, str) and value == "R7 R8 B9":
            assert f"{LRI}R7 R8 B9" in hebrew, hebrew
    assert reason_text(reason, "en") == render(reason)  # English: the command line's words


def test_composed_reasons_are_said_part_by_part():
    from app.i18n import reason_text

    reason = _sample("initial_invalid_sets")
    assert reason_text(reason, "en") == "set 1 (K5 K6 B8) is not valid: K5 K6 B8 mixes colours and numbers: a run is one colour, a group is one number"
    hebrew = reason_text(reason, "he")
    assert hebrew.startswith("סדרה 1") and "מערבבת צבעים ומספרים" in hebrew


def test_errors_in_the_page_language():
    from app.i18n import error_text
    from engine.tiles import NotationError, parse_tiles

    with pytest.raises(NotationError) as caught:
        parse_tiles("K8 R14")
    assert error_text(caught.value, "en") == str(caught.value) == "R14: numbers run 1-13 (tile 2 of the input)"
    assert error_text(caught.value, "he") == "\u2066R14\u2069: המספרים הם 1-13 (אבן 2 בקלט)"
    assert error_text(ValueError("plain"), "he") == "plain"
