"""Round scoring and the score sheet (engine/scoring.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.rules import HouseRules
from engine.scoring import ScoreSheet, exhausted_winners, rack_value, resolve_player, score_round
from engine.tiles import ALL_FACES, JOKER, parse_tiles

T = parse_tiles


def test_rack_value():
    assert rack_value(T("K5 R7")) == 12
    assert rack_value(T("B12 O13")) == 25
    assert rack_value([]) == 0


def test_joker_left_on_a_rack_costs_30():
    assert rack_value(T("J")) == 30
    assert rack_value(T("J R1")) == 31
    assert rack_value(T("J"), HouseRules(joker_penalty=50)) == 50


def test_winner_collects_the_others_racks():
    scores = score_round({"dana": T("K5 R7"), "omer": T("B12 O13")}, "lior")
    assert scores == {"dana": -12, "omer": -25, "lior": 37}
    assert list(scores) == ["dana", "omer", "lior"]
    assert sum(scores.values()) == 0


def test_winner_with_an_empty_rack_entry_keeps_the_order():
    scores = score_round({"lior": [], "dana": T("K5 R7"), "omer": T("B12 O13 J")}, "lior")
    assert scores == {"lior": 67, "dana": -12, "omer": -55}
    assert list(scores) == ["lior", "dana", "omer"]
    assert sum(scores.values()) == 0


def test_winner_must_have_gone_out():
    with pytest.raises(ValueError, match="rack must be empty"):
        score_round({"dana": T("K5")}, "dana")
    with pytest.raises(ValueError, match="went out"):
        score_round({"dana": T("K5")}, None)
    with pytest.raises(ValueError, match="empty"):
        score_round({"dana": T("K5")}, " ")


def test_exhausted_pool_lowest_rack_wins():
    racks = {"ann": T("K4 R6"), "bob": T("B12 O13"), "cy": T("K13 R13 O13 R1")}
    # ann 10, bob 25, cy 40
    assert {n: rack_value(r) for n, r in racks.items()} == {"ann": 10, "bob": 25, "cy": 40}
    # the encyclopedia text (default): the winner gets the sum of the others' racks, each other
    # player pays their own rack
    scores = score_round(racks, None, exhausted=True)
    assert scores == {"ann": 65, "bob": -25, "cy": -40}
    assert sum(scores.values()) == 0
    assert exhausted_winners(racks) == ["ann"]
    # the Pressman rulebook (house rule): each other player pays the difference to the winner's rack
    scores = score_round(racks, None, HouseRules(exhausted_scoring="difference"), exhausted=True)
    assert scores == {"ann": 45, "bob": -15, "cy": -30}


def test_exhausted_pool_tied_winners_share_and_a_round_sums_to_zero():
    # a tie for the lowest rack must not create points: the tied winners share what the others pay
    racks = {"ann": T("K10"), "bob": T("R4 R6"), "cy": T("B12 O13 K13 O2")}
    assert score_round(racks, None, exhausted=True) == {"ann": 20, "bob": 20, "cy": -40}
    difference = HouseRules(exhausted_scoring="difference")
    assert score_round(racks, None, difference, exhausted=True) == {"ann": 15, "bob": 15, "cy": -30}
    assert exhausted_winners(racks) == ["ann", "bob"]
    # an odd total: equal shares rounded down, the point left over to the first tied winner given
    odd = {"ann": T("K10"), "bob": T("R4 R6"), "cy": T("B12 O13 K13 O3")}
    assert score_round(odd, None, exhausted=True) == {"ann": 21, "bob": 20, "cy": -41}
    everyone = score_round({"a": T("K1"), "b": T("R1")}, None, exhausted=True)
    assert everyone == {"a": 0, "b": 0}


def test_winner_name_matches_ignoring_case():
    # "Dana" is the player dana: she still holds tiles, so she did not go out
    with pytest.raises(ValueError, match="dana went out"):
        score_round({"dana": T("K5 R7"), "omer": T("B12 O13")}, "Dana")
    assert resolve_player("LIOR", ["dana", "lior"]) == "lior"
    with pytest.raises(ValueError, match="unknown player 'dan'; the players are dana, lior"):
        resolve_player("dan", ["dana", "lior"])


def test_a_round_needs_two_players():
    with pytest.raises(ValueError, match="at least two players"):
        score_round({"lior": []}, "lior")
    with pytest.raises(ValueError, match="at least two players"):
        score_round({"ann": T("K1")}, None, exhausted=True)


def test_exhausted_pool_names_no_winner():
    with pytest.raises(ValueError, match="don't name one"):
        score_round({"a": T("K1"), "b": T("R2")}, "a", exhausted=True)
    with pytest.raises(ValueError, match="at least two players"):
        score_round({}, None, exhausted=True)
    with pytest.raises(ValueError, match="no racks"):
        exhausted_winners({})


racks_strategy = st.dictionaries(
    st.sampled_from(["ann", "bob", "cy", "dee"]),
    st.lists(st.sampled_from(ALL_FACES + (JOKER,)), max_size=8),
    min_size=1,
)  # "winner" is never among them: the player who went out need not give a rack


@given(racks_strategy, st.sampled_from(["sum", "difference"]))
@settings(max_examples=150, deadline=None)
def test_rounds_sum_to_zero(racks, how):
    # every round's scores sum to zero, tied winners included, under either exhausted rule
    rules = HouseRules(exhausted_scoring=how)
    assert sum(score_round(racks, "winner", rules).values()) == 0
    if len(racks) >= 2:
        scores = score_round(racks, None, rules, exhausted=True)
        assert sum(scores.values()) == 0
        winners = exhausted_winners(racks, rules)
        assert max(scores[w] for w in winners) - min(scores[w] for w in winners) <= 1


# --------------------------------------------------------------------------- score sheet


def test_score_sheet_totals():
    sheet = ScoreSheet(["dana", "omer", "lior"])
    sheet.add_round(score_round({"dana": T("K5 R7"), "omer": T("B12 O13")}, "lior"))
    sheet.add_round({"dana": 20, "omer": -5, "lior": -15})
    assert sheet.totals() == {"dana": 8, "omer": -30, "lior": 22}
    assert sheet.running_totals() == [
        {"dana": -12, "omer": -25, "lior": 37},
        {"dana": 8, "omer": -30, "lior": 22},
    ]
    assert sum(sheet.totals().values()) == 0


def test_score_sheet_names_match_ignoring_case():
    sheet = ScoreSheet(["dana", "omer"])
    assert sheet.add_round({"Dana": 3, "OMER": -3}) == {"dana": 3, "omer": -3}


def test_score_sheet_edit_rounds():
    sheet = ScoreSheet(["a", "b"], rounds=[{"a": 5, "b": -5}])
    sheet.add_round({"a": 1})  # b left out: 0
    assert sheet.rounds[1] == {"a": 1, "b": 0}
    sheet.replace_round(0, {"a": 7, "b": -7})
    assert sheet.totals() == {"a": 8, "b": -7}
    assert sheet.remove_round(-1) == {"a": 1, "b": 0}
    assert sheet.totals() == {"a": 7, "b": -7}
    with pytest.raises(IndexError, match="no round 3"):
        sheet.remove_round(3)
    with pytest.raises(IndexError):
        sheet.replace_round(1, {"a": 1})
    assert ScoreSheet(["a"]).running_totals() == []


def test_score_sheet_validation():
    with pytest.raises(ValueError, match="at least one player"):
        ScoreSheet([])
    with pytest.raises(ValueError, match="listed twice"):
        ScoreSheet(["a", "a"])
    with pytest.raises(ValueError, match="non-empty"):
        ScoreSheet(["a", " "])
    sheet = ScoreSheet(["dana", "omer"])
    with pytest.raises(ValueError, match="unknown player 'dan'"):
        sheet.add_round({"dan": 3, "omer": -3})
    with pytest.raises(ValueError, match="listed twice"):
        ScoreSheet(["dana", "Dana"])
    with pytest.raises(ValueError, match="whole number"):
        sheet.add_round({"dana": 1.5})
    with pytest.raises(ValueError, match="whole number"):
        sheet.add_round({"dana": True})
    with pytest.raises(ValueError, match="round 1"):
        ScoreSheet(["a"], rounds=[{"b": 1}])
    assert sheet.rounds == []
