"""Every string the app shows exists in English and Hebrew, with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from app.i18n import LANGUAGES, RTL, STRINGS, tr

UI = Path(__file__).resolve().parents[2] / "app" / "ui"
DYNAMIC = {  # keys built at run time: f"prefix_{value}"
    "page_": ["check", "turn", "round", "settings"],
    "photo_": ["upload", "camera"],
    "source_": ["photo", "type"],
    "turn_table_": ["checked", "type"],
    "kind_": ["rummikub", "closed", "classic"],
    "penalty_": ["three", "one", "none"],
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
