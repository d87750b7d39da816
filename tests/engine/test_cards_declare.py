"""Declare check (going out), the cut card, the redeal check; exact search against brute force."""

from __future__ import annotations

import time
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import (
    CLASSIC,
    CLOSED,
    JOKER,
    SUITS,
    Card,
    check_series,
    declare_check,
    full_deck,
    is_valid_series,
    parse_card,
    parse_cards,
    redeal_check,
    rules_for,
)
from engine.cards.declare import describe
from engine.cards.search import hand_state, max_cover, split_exact

P = parse_cards
ACE_HIGH = rules_for("closed", ace_high=True)

# 14 cards: a run of four, a run of three, a group with a joker, a group of three
FOURTEEN = "7H 8H 9H 10H 5D 6D 7D 2S 2D 2C * QS QD QC"


def assert_split_uses_exactly(declaration, cards, rules=CLOSED):
    used = [c for s in declaration.series for c in s.cards]
    assert Counter(used) == Counter(cards)
    for s in declaration.series:
        assert check_series(s.cards, rules).valid
        assert check_series(s.resolved, rules).valid
        assert check_series(s.cards, rules).kind == s.kind or s.kind in check_series(s.cards, rules).kinds


# --------------------------------------------------------------------------- closed: 14 cards


def test_fourteen_cards_declare():
    d = declare_check(P(FOURTEEN))
    assert d.declare and d.discard is None and d.reason is None
    assert_split_uses_exactly(d, P(FOURTEEN))
    assert any(s.kind == "run" for s in d.series)
    js = d.to_json()
    assert js["declare"] is True and js["discard"] is None
    assert sorted(map(tuple, js["series"])) == sorted(
        [("7H", "8H", "9H", "10H"), ("5D", "6D", "7D"), ("2S", "2D", "2C", "*"), ("QS", "QD", "QC")]
    )


def test_only_groups_cannot_go_out():
    groups = P("2S 2H 2D 5S 5H 5C 9S 9D 9C KS KH KD KC *")
    d = declare_check(groups)
    assert not d.declare and d.series == ()
    assert d.reason == "these 14 cards split only into groups: going out needs at least one run"
    # the same hand is fine in classic rummy, where no run is needed (jokers aside)
    classic = P("2S 2H 2D 5S 5H 5C 9S 9D 9C KS KH KD KC")
    assert declare_check(classic, CLASSIC).declare


def test_fourteen_that_do_not_split():
    d = declare_check(P("7H 8H 9H 10H 5D 6D 7D 2S 2D 2C * QS QD KC"))
    assert not d.declare and d.reason == "these 14 cards do not all split into series"


def test_joker_makes_the_run():
    # jokers fill a gap of a run that counts as the required run
    hand = P("AS 2S * 4S 9H 9D 9C JS JH JD JC 5C 5D 5H")
    d = declare_check(hand)
    assert d.declare
    assert_split_uses_exactly(d, hand)
    run = next(s for s in d.series if s.kind == "run")
    assert [c.code for c in run.resolved] == ["AS", "2S", "3S", "4S"]


# --------------------------------------------------------------------------- closed: 15 cards


def test_fifteen_cards_give_the_discard():
    hand = P(FOURTEEN) + [parse_card("KS")]
    d = declare_check(hand)
    assert d.declare
    assert d.discard == parse_card("KS")
    assert d.discards == (parse_card("KS"),)
    rest = list(hand)
    rest.remove(d.discard)
    assert_split_uses_exactly(d, rest)
    assert d.to_json()["discard"] == "KS"


def test_fifteen_cards_discard_is_required_even_if_all_fit():
    # all 15 cards are in series (a run of 12, three 4s): one still has to go, a run end
    hand = P("AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH 4S 4D 4C")
    d = declare_check(hand)
    assert d.declare and d.discard is not None
    assert set(P("AH QH 9H 4D")) <= set(d.discards)  # 9H splits the run; 4D frees 4H for the 4s
    assert d.discard == parse_card("QH")  # the most points (10H and JH do not work)
    assert len([c for s in d.series for c in s.cards]) == 14


def test_fifteen_cannot_go_out():
    hand = P("2H 3H 5H 7H 9H JH KS 2S 4S 6S 8S 10D QD * *")
    d = declare_check(hand)
    assert not d.declare and d.discard is None and d.discards == ()
    assert d.reason.startswith("no discard leaves 14 cards")


def test_discard_prefers_a_card_over_a_joker_and_more_points():
    hand = P(FOURTEEN) + [JOKER]  # two jokers: the second can be thrown, or a card it frees
    d = declare_check(hand)
    assert d.declare
    assert not d.discard.is_joker
    assert JOKER in d.discards
    assert d.discard == d.discards[0]
    assert "discard " in describe(d) and "(or " in describe(d)


# --------------------------------------------------------------------------- the cut card


