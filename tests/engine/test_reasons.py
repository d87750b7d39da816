"""Reason codes (engine/reasons.py): every reason the engine gives has a stable code, and the
English rendering of the code is exactly the text the engine gave before the codes existed.

``data/reasons_golden.json`` holds those texts, captured from the engine before the codes (by
``data/make_reasons_golden.py``): set reasons, initial-meld reasons, every turn violation of the
turn tests and of random turns, over-supply messages, card series, declarations and redeals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.cards import check_series, declare_check, parse_card, parse_card_melds, parse_cards, redeal_check, rules_for
from engine.cards.scoring import pot_scores, round_scores
from engine.initial import check_initial_meld
from engine.reasons import CODES, Reason, RuleError, reason_json, render
from engine.rules import DEFAULT_RULES
from engine.scoring import exhausted_winners, resolve_player, score_round
from engine.sets import analyse_set
from engine.supply import OverSupply, ensure_supply
from engine.tiles import NotationError, Tile, over_supply, over_supply_reasons, parse_melds, parse_tile, parse_tiles
from engine.turns import CODES as TURN_CODES
from engine.turns import validate_turn

GOLDEN = json.loads((Path(__file__).parent / "data" / "reasons_golden.json").read_text())
SEEN: set[str] = set()


def _see(reason: Reason | None) -> None:
    if reason is not None:
        SEEN.add(reason.code)
        for p in reason.parts:
            _see(p)


def test_golden_sets():
    for case in GOLDEN["sets"]:
        c = analyse_set(parse_tiles(case["tiles"]), DEFAULT_RULES.with_(wrap_around=case["wrap"]))
        assert c.reason == case["reason"], case
        assert (c.why is None) == (c.reason is None)
        if c.why is not None:
            assert render(c.why) == c.reason
            _see(c.why)


def test_golden_initial_meld():
    for case in GOLDEN["initial"]:
        m = check_initial_meld(parse_melds(case["melds"]), DEFAULT_RULES.with_(initial_meld=case["threshold"]))
        assert m.reason == case["reason"], case
        assert (m.why is None) == m.ok
        if m.why is not None:
            assert render(m.why) == m.reason
            _see(m.why)


def test_golden_turns():
    for case in GOLDEN["turns"]:
        rules = DEFAULT_RULES.with_(**case["rules"])
        check = validate_turn(parse_melds(case["before"]), parse_tiles(case["rack"]), parse_melds(case["after"]), rules, case["opened"])
        assert [[v.code, v.message] for v in check.violations] == case["violations"], case
        for v in check.violations:
            assert v.why is not None and v.why.code == v.code and render(v.why) == v.message
            _see(v.why)


def test_every_turn_code_is_a_reason_code():
    assert set(TURN_CODES) <= set(CODES)


def test_golden_supply():
    for case in GOLDEN["supply"]:
        tiles = parse_tiles(case["tiles"])
        assert over_supply(tiles) == case["problems"]
        reasons = over_supply_reasons(tiles)
        assert [render(r) for r in reasons] == case["problems"]
        for r in reasons:
            _see(r)
    with pytest.raises(OverSupply) as exc:
        ensure_supply(parse_tiles("J J J K1 K1 K1"))
    assert [render(r) for r in exc.value.reasons] == list(exc.value.problems)
    assert [r.params["tile"] for r in exc.value.reasons] == ["J", "K1"]


def test_golden_cards():
    for case in GOLDEN["cards"]:
        (cards,) = parse_card_melds(case["cards"])
        c = check_series(cards, rules_for(case["game"], case["ace_high"]))
        assert c.reason == case["reason"], case
        assert render(c.why) == c.reason
        _see(c.why)
    for text, game, ace, reason in [
        ("QS KS AS", "closed", False, "QS KS AS: the ace ranks above the king (Q-K-A) only with the ace-high house rule"),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS *", "closed", True, "a run has at most 13 cards, this one has 14"),
    ]:
        c = check_series(parse_cards(text), rules_for(game, ace))
        assert c.reason == reason and render(c.why) == reason
        _see(c.why)
    d = declare_check(parse_cards("7H 7D 7S 8H 8D 8S 9H 9D 9S 9C 10H 10D 10S 10C"), rules_for("closed", False))
    assert d.reason == "these 14 cards split only into groups: going out needs at least one run"
    assert d.why == Reason("declare_only_groups", {"count": 14})
    _see(d.why)
    for case in GOLDEN["declare"]:
        cut = parse_card(case["cut"]) if case["cut"] else None
        d = declare_check(parse_cards(case["hand"]), rules_for(case["game"], False), cut=cut)
        assert d.reason == case["reason"], case
        assert (d.why is None) == (d.reason is None)
        if d.why is not None:
            assert render(d.why) == d.reason
            _see(d.why)
    for case in GOLDEN["redeal"]:
        r = redeal_check(parse_cards(case["hand"]), rules_for("closed", False))
        assert list(r.reasons) == case["reasons"]
        assert [render(w) for w in r.whys] == case["reasons"]
        for w in r.whys:
            _see(w)


# the texts of the errors, as they were before the codes
RULE_ERRORS = [
    (lambda: resolve_player("dana", ["Dana", "DANA"]), "'dana' could be 'Dana' or 'DANA': write the name as given"),
    (lambda: resolve_player("x", ["a", "b"]), "unknown player 'x'; the players are a, b"),
    (lambda: resolve_player("x", []), "unknown player 'x'; the players are none"),
    (lambda: exhausted_winners({}), "no racks given: an exhausted pool needs every player's rack"),
    (lambda: score_round({"a": [], "b": []}, "a", exhausted=True),
     "the pool is exhausted, so the winner is the lowest rack: don't name one (got 'a')"),
    (lambda: score_round({"a": []}, None, exhausted=True), "a round needs at least two players: give every player's rack"),
    (lambda: score_round({"a": []}, None), "name the player who went out, or say the pool is exhausted"),
    (lambda: score_round({"a": []}, "  "), "the winner's name is empty"),
    (lambda: score_round({"a": parse_tiles("K5 R7"), "b": []}, "a"), "a went out, so their rack must be empty, but it holds K5 R7"),
    (lambda: score_round({"a": []}, "a"), "a round needs at least two players: a is the only one"),
    (lambda: round_scores({}, ""), "name the player who went out"),
    (lambda: round_scores({"a": parse_cards("KS")}, "a"), "a went out, so their hand must be empty"),
    (lambda: round_scores({"a": []}, "a"), "a round needs at least one other player besides the winner"),
    (lambda: round_scores({str(k): [] for k in range(7)}, "x"), "classic rummy is for 2-6 players, got 8"),
    (lambda: round_scores({"a": [], "b": []}, "a", rules_for("closed", False), rummy=True),
     "'rummy' doubling is a classic-rummy house rule"),
    (lambda: pot_scores(["a"], ["a"]), "a round needs at least 2 players, got 1"),
    (lambda: pot_scores(["a", "a"], ["a"]), "a player is listed twice"),
    (lambda: pot_scores(["a", "b"], ["c"]), "unknown player 'c'; the players are a, b"),
]


@pytest.mark.parametrize("call, text", RULE_ERRORS)
def test_rule_errors_carry_a_reason(call, text):
    with pytest.raises(RuleError) as exc:
        call()
    assert str(exc.value) == text
    assert render(exc.value.reason) == text
    assert isinstance(exc.value, ValueError)
    _see(exc.value.reason)


NOTATION = [
    ("", "empty tile"),
    ("R", "a tile is a colour letter then a number 1-13, like R10"),
    ("X5", "unknown colour: use K (black), R (red), B (blue), O (orange) or J for a joker"),
    ("R14", "numbers run 1-13"),
]


@pytest.mark.parametrize("token, why", NOTATION)
def test_notation_errors_carry_a_reason(token, why):
    with pytest.raises(NotationError) as exc:
        parse_tile(token, 2)
    assert exc.value.why == why and render(exc.value.why_code) == why
    assert exc.value.position == 2
    _see(exc.value.why_code)


def test_notation_meld_and_tile_errors():
    with pytest.raises(NotationError) as exc:
        parse_melds("R1 R2 R3 ||")
    assert str(exc.value) == "|: meld 2 is empty (two '|' in a row, or one at an end)"
    _see(exc.value.why_code)
    with pytest.raises(NotationError) as exc:
        Tile("X", 3)
    assert exc.value.why == "colour must be one of K, R, B, O"
    _see(exc.value.why_code)
    with pytest.raises(NotationError) as exc:
        Tile("K", 0)
    _see(exc.value.why_code)


def test_reason_objects():
    r = Reason("run_wraps", {"tiles": "O12 O13 O1"})
    assert r == Reason("run_wraps", {"tiles": "O12 O13 O1"}) and hash(r) == hash(Reason("run_wraps", {"tiles": "O12 O13 O1"}))
    assert r.text == "O12 O13 O1 wraps 13-1: not allowed unless the wrap-around house rule is on"
    with pytest.raises(TypeError):
        r.params["tiles"] = "x"  # type: ignore[index]
    with pytest.raises(ValueError):
        Reason("no_such_code")
    with pytest.raises(ValueError):
        Reason("run_wraps", {})  # params must match CODES
    nested = check_initial_meld(parse_melds("R7 R7 B7 | K1 K2")).why
    assert reason_json(nested) == {
        "code": "initial_invalid_sets",
        "params": {},
        "parts": [
            {"code": "invalid_set", "params": {"set": 1, "tiles": "R7 R7 B7"},
             "parts": [{"code": "group_colour_twice", "params": {"tile": "R7"}, "parts": []}]},
            {"code": "invalid_set", "params": {"set": 2, "tiles": "K1 K2"},
             "parts": [{"code": "set_too_few_tiles", "params": {"tiles": "K1 K2", "count": 2, "min": 3}, "parts": []}]},
        ],
    }
    json.dumps(reason_json(Reason("player_ambiguous", {"name": "a", "candidates": ("A", "a ")})))


@pytest.mark.parametrize("table, rack, codes", [
    ("", "B1 B2 B3", ["step_lay_down"]),
    ("K3 K4 K5 K6 K7 | O9 R9 B9 K9", "O10 O11 K5", ["step_split", "step_take", "step_add_to_piece", "step_make"]),
    ("B9 B10 J B12 | K3 K4 K5", "B11 K7 K6", ["step_replace_joker", "step_make"]),
    ("R10 R11 R12 R13 | R9 B9 K9 O9", "R8 R7", ["step_take", "step_add"]),
    ("R3 R4 R5 | B3 B4 B5 | K3 K4 K5", "O4", ["step_break_up"] * 3 + ["step_make"] * 3),
])
def test_hint_steps(table, rack, codes):
    from engine.solver import best_play

    h = best_play(parse_melds(table), parse_tiles(rack))
    assert [s.code for s in h.steps] == codes
    for step in h.steps:
        _see(step)


def test_zz_every_code_is_produced_and_rendered():
    """Runs last in this module: every code was seen by the tests above (or is Twist's, tested
    in test_twist.py) and every code renders."""
    # step_rearrange: a table set laid anew with no rack tile in it, which a best play seldom needs
    produced_elsewhere = {c for c in CODES if c.startswith("twist_")} | {"table_set_invalid", "step_rearrange"}
    missing = set(CODES) - SEEN - produced_elsewhere
    assert not missing, sorted(missing)
    for code, names in CODES.items():
        sample = {n: ("x",) if n in ("candidates", "players", "colours", "pieces", "sources") else 1 if n in ("count", "min", "max", "set", "jokers", "limit", "missing", "total", "threshold", "left", "need_run", "some_only_groups", "moved", "number", "meld") else "K1" for n in names}
        parts = (Reason("tile_empty"),)
        text = render(Reason(code, sample, parts))
        assert isinstance(text, str) and text


def test_a_reason_survives_pickling():
    import pickle

    reason = Reason("invalid_set", {"set": 1, "tiles": "K5 K6 B8"}, (Reason("set_mixed", {"tiles": "K5 K6 B8"}),))
    again = pickle.loads(pickle.dumps(reason))
    assert again == reason and again.text == reason.text
