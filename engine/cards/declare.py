"""Declare check: can this hand go out, and how?

Closed game (``CardRules("closed")``):

* 14 cards: they must split, all of them, into series with at least one run (``discard`` None).
* 15 cards (the opener's hand, or 14 plus the card just drawn): one card is discarded and the
  other 14 must split so. Every card whose discard works is listed in ``discards``; the one shown
  as ``discard`` is the first of them in this order: a non-joker before a joker, then the most
  points, then suit and rank order.
* With the visible cut card (``cut=Card``): the hand is 14 cards; the cut may be taken only as the
  closing move, so the question is whether the hand plus the cut, less one discard from the hand
  (never the cut itself), splits so. Then the cut is always in one of the series.

Classic game (``CardRules("classic")``): any hand size; it goes out if all its cards meld
(``discard`` None), else if all but one meld and that one is discarded. No run is required and
there is no cut card.

A hand that needs more copies of a card than the pack has, a joker in classic rummy, or a wrong
hand size (closed game) is bad input: ``ValueError``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from engine.errors import InputError
from engine.reasons import Reason, reason_json, render
from engine.cards.cards import Card, format_cards
from engine.cards.rules import CLOSED, CardRules, over_supply
from engine.cards.search import Series, hand_state, split_exact

__all__ = ["Declaration", "declare_check", "describe", "CLOSED_HAND", "OPENING_HAND"]

CLOSED_HAND = 14
OPENING_HAND = 15


@dataclass(frozen=True)
class Declaration:
    """The answer: ``declare`` (can go out), ``series`` (the split), ``discard`` (the card to throw,
    None when none is needed), ``discards`` (every card whose discard works), ``cut`` (the cut card
    taken, if one was given), ``reason`` (why not, else None)."""

    declare: bool
    series: tuple[Series, ...]
    discard: Card | None
    hand: tuple[Card, ...]
    cut: Card | None = None
    discards: tuple[Card, ...] = ()
    reason: str | None = None
    why: Reason | None = None  # ``reason`` as a code (engine.reasons)

    def to_json(self) -> dict[str, Any]:
        return {
            "declare": self.declare,
            "series": [s.codes for s in self.series],
            "discard": self.discard.code if self.discard else None,
            "kinds": [s.kind for s in self.series],
            "resolved": [[c.code for c in s.resolved] for s in self.series],
            "discards": [c.code for c in self.discards],
            "cut": self.cut.code if self.cut else None,
            "reason": self.reason,
            "reason_code": self.why.code if self.why else None,
            "why": reason_json(self.why),
        }


def _discard_order(cards: Sequence[Card], rules: CardRules) -> list[Card]:
    return sorted(set(cards), key=lambda c: (c.is_joker, -rules.points(c), c.sort_key))


def _without(cards: Sequence[Card], card: Card) -> list[Card]:
    out = list(cards)
    out.remove(card)
    return out


def _validate(hand: Sequence[Card], rules: CardRules, cut: Card | None) -> None:
    if rules.game == "closed":
        if cut is not None and len(hand) != CLOSED_HAND:
            raise InputError(
                f"with a cut card the hand is {CLOSED_HAND} cards (the cut is the {OPENING_HAND}th), got {len(hand)}"
            )
        if len(hand) not in (CLOSED_HAND, OPENING_HAND):
            raise InputError(
                f"a closed-rummy hand is {CLOSED_HAND} cards, or {OPENING_HAND} before the discard; got {len(hand)}"
            )
    else:
        if cut is not None:
            raise InputError("the cut card belongs to the closed game, not classic rummy")
        if not hand:
            raise InputError("the hand is empty")
    problems = over_supply(list(hand) + ([cut] if cut is not None else []), rules)
    if problems:
        raise InputError("more cards than the pack has: " + "; ".join(problems))


def declare_check(hand: Sequence[Card], rules: CardRules = CLOSED, cut: Card | None = None) -> Declaration:
    """Can ``hand`` go out under ``rules`` (taking the ``cut`` card as the closing move, if given)?"""
    hand = tuple(hand)
    _validate(hand, rules, cut)
    need_run = rules.needs_run
    memo: dict = {}

    def split(cards: Sequence[Card], need: bool = need_run) -> tuple[Series, ...] | None:
        return split_exact(hand_state(list(cards)), rules, need, memo if need == need_run else None)

    def answer(series: tuple[Series, ...] | None, discards: list[Card], why: Reason | None) -> Declaration:
        if series is None:
            assert why is not None
            return Declaration(False, (), None, hand, cut, (), render(why), why)
        return Declaration(True, series, discards[0] if discards else None, hand, cut, tuple(discards), None)

    whole = rules.game == "classic" or (len(hand) == CLOSED_HAND and cut is None)
    if whole:
        found = split(hand)
        if found is not None or rules.game == "closed":
            why = Reason("declare_not_all_series", {"count": len(hand)})
            if found is None and split(hand, need=False) is not None:
                why = Reason("declare_only_groups", {"count": len(hand)})
            return answer(found, [], why)
    pool = list(hand) + ([cut] if cut is not None else [])
    splits: dict[Card, tuple[Series, ...]] = {}
    for card in _discard_order(hand, rules):
        found = split(_without(pool, card))
        if found is not None:
            splits[card] = found
    works = list(splits)
    if works:
        return answer(splits[works[0]], works, None)
    groups = need_run and any(split(_without(pool, c), need=False) is not None for c in set(hand))
    why = Reason(
        "declare_no_discard",
        {
            "cut": cut.code if cut is not None else "",
            "left": len(pool) - 1,
            "need_run": int(need_run),
            "some_only_groups": int(groups),
        },
    )
    return answer(None, [], why)


def describe(declaration: Declaration) -> str:
    """A short human-readable answer for the command line."""
    if not declaration.declare:
        return f"cannot declare: {declaration.reason}"
    lines = ["can declare:"]
    for s in declaration.series:
        joker_note = f"  (= {format_cards(s.resolved)})" if any(c.is_joker for c in s.cards) else ""
        lines.append(f"  {s.kind:5} {format_cards(s.cards)}{joker_note}")
    if declaration.cut is not None:
        lines.append(f"  taking the cut {declaration.cut.code}")
    if declaration.discard is not None:
        others = [c.code for c in declaration.discards[1:]]
        also = f" (or {', '.join(others)})" if others else ""
        lines.append(f"  discard {declaration.discard.code}{also}")
    return "\n".join(lines)
