"""Card notation: Card, parsing, errors that name the token and say why, rules and supply."""

from __future__ import annotations

import pytest

from engine.cards import (
    CLASSIC,
    CLOSED,
    JOKER,
    Card,
    CardNotationError,
    CardRules,
    format_cards,
    format_melds,
    full_deck,
    over_supply,
    parse_card,
    parse_card_melds,
    parse_cards,
    rules_for,
)
from engine.tiles import NotationError


@pytest.mark.parametrize(
    "token, rank, suit",
    [("10H", 10, "H"), ("QS", 12, "S"), ("AD", 1, "D"), ("kc", 13, "C"), ("jh", 11, "H"), ("2s", 2, "S"),
     ("A♠", 1, "S"), ("10♥", 10, "H")],
)
def test_parse_card(token, rank, suit):
    card = parse_card(token)
    assert card == Card(rank, suit)
    assert not card.is_joker


@pytest.mark.parametrize("token", ["*", "joker", "JOKER"])
def test_joker(token):
    assert parse_card(token) is JOKER or parse_card(token) == JOKER
    assert JOKER.is_joker and JOKER.code == "*" and JOKER.rank is None and JOKER.suit is None


def test_codes_round_trip():
    deck = full_deck(2, 2)
    assert len(deck) == 106
    assert all(parse_card(c.code) == c for c in deck)
    assert {c.code for c in full_deck()} >= {"10H", "QS", "AD", "2C", "KD"}
    assert [Card.from_index(c.index) for c in deck] == deck


@pytest.mark.parametrize(
    "token, message",
    [
        ("1H", "1H: ranks are A, 2-10, J, Q, K"),
        ("QX", "QX: suits are S H D C"),
        ("11S", "11S: ranks are A, 2-10, J, Q, K"),
        ("14D", "14D: ranks are A, 2-10, J, Q, K"),
        ("ZZ", "ZZ: ranks are A, 2-10, J, Q, K"),
    ],
)
def test_notation_errors_name_the_token_and_why(token, message):
    with pytest.raises(CardNotationError) as info:
        parse_card(token)
    assert str(info.value) == message
    assert isinstance(info.value, NotationError) and isinstance(info.value, ValueError)
    assert info.value.token == token


def test_missing_suit_or_rank_is_explained():
    with pytest.raises(CardNotationError, match="Q: missing its suit"):
        parse_card("Q")
    with pytest.raises(CardNotationError, match="10: missing its suit"):
        parse_card("10")
    with pytest.raises(CardNotationError, match="H: missing its rank"):
        parse_card("H")


def test_card_helpers():
    card = Card.parse("10h")
    assert str(card) == "10H" and repr(card) == "Card(10H)"
    assert Card.from_index(52) is JOKER
    assert sorted([JOKER, Card(2, "C"), Card(13, "S")], key=lambda c: c.sort_key)[0] == Card(13, "S")
    with pytest.raises(CardNotationError, match="empty card"):
        parse_card("  ")


def test_card_constructor_checks():
    with pytest.raises(ValueError, match="ranks are"):
        Card(14, "H")
    with pytest.raises(ValueError, match="suits are"):
        Card(7, "X")
    with pytest.raises(ValueError):
        Card(7, None)


def test_parse_cards_and_melds():
    assert parse_cards("7h, 8H  9H *") == [Card(7, "H"), Card(8, "H"), Card(9, "H"), JOKER]
    melds = parse_card_melds("7H 8H 9H | QS QD QC *")
    assert [len(m) for m in melds] == [3, 4]
    assert format_melds(melds) == "7H 8H 9H | QS QD QC *"
    assert format_cards(parse_cards("10c as")) == "10C AS"
    assert parse_card_melds("   ") == []
    with pytest.raises(CardNotationError, match="series 2 is empty"):
        parse_card_melds("7H 8H 9H || QS QD QC")
    with pytest.raises(CardNotationError, match="leave out"):
        parse_cards("7H 8H 9H | QS")
    with pytest.raises(CardNotationError) as info:
        parse_cards("7H 8H 1H")
    assert info.value.position == 2


def test_rules_and_values():
    assert CLOSED.decks == 2 and CLOSED.jokers == 2 and CLOSED.needs_run
    assert CLASSIC.decks == 1 and CLASSIC.jokers == 0 and not CLASSIC.needs_run
    assert [CLASSIC.points(parse_card(t)) for t in ("AS", "2H", "10D", "JC", "QS", "KH")] == [1, 2, 10, 10, 10, 10]
    assert CLOSED.points(JOKER) == 25
    assert rules_for("classic", True) == CardRules("classic", ace_high=True)
    with pytest.raises(ValueError, match="game must be one of"):
        CardRules("gin")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        CardRules(joker_points=-1)
    assert CLOSED.with_(ace_high=True).top == 14


def test_over_supply():
    assert over_supply(parse_cards("7H 7H * *"), CLOSED) == []
    assert over_supply(parse_cards("7H 7H 7H"), CLOSED) == ["3 copies of 7H: two decks have only 2"]
    assert over_supply(parse_cards("* * *"), CLOSED) == ["3 jokers: the pack has only 2"]
    assert over_supply(parse_cards("7H 7H"), CLASSIC) == ["2 copies of 7H: one deck has only 1"]
    assert over_supply(parse_cards("7H *"), CLASSIC) == ["1 joker: classic rummy is played without jokers"]