def test_cut_card_only_as_the_closing_move():
    # 14 cards missing one card of a run; the cut card 10H completes it, 4C goes
    hand = P("7H 8H 9H 5D 6D 7D 2S 2D 2C * QS QD QC 4C")
    assert not declare_check(hand).declare  # alone: 4C does not fit
    d = declare_check(hand, cut=parse_card("10H"))
    assert d.declare and d.cut == parse_card("10H") and d.discard == parse_card("4C")
    assert parse_card("10H") in [c for s in d.series for c in s.cards]  # the cut is used
    assert d.to_json()["cut"] == "10H"
    assert "taking the cut 10H" in describe(d)


def test_cut_card_cannot_be_the_discard():
    # 14 cards that already go out: taking a useless cut card and throwing it back is not allowed
    d = declare_check(P(FOURTEEN), cut=parse_card("KC"))
    assert not d.declare
    assert d.reason.startswith("taking the cut KC, no discard")


def test_cut_needs_fourteen_cards():
    with pytest.raises(ValueError, match="with a cut card the hand is 14 cards"):
        declare_check(P(FOURTEEN) + [parse_card("KS")], cut=parse_card("KC"))
    with pytest.raises(ValueError, match="closed game"):
        declare_check(P("7H 8H 9H"), CLASSIC, cut=parse_card("KC"))


@pytest.mark.parametrize("size", [3, 13, 16])
def test_wrong_hand_size_is_bad_input(size):
    hand = full_deck(2, 0)[:size]
    with pytest.raises(ValueError, match="a closed-rummy hand is 14 cards"):
        declare_check(hand)


def test_over_supply_is_bad_input():
    with pytest.raises(ValueError, match="3 copies of 7H"):
        declare_check(P("7H 7H 7H 8H 9H 10H 5D 6D 7D 2S 2D 2C QS QD"))
    with pytest.raises(ValueError, match="without jokers"):
        declare_check(P("7H 8H *"), CLASSIC)


# --------------------------------------------------------------------------- classic


def test_classic_declare():
    d = declare_check(P("7H 8H 9H QS QD QC 2C"), CLASSIC)
    assert d.declare and d.discard == parse_card("2C")
    d = declare_check(P("7H 8H 9H QS QD QC"), CLASSIC)
    assert d.declare and d.discard is None
    d = declare_check(P("KD"), CLASSIC)  # the last card is discarded
    assert d.declare and d.discard == parse_card("KD") and d.series == ()
    assert not declare_check(P("7H 8H 9H QS QD 2C"), CLASSIC).declare
    with pytest.raises(ValueError, match="empty"):
        declare_check([], CLASSIC)


def test_ace_high_in_declare():
    hand = P("QS KS AS 2H 3H 4H 5H 6H 7D 7C 7S 9D 9C 9S")
    assert not declare_check(hand).declare
    d = declare_check(hand, ACE_HIGH)
    assert d.declare
    assert_split_uses_exactly(d, hand, ACE_HIGH)
    # never K-A-2, even with the house rule
    hand = P("KS AS 2S 2H 3H 4H 5H 6H 7D 7C 7S 9D 9C 9S")
    assert not declare_check(hand, ACE_HIGH).declare


# --------------------------------------------------------------------------- redeal


def test_redeal_three_identical_pairs():
    hand = P("7H 7H 8S 8S 9D 9D 2C 4C 6C 10S JS QH KD AC")
    r = redeal_check(hand)
    assert r.redeal
    assert [c.code for c in r.pairs] == ["8S", "7H", "9D"]
    assert r.reasons == ("3 pairs of identical cards: 8S 7H 9D",)
    assert r.to_json()["redeal"] is True


def test_two_pairs_and_two_jokers_redeal():
    # "three pairs of exactly identical cards": the two jokers are one more such pair
    hand = P("7H 7H 8S 8S * * 2C 4C 6C 10S JS QH KD AD")
    r = redeal_check(hand)
    assert [c.code for c in r.pairs] == ["8S", "7H", "*"]
    assert r.redeal and any("3 pairs" in why for why in r.reasons)


def test_redeal_nine_cards_in_series():
    hand = P("2H 3H 4H 7S 7D 7C JD QD KD 5S 9H 10C 2D 6C")
    r = redeal_check(hand)
    assert r.redeal and r.in_series == 9
    assert r.reasons == ("9 cards already form series (nine are enough)",)
    assert sum(len(s) for s in r.series) == 9
    for s in r.series:
        assert is_valid_series(s.cards, CLOSED)


def test_eight_cards_in_series_do_not_redeal():
    hand = P("2H 3H 4H 7S 7D 7C JD QD 5S 9H 10C 2D 6C KC")
    r = redeal_check(hand)
    assert not r.redeal and r.in_series == 6 and r.reasons == ()


def test_redeal_input_checks():
    with pytest.raises(ValueError, match="a dealt hand is 14 cards"):
        redeal_check(P("7H 8H 9H"))
    with pytest.raises(ValueError, match="closed game"):
        redeal_check(full_deck()[:14], CLASSIC)
    with pytest.raises(ValueError, match="3 copies"):
        redeal_check(P("7H 7H 7H 8S 8S 9D 9D 2C 4C 6C 10S JS QH KD"))


