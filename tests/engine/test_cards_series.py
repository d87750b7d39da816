"""Series validity for the card games: runs, groups, jokers, the ace, and the reasons why not."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import CLASSIC, CLOSED, JOKER, Card, check_series, full_deck, is_valid_series, parse_cards, rules_for
from engine.cards.series import readings

ACE_HIGH = rules_for("closed", ace_high=True)


def check(text, rules=CLOSED):
    return check_series(parse_cards(text), rules)


@pytest.mark.parametrize(
    "text, kind, value",
    [
        ("7H 8H 9H", "run", 24),
        ("9H 7H 8H", "run", 24),  # any written order
        ("AS 2S 3S", "run", 6),
        ("10D JD QD KD", "run", 40),
        ("QS QD QC", "group", 30),
        ("QS QD QC *", "group", 40),  # a joker counts within the four
        ("7C 7D 7H 7S", "group", 28),
        ("AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS", "run", 85),
        ("7H * 9H", "run", 24),
        ("* * 5H", "run", 12),  # any number of jokers: 3H 4H 5H
    ],
)
def test_valid_series(text, kind, value):
    c = check(text)
    assert c.valid and c.reason is None
    assert c.kind == kind
    assert c.value == value


def test_group_of_four_with_a_joker_is_the_limit():
    assert check("QS QD QC *").valid
    five = check("QS QD QC QH *")
    assert not five.valid
    assert five.reason == "a group has at most 4 cards (a joker counts), QS QD QC QH * has 5"
    assert not check("QS QD QC * *").valid  # five with two jokers


def test_queen_king_ace_only_with_ace_high():
    off = check("QS KS AS")
    assert not off.valid
    assert "ace-high house rule" in off.reason
    on = check("QS KS AS", ACE_HIGH)
    assert on.valid and on.kind == "run"
    assert on.resolved == tuple(parse_cards("QS KS AS"))
    assert on.value == 21  # the ace is 1 point wherever it stands
    # ace low still allowed with the house rule on
    assert check("AS 2S 3S", ACE_HIGH).valid
    assert check("JH QH KH AH", ACE_HIGH).valid
    assert not check("JH QH KH AH").valid


@pytest.mark.parametrize("text", ["KS AS 2S", "QH KH AH 2H", "KD AD 2D 3D"])
@pytest.mark.parametrize("ace_high", [False, True])
def test_king_ace_two_never(text, ace_high):
    c = check(text, rules_for("closed", ace_high))
    assert not c.valid
    assert "round the corner" in c.reason


def test_no_run_uses_the_ace_at_both_ends():
    full = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS"
    assert not check(full + " AS", ACE_HIGH).valid
    assert not check(full + " *", ACE_HIGH).valid  # a run is at most 13 cards


@pytest.mark.parametrize(
    "text, reason",
    [
        ("7H 8H", "a series needs at least 3 cards, 7H 8H has 2"),
        ("7H 8S 9H", "7H 8S 9H mixes suits and ranks: a run is one suit, a group is one rank"),
        ("7H 7H 7S", "7H appears twice: a group needs different suits"),
        ("7H 7H 8H", "7H appears twice: a run needs different ranks"),
        ("7H 7H *", "7H appears twice: a group needs different suits, a run different ranks"),
        (
            "5H 7H 9H *",
            "5H 7H 9H * is not a run: it needs 6H 8H to be consecutive (2 cards missing, 1 joker to fill them)",
        ),
        ("* * *", "3 jokers: the pack has only 2"),
    ],
)
def test_reasons(text, reason):
    c = check(text)
    assert not c.valid and c.kind is None and c.value == 0
    assert c.reason == reason


def test_classic_has_no_jokers():
    c = check("7H 8H *", CLASSIC)
    assert not c.valid and c.reason == "classic rummy is played without jokers"
    assert check("7H 8H 9H", CLASSIC).valid


def test_jokers_follow_written_order_and_list_alternatives():
    c = check("7H * *")
    assert c.resolved == tuple(parse_cards("7H 8H 9H"))
    c = check("* * 7H")
    assert c.resolved == tuple(parse_cards("5H 6H 7H"))
    c = check("* 8H 9H")
    assert [x.code for x in c.jokers[0]] == ["7H", "10H"]
    c = check("QS QD *")
    assert c.kind == "group"
    assert [x.code for x in c.jokers[2]] == ["QH", "QC"]
    c = check("5H * *")
    assert c.kind == "run" and "group" in c.kinds  # a run before a group
    j = c.to_json()
    # every card each joker can stand for (runs 5-6-7, 4-5-6, 3-4-5 and the groups), chosen first
    assert j["jokers"] == {"1": ["6H", "5S", "5D", "4H", "3H"], "2": ["7H", "5D", "5C", "6H", "4H"]}
    assert set(j) >= {"codes", "valid", "kind", "value", "reason", "jokers"}


def test_readings_all_valid_when_jokers_replaced():
    for text in ("7H * 9H", "QS QD *", "AH * *", "* KS *"):
        for rules in (CLOSED, ACE_HIGH):
            for r in readings(parse_cards(text), rules):
                assert is_valid_series(r.resolved, rules)


# --------------------------------------------------------------------------- properties

_DECK = full_deck(2, 2)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_DECK), min_size=0, max_size=8), st.booleans(), st.booleans())
def test_random_cards_never_crash_and_order_does_not_matter(cards, ace_high, shuffle_seed):
    rules = rules_for("closed", ace_high)
    c = check_series(cards, rules)
    assert c.valid == (c.reason is None)
    shuffled = list(cards)
    random.Random(int(shuffle_seed)).shuffle(shuffled)
    assert check_series(shuffled, rules).valid == c.valid
    if c.valid:
        # replacing the jokers by what they stand for keeps it valid (and it has no jokers then)
        assert is_valid_series(c.resolved, rules)
        assert not any(x.is_joker for x in c.resolved)
        assert len(c.resolved) == len(cards)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["S", "H", "D", "C"]), st.integers(1, 11), st.integers(3, 13), st.randoms())
def test_every_straight_is_a_run_with_or_without_a_joker(suit, start, length, rnd):
    end = min(start + length - 1, 13)
    cards = [Card(r, suit) for r in range(start, end + 1)]
    if len(cards) < 3:
        return
    assert is_valid_series(cards, CLOSED)
    cards[rnd.randrange(len(cards))] = JOKER
    rnd.shuffle(cards)
    assert is_valid_series(cards, CLOSED)
