"""Dealing, laying off, round scores and the end of the game for the card games."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import (
    CLASSIC,
    CLOSED,
    can_lay_off,
    coin_balances,
    deal_size,
    hand_points,
    parse_card,
    parse_cards,
    pot_scores,
    round_scores,
    rules_for,
    winner_of_game,
)

P = parse_cards


@pytest.mark.parametrize("players, cards", [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_deal_size(players, cards):
    assert deal_size(players) == cards


@pytest.mark.parametrize("players", [0, 1, 7, 10])
def test_deal_size_outside_two_to_six(players):
    with pytest.raises(ValueError, match=f"classic rummy is for 2-6 players, got {players}"):
        deal_size(players)


def test_hand_points():
    assert hand_points(P("KS 3D")) == 13
    assert hand_points(P("QH JD 2C")) == 22
    assert hand_points(P("AS 10H")) == 11
    assert hand_points(P("AS * 5C"), CLOSED) == 31  # a joker left in a hand costs 25
    assert hand_points([]) == 0


def test_the_three_player_example():
    # hands of 13 and 22 points: the winner scores 35, the others 0
    scores = round_scores({"shir": P("KS 3D"), "idan": P("QH JD 2C")}, "roni", CLASSIC)
    assert scores == {"shir": 0, "idan": 0, "roni": 35}


def test_rummy_doubles():
    scores = round_scores({"shir": P("KS 3D"), "idan": P("QH JD 2C")}, "roni", CLASSIC, rummy=True)
    assert scores["roni"] == 70


def test_closed_game_is_played_for_a_pot():
    # the Israeli closed-rummy text: each player's entry goes into the pot, the declarer takes it;
    # hand values play no part
    scores = round_scores({"shir": P("KS 3D *"), "idan": P("QH JD 2C"), "roni": []}, "roni", CLOSED)
    assert scores == {"shir": -1, "idan": -1, "roni": 2}
    assert round_scores({"shir": P("KS"), "idan": []}, "idan", CLOSED.with_(entry=5)) == {"shir": -5, "idan": 5}
    with pytest.raises(ValueError, match="classic-rummy house rule"):
        round_scores({"shir": P("KS")}, "roni", CLOSED, rummy=True)


def test_closed_game_tie_returns_every_entry():
    # a tie returns each player's entry with no fee
    assert pot_scores(["a", "b", "c"], ["a", "b"], 3) == {"a": 0, "b": 0, "c": 0}
    assert pot_scores(["a", "b", "c"], [], 3) == {"a": 0, "b": 0, "c": 0}
    assert pot_scores(["a", "b", "c"], ["c"], 3) == {"a": -3, "b": -3, "c": 6}
    with pytest.raises(ValueError, match="unknown player 'd'"):
        pot_scores(["a", "b"], ["d"])
    with pytest.raises(ValueError, match="at least 2 players"):
        pot_scores(["a"], ["a"])
    with pytest.raises(ValueError, match="1 or more"):
        CLOSED.with_(entry=0)


def test_coin_balances_run_over_the_rounds():
    rounds = [pot_scores(["a", "b", "c"], ["a"]), pot_scores(["a", "b", "c"], ["b"], 2), {"a": 0, "c": 0}]
    assert coin_balances(rounds) == [
        {"a": 2, "b": -1, "c": -1},
        {"a": 0, "b": 3, "c": -3},
        {"a": 0, "b": 3, "c": -3},
    ]
    assert coin_balances([]) == []


@given(st.lists(st.tuples(st.integers(2, 6), st.integers(-1, 5), st.integers(1, 10)), max_size=8))
@settings(max_examples=100, deadline=None)
def test_pot_rounds_sum_to_zero(rounds):
    # coins only change hands: every round, and so every balance, sums to zero
    results = []
    for n, w, entry in rounds:
        players = [f"p{i}" for i in range(n)]
        coins = pot_scores(players, [players[w]] if 0 <= w < n else [], entry)
        assert sum(coins.values()) == 0
        results.append(coins)
    for balance in coin_balances(results):
        assert sum(balance.values()) == 0


def test_round_input_checks():
    with pytest.raises(ValueError, match="must be empty"):
        round_scores({"roni": P("KS"), "shir": P("2C")}, "roni")
    with pytest.raises(ValueError, match="at least one other player"):
        round_scores({"roni": []}, "roni")
    with pytest.raises(ValueError, match="name the player"):
        round_scores({"shir": P("2C")}, "")
    with pytest.raises(ValueError, match="2-6 players, got 7"):
        round_scores({f"p{i}": P("2C") if i == 0 else [] for i in range(6)}, "w")
    with pytest.raises(ValueError, match="2 copies of KS"):
        round_scores({"a": P("KS"), "b": P("KS")}, "w", CLASSIC)
    with pytest.raises(ValueError, match="without jokers"):
        round_scores({"a": P("*")}, "w", CLASSIC)


def test_can_lay_off():
    run = P("7H 8H 9H")
    assert can_lay_off(parse_card("10H"), run)
    assert can_lay_off(parse_card("6H"), run)
    assert not can_lay_off(parse_card("JH"), run)
    assert not can_lay_off(parse_card("10S"), run)
    group = P("QS QD QC")
    assert can_lay_off(parse_card("QH"), group)
    assert not can_lay_off(parse_card("QH"), P("QS QD QC QH"))  # four is the most
    assert not can_lay_off(parse_card("AH"), P("JH QH KH"))
    assert can_lay_off(parse_card("AH"), P("JH QH KH"), rules_for("classic", ace_high=True))
    assert not can_lay_off(parse_card("2H"), P("QH KH AH"), rules_for("classic", ace_high=True))  # no K-A-2
    with pytest.raises(ValueError, match="not a valid meld"):
        can_lay_off(parse_card("2H"), P("7H 8S"))


def test_winner_of_game_classic():
    assert winner_of_game({"a": 40, "b": 95}, 100) is None
    assert winner_of_game({"a": 40, "b": 105}, 100) == "b"
    assert winner_of_game({"a": 100, "b": 20}, 100) == "a"  # reaching the target is enough
    assert winner_of_game({"a": 120, "b": 120}, 100) is None  # a tie at the top: play on
    assert winner_of_game({}, 100) is None
    with pytest.raises(ValueError, match="target"):
        winner_of_game({"a": 1}, 0)


def test_winner_of_game_closed():
    # played for a pot: each round settles its own, there is no game to win
    assert winner_of_game({"a": -40, "b": -95}, 100, CLOSED) is None
    assert winner_of_game({"a": 140, "b": -101, "c": -39}, 100, CLOSED) is None
