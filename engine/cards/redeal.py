"""Redeal check for closed rummy, right after the deal (14 cards, or 15 for the opener).

The hand is redealt when either holds:

* **three pairs**: at least three different cards are held twice each (two identical cards: the
  same rank and suit, one from each deck). The two jokers are a pair of identical cards too (the
  rule counts "three pairs of exactly identical cards", and the two jokers are exactly alike).
  Four pairs or more count too ("three pairs" is the least that triggers it).
* **nine cards in series**: some of the hand's cards, nine or more, split into valid series
  (runs and groups as in ``series``, jokers allowed, no run required), the rest left over. "Nine
  or more" and "exactly nine" are the same test: series covering more than nine cards can always
  be cut down to exactly nine (drop whole series while nine or more stay, then trim runs at an
  end and groups of four to three). The search finds the most cards the hand can put in series
  and shows that split.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from engine.errors import InputError
from engine.reasons import Reason, reason_json, render
from engine.cards.cards import Card
from engine.cards.declare import CLOSED_HAND, OPENING_HAND
from engine.cards.rules import CLOSED, CardRules, over_supply
from engine.cards.search import Series, hand_state, max_cover

__all__ = ["RedealCheck", "redeal_check", "REDEAL_PAIRS", "REDEAL_SERIES_CARDS"]

REDEAL_PAIRS = 3
REDEAL_SERIES_CARDS = 9


@dataclass(frozen=True)
class RedealCheck:
    """redeal (must the hand be redealt?), pairs (cards held twice), series (the most cards of the
    hand that form series), in_series (how many cards that is), reasons (why a redeal, if one)."""

    redeal: bool
    pairs: tuple[Card, ...]
    series: tuple[Series, ...]
    in_series: int
    reasons: tuple[str, ...]
    hand: tuple[Card, ...]
    whys: tuple[Reason, ...] = ()  # ``reasons`` as codes (engine.reasons)

    def to_json(self) -> dict[str, Any]:
        return {
            "redeal": self.redeal,
            "reasons": list(self.reasons),
            "pairs": [c.code for c in self.pairs],
            "series": [s.codes for s in self.series],
            "in_series": self.in_series,
            "reason_codes": [w.code for w in self.whys],
            "whys": [reason_json(w) for w in self.whys],
        }


def redeal_check(hand: Sequence[Card], rules: CardRules = CLOSED) -> RedealCheck:
    """Must this freshly dealt closed-rummy hand be redealt? (ValueError for bad input.)"""
    hand = tuple(hand)
    if rules.game != "closed":
        raise InputError("the redeal rule belongs to the closed game")
    if len(hand) not in (CLOSED_HAND, OPENING_HAND):
        raise InputError(f"a dealt hand is {CLOSED_HAND} cards ({OPENING_HAND} for the opener), got {len(hand)}")
    problems = over_supply(hand, rules)
    if problems:
        raise InputError("more cards than the pack has: " + "; ".join(problems))
    pairs = tuple(sorted((c for c, n in Counter(hand).items() if n >= 2), key=lambda c: c.sort_key))
    series = max_cover(hand_state(list(hand)), rules)
    in_series = sum(len(s) for s in series)
    whys: list[Reason] = []
    if len(pairs) >= REDEAL_PAIRS:
        whys.append(Reason("redeal_pairs", {"count": len(pairs), "cards": " ".join(c.code for c in pairs)}))
    if in_series >= REDEAL_SERIES_CARDS:
        whys.append(Reason("redeal_series", {"count": in_series}))
    reasons = tuple(render(w) for w in whys)
    return RedealCheck(bool(reasons), pairs, series, in_series, reasons, hand, tuple(whys))
