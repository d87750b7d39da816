"""Exact searches over a hand: split it into series, or cover as many cards as possible.

A hand is a multiset: 52 counts (``Card.index``) and a number of jokers. The search takes the
lowest card still unplaced (suit-major order) and tries every series that can contain it, then
recurses on what is left, memoised on (counts, jokers, ...). That is complete because every
card must sit in some series, and it is fast because the lowest card pins the series down.

Jokers are only ever placed where the hand has no natural card for that spot: if a split used a
joker for a card the hand still holds in another series, swapping the two gives a split of the
same shape, so nothing is lost (this holds for "all cards in series" and for "most cards in
series", which are the two questions asked here). A series of jokers only is never formed.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterator, Literal

from engine.cards.cards import JOKER, SUITS, Card
from engine.cards.rules import CardRules
from engine.cards.series import MAX_GROUP, MAX_RUN, MIN_SERIES, _positions, run_card

__all__ = ["Series", "Hand", "hand_state", "split_exact", "max_cover"]

Kind = Literal["run", "group"]
Hand = tuple[tuple[int, ...], int]  # (52 counts, jokers)


@dataclass(frozen=True)
class Series:
    """One series of a split: ``cards`` in play order with jokers as ``*`` where they stand
    (a run low to high, a group in suit order with its jokers last), ``resolved`` with each
    joker replaced by the card it stands for (in a group: one of the missing suits)."""

    kind: Kind
    cards: tuple[Card, ...]
    resolved: tuple[Card, ...]

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.cards]

    def __len__(self) -> int:
        return len(self.cards)


def hand_state(cards: list[Card] | tuple[Card, ...]) -> Hand:
    counts = [0] * 52
    jokers = 0
    for c in cards:
        if c.is_joker:
            jokers += 1
        else:
            counts[c.index] += 1
    return tuple(counts), jokers


def _remove(counts: tuple[int, ...], used: tuple[int, ...]) -> tuple[int, ...]:
    out = list(counts)
    for i in used:
        out[i] -= 1
    return tuple(out)


Option = tuple[Series, tuple[int, ...], int]  # (series, natural indices used, jokers used)


def _options(i: int, counts: tuple[int, ...], jokers: int, rules: CardRules) -> Iterator[Option]:
    """Every series (up to what it leaves behind) holding card ``i`` from this hand: runs first,
    longer runs before shorter; yields (series, natural indices used, jokers used)."""
    seen: set[tuple[tuple[int, ...], int]] = set()
    suit_index, rank = divmod(i, 13)
    rank += 1
    suit = SUITS[suit_index]
    runs: list[Option] = []
    for p in _positions(rank, rules):
        for start in range(max(1, p - MAX_RUN + 1), p + 1):
            missing = sum(1 for q in range(start, p) if counts[run_card(suit, q).index] == 0)
            if missing > jokers:
                continue
            for end in range(p, min(rules.top, start + MAX_RUN - 1) + 1):
                if end > p and counts[run_card(suit, end).index] == 0:
                    missing += 1
                    if missing > jokers:
                        break
                if end - start + 1 < MIN_SERIES:
                    continue
                cards: list[Card] = []
                resolved: list[Card] = []
                used: list[int] = []
                for q in range(start, end + 1):
                    card = run_card(suit, q)
                    resolved.append(card)
                    if q == p or counts[card.index] > 0:
                        cards.append(card)
                        used.append(card.index)
                    else:
                        cards.append(JOKER)
                runs.append((Series("run", tuple(cards), tuple(resolved)), tuple(sorted(used)), missing))
    runs.sort(key=lambda o: -len(o[0]))
    for option in runs:
        key = (option[1], option[2])
        if key not in seen:
            seen.add(key)
            yield option
    others = [s for s in SUITS if s != suit]
    for size in range(MAX_GROUP, MIN_SERIES - 1, -1):
        for chosen in combinations(others, size - 1):
            naturals = [Card(rank, suit)] + [Card(rank, s) for s in chosen if counts[Card(rank, s).index] > 0]
            n_jokers = size - len(naturals)
            if n_jokers > jokers:
                continue
            used_t = tuple(sorted(c.index for c in naturals))
            key = (used_t, n_jokers)
            if key in seen:
                continue
            seen.add(key)
            natural_suits = {c.suit for c in naturals}
            stand = [Card(rank, s) for s in chosen if s not in natural_suits]
            ordered = sorted(naturals, key=lambda c: c.sort_key)
            yield (
                Series("group", tuple(ordered) + (JOKER,) * n_jokers, tuple(ordered) + tuple(stand)),
                used_t,
                n_jokers,
            )


def _first(counts: tuple[int, ...]) -> int | None:
    for i, n in enumerate(counts):
        if n:
            return i
    return None


def split_exact(hand: Hand, rules: CardRules, need_run: bool, memo: dict | None = None) -> tuple[Series, ...] | None:
    """A split of the whole hand into series (with at least one run if ``need_run``), or None.

    ``memo`` may be shared between calls with the same ``rules`` (the 15 discards of one hand)."""
    memo = {} if memo is None else memo

    def go(counts: tuple[int, ...], jokers: int, need: bool) -> tuple[Series, ...] | None:
        key = (counts, jokers, need)
        if key in memo:
            return memo[key]
        result: tuple[Series, ...] | None = None
        i = _first(counts)
        if i is None:
            result = () if jokers == 0 and not need else None
        elif sum(counts) + jokers >= MIN_SERIES:
            for series, used, n_jokers in _options(i, counts, jokers, rules):
                rest = go(_remove(counts, used), jokers - n_jokers, need and series.kind != "run")
                if rest is not None:
                    result = (series,) + rest
                    break
        memo[key] = result
        return result

    counts, jokers = hand
    return go(counts, jokers, need_run)


def max_cover(hand: Hand, rules: CardRules) -> tuple[Series, ...]:
    """Series covering as many cards of the hand as possible (the others are left over)."""
    memo: dict[tuple[tuple[int, ...], int], tuple[int, tuple[Series, ...]]] = {}

    def go(counts: tuple[int, ...], jokers: int) -> tuple[int, tuple[Series, ...]]:
        key = (counts, jokers)
        if key in memo:
            return memo[key]
        i = _first(counts)
        if i is None:
            best: tuple[int, tuple[Series, ...]] = (0, ())
        else:
            best = go(_remove(counts, (i,)), jokers)  # this card is left over
            for series, used, n_jokers in _options(i, counts, jokers, rules):
                covered, rest = go(_remove(counts, used), jokers - n_jokers)
                if covered + len(series) > best[0]:
                    best = (covered + len(series), (series,) + rest)
        memo[key] = best
        return best

    counts, jokers = hand
    return go(counts, jokers)[1]
