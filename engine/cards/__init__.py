"""Rummy with playing cards: Israeli closed rummy (two decks + 2 jokers) and classic Rummy.

Pure functions over small frozen dataclasses, like the tile engine:

* ``cards``    ``Card``, ``JOKER``, the notation (``parse_card``, ``parse_cards``, ``parse_card_melds``)
* ``rules``    ``CardRules`` (game, ace-high house rule, card values), ``CLOSED``, ``CLASSIC``
* ``series``   ``check_series`` / ``is_valid_series``: runs, groups, jokers, reasons
* ``declare``  ``declare_check``: can a hand go out, the split, the discard, the cut card
* ``redeal``   ``redeal_check``: three pairs or nine cards in series right after the deal
* ``scoring``  ``deal_size``, ``hand_points``, ``can_lay_off``, ``round_scores``, ``pot_scores``,
               ``coin_balances``, ``winner_of_game``
"""

from engine.cards.cards import (
    JOKER,
    RANKS,
    SUITS,
    Card,
    CardNotationError,
    format_cards,
    format_melds,
    full_deck,
    parse_card,
    parse_card_melds,
    parse_cards,
)
from engine.cards.declare import Declaration, declare_check
from engine.cards.redeal import RedealCheck, redeal_check
from engine.cards.rules import CLASSIC, CLOSED, GAMES, CardRules, over_supply, rules_for
from engine.cards.scoring import (
    can_lay_off,
    coin_balances,
    deal_size,
    hand_points,
    pot_scores,
    round_scores,
    winner_of_game,
)
from engine.cards.search import Series
from engine.cards.series import SeriesCheck, check_series, is_valid_series

__all__ = [
    "CLASSIC",
    "CLOSED",
    "GAMES",
    "JOKER",
    "RANKS",
    "SUITS",
    "Card",
    "CardNotationError",
    "CardRules",
    "Declaration",
    "RedealCheck",
    "Series",
    "SeriesCheck",
    "can_lay_off",
    "check_series",
    "coin_balances",
    "deal_size",
    "declare_check",
    "format_cards",
    "format_melds",
    "full_deck",
    "hand_points",
    "is_valid_series",
    "over_supply",
    "parse_card",
    "parse_card_melds",
    "parse_cards",
    "pot_scores",
    "redeal_check",
    "round_scores",
    "rules_for",
    "winner_of_game",
]
