"""Playing cards and their text notation.

A card is a rank then a suit: rank ``A 2 3 4 5 6 7 8 9 10 J Q K``, suit ``S`` spades, ``H`` hearts,
``D`` diamonds, ``C`` clubs (``10H``, ``QS``, ``AD``); ``*`` (or ``joker``) is a joker. Reading is
case-insensitive and also takes the suit symbols ``♠ ♥ ♦ ♣`` (with or without the invisible
variation selector U+FE0E / U+FE0F that text copied from a web page carries after them). Cards are separated by spaces or
commas; series (melds) by ``|``: ``"7H 8H 9H | QS QD QC *"``.

Errors name the token and say why: ``"1H: ranks are A, 2-10, J, Q, K"``,
``"QX: suits are S H D C"``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from engine.tiles import NotationError

__all__ = [
    "Card",
    "CardNotationError",
    "JOKER",
    "RANKS",
    "RANK_NAMES",
    "SUITS",
    "SUIT_NAMES",
    "full_deck",
    "format_cards",
    "format_melds",
    "parse_card",
    "parse_cards",
    "parse_card_melds",
]

SUITS: tuple[str, ...] = ("S", "H", "D", "C")
SUIT_NAMES: dict[str, str] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: dict[str, str] = {
    "♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C",
}
# A symbol copied from a text often carries a variation selector (text or emoji style) after it.
VARIATION_SELECTORS: frozenset[str] = frozenset({"\ufe0e", "\ufe0f"})
RANKS: range = range(1, 14)
RANK_NAMES: dict[int, str] = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RANK_OF: dict[str, int] = {**{str(n): n for n in range(2, 11)}, "A": 1, "J": 11, "Q": 12, "K": 13}

RANK_HELP = "ranks are A, 2-10, J, Q, K"
SUIT_HELP = "suits are S H D C"


class CardNotationError(NotationError):
    """A card token that cannot be read: ``"<token>: <why>"``; a NotationError (so a ValueError)."""

    def __init__(self, token: str, why: str, position: int | None = None) -> None:
        self.token = token
        self.why = why
        self.position = position
        ValueError.__init__(self, f"{token}: {why}" if token else why)


@dataclass(frozen=True)
class Card:
    """One card. ``rank`` 1-13 (1 ace, 11 jack, 12 queen, 13 king), ``suit`` one of S H D C;
    both None for a joker (``JOKER``)."""

    rank: int | None
    suit: str | None

    def __post_init__(self) -> None:
        if self.rank is None and self.suit is None:
            return
        if not isinstance(self.rank, int) or self.rank not in RANKS:
            raise CardNotationError(f"{self.rank}{self.suit or ''}", RANK_HELP)
        if self.suit not in SUITS:
            raise CardNotationError(f"{RANK_NAMES.get(self.rank, self.rank)}{self.suit}", SUIT_HELP)

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def rank_name(self) -> str:
        return "*" if self.rank is None else RANK_NAMES.get(self.rank, str(self.rank))

    @property
    def code(self) -> str:
        return "*" if self.is_joker else f"{self.rank_name}{self.suit}"

    @property
    def index(self) -> int:
        """0-51 for a card (suit-major: AS=0 .. KS=12, AH=13 ..), 52 for a joker."""
        if self.is_joker:
            return 52
        assert self.rank is not None and self.suit is not None
        return SUITS.index(self.suit) * 13 + self.rank - 1

    @property
    def sort_key(self) -> tuple[int, int]:
        """Suit order S H D C, then rank; jokers last."""
        if self.is_joker:
            return (len(SUITS), 0)
        assert self.rank is not None and self.suit is not None
        return (SUITS.index(self.suit), self.rank)

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"

    @classmethod
    def parse(cls, token: str, position: int | None = None) -> "Card":
        return parse_card(token, position)

    @classmethod
    def from_index(cls, index: int) -> "Card":
        if index == 52:
            return JOKER
        return cls(index % 13 + 1, SUITS[index // 13])


JOKER = Card(None, None)


def parse_card(token: str, position: int | None = None) -> Card:
    """Read one card (``10H``, ``qs``, ``A♠``, ``*``); raise CardNotationError saying why not."""
    raw = token
    token = token.strip()
    if len(token) > 1 and token[-1] in VARIATION_SELECTORS and token[-2] in SUIT_SYMBOLS:
        token = token[:-1]
    if not token:
        raise CardNotationError(raw, "empty card", position)
    up = token.upper()
    if up in ("*", "JOKER"):
        return JOKER
    if up in _RANK_OF:
        raise CardNotationError(token, f"missing its suit ({SUIT_HELP}), like {up}H; * is a joker", position)
    rank_part, suit_part = up[:-1], SUIT_SYMBOLS.get(up[-1], up[-1])
    if rank_part not in _RANK_OF:
        if not rank_part and suit_part in SUITS:
            raise CardNotationError(token, f"missing its rank ({RANK_HELP}), like 7{suit_part}", position)
        raise CardNotationError(token, RANK_HELP, position)
    if suit_part not in SUITS:
        raise CardNotationError(token, SUIT_HELP, position)
    return Card(_RANK_OF[rank_part], suit_part)


def _tokens(text: str) -> list[str]:
    return [t for t in re.split(r"[\s,]+", text.strip()) if t]


def parse_cards(text: str) -> list[Card]:
    """Read a hand: cards separated by spaces or commas (``"7H 8H 9H *"``)."""
    if "|" in text:
        raise CardNotationError("|", "a hand is one list of cards: leave out '|'")
    return [parse_card(t, i) for i, t in enumerate(_tokens(text))]


def parse_card_melds(text: str) -> list[list[Card]]:
    """Read series separated by ``|`` (``"7H 8H 9H | QS QD QC *"``); an empty series is an error."""
    if not text.strip():
        return []
    melds: list[list[Card]] = []
    offset = 0
    for index, part in enumerate(text.split("|")):
        tokens = _tokens(part)
        if not tokens:
            raise CardNotationError("|", f"series {index + 1} is empty (two '|' in a row, or one at an end)")
        melds.append([parse_card(t, offset + i) for i, t in enumerate(tokens)])
        offset += len(tokens)
    return melds


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.code for c in cards)


def format_melds(melds: Iterable[Sequence[Card]]) -> str:
    return " | ".join(format_cards(m) for m in melds)


def full_deck(decks: int = 1, jokers: int = 0) -> list[Card]:
    """``decks`` x 52 cards plus ``jokers`` jokers (closed rummy: ``full_deck(2, 2)``, 106 cards)."""
    one = [Card(r, s) for s in SUITS for r in RANKS]
    return one * decks + [JOKER] * jokers


def card_counts(cards: Iterable[Card]) -> Counter[Card]:
    return Counter(cards)