# --------------------------------------------------------------------------- brute force


def _brute_split(cards: list[Card], rules, need_run: bool) -> bool:
    """Every partition of ``cards`` into valid series, tried naively."""
    if not cards:
        return not need_run
    first, rest = cards[0], cards[1:]
    for k in range(2, len(rest) + 1):
        for idx in combinations(range(len(rest)), k):
            group = [first] + [rest[i] for i in idx]
            c = check_series(group, rules)
            if not c.valid:
                continue
            left = [rest[i] for i in range(len(rest)) if i not in idx]
            still = need_run and "run" not in c.kinds
            if _brute_split(left, rules, still):
                return True
    return False


def _brute_cover(cards: list[Card], rules) -> int:
    if len(cards) < 3:
        return 0
    first, rest = cards[0], cards[1:]
    best = _brute_cover(rest, rules)
    for k in range(2, len(rest) + 1):
        for idx in combinations(range(len(rest)), k):
            group = [first] + [rest[i] for i in idx]
            if is_valid_series(group, rules):
                left = [rest[i] for i in range(len(rest)) if i not in idx]
                best = max(best, len(group) + _brute_cover(left, rules))
    return best


# dense hands (two suits, nearby ranks, jokers) so that splits actually happen
_DENSE = [Card(r, s) for s in ("H", "S") for r in (1, 2, 3, 4, 5, 11, 12, 13)] * 2 + [
    Card(r, s) for s in ("D", "C") for r in (1, 3, 12)
] + [JOKER, JOKER]


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, len(_DENSE) - 1), min_size=3, max_size=8, unique=True), st.booleans(), st.booleans())
def test_exact_split_matches_brute_force(picks, ace_high, need_run):
    cards = [_DENSE[i] for i in picks]
    rules = rules_for("closed", ace_high)
    found = split_exact(hand_state(cards), rules, need_run)
    assert (found is not None) == _brute_split(cards, rules, need_run)
    if found is not None:
        used = [c for s in found for c in s.cards]
        assert Counter(used) == Counter(cards)
        assert all(is_valid_series(s.cards, rules) for s in found)
        assert not need_run or any(s.kind == "run" for s in found)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(0, len(_DENSE) - 1), min_size=3, max_size=8, unique=True), st.booleans())
def test_max_cover_matches_brute_force(picks, ace_high):
    cards = [_DENSE[i] for i in picks]
    rules = rules_for("closed", ace_high)
    series = max_cover(hand_state(cards), rules)
    assert sum(len(s) for s in series) == _brute_cover(cards, rules)
    used = Counter(c for s in series for c in s.cards)
    assert not used - Counter(cards)  # only the hand's cards


_SIZES = [(3, 3, 4, 4), (3, 3, 3, 5), (4, 5, 5), (3, 4, 7), (3, 3, 8), (4, 4, 3, 3), (11, 3)]


@st.composite
def _declarable_hand(draw):
    """14 cards built from series (the first a run), up to two cards swapped for jokers."""
    sizes = draw(st.sampled_from(_SIZES))
    cards: list[Card] = []
    for k, size in enumerate(sizes):
        if k == 0 or size > 4 or draw(st.booleans()):
            suit = draw(st.sampled_from(SUITS))
            start = draw(st.integers(1, 14 - size))
            cards += [Card(r, suit) for r in range(start, start + size)]
        else:
            rank = draw(st.integers(1, 13))
            cards += [Card(rank, s) for s in draw(st.permutations(SUITS))[:size]]
    if max(Counter(cards).values()) > 2:  # three copies: not from two decks
        cards = P("7H 8H 9H 10H 5D 6D 7D 2S 2D 2C 2H QS QD QC")
    for k in draw(st.lists(st.integers(0, 13), max_size=2, unique=True)):
        cards[k] = JOKER
    return cards


@settings(max_examples=60, deadline=None)
@given(_declarable_hand(), st.randoms())
def test_hands_built_from_series_declare(cards, rnd):
    rnd.shuffle(cards)
    d = declare_check(cards)
    assert d.declare, cards
    assert_split_uses_exactly(d, cards)
    assert any(s.kind == "run" for s in d.series)


def test_fifteen_with_two_jokers_answers_consistently():
    """Random 15-card hands with both jokers: every answer is a real split of the hand (the time
    these take is measured in bench/bench_cards.py, not asserted here)."""
    deck = full_deck(2, 0)
    import random

    rnd = random.Random(7)
    for _ in range(20):
        hand = rnd.sample(deck, 13) + [JOKER, JOKER]
        d = declare_check(hand)
        if d.declare:
            rest = list(hand)
            rest.remove(d.discard)  # 15 cards: a discard is always named
            assert_split_uses_exactly(d, rest)
        else:
            assert d.series == [] or d.series == ()
        redeal_check(hand)
