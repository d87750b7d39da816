"""Is this a valid series (meld)? What does each joker stand for? Why not?

A **run** is 3 or more consecutive cards of one suit (``7H 8H 9H``), at most 13 long. The ace is
low (A-2-3); with the ace-high house rule it may also stand above the king (Q-K-A); a run never
goes round the corner (K-A-2 is never valid).
A **group** is 3 or 4 cards of one rank, all suits different (``QS QD QC``); a joker counts
within the four, so ``QS QD QC QH *`` (five) is never a group.
Jokers (closed game only) stand for any card, any number of them in a series, but the pack has
only 2 (so a series always holds a card that is not a joker).

Validity never depends on the order the cards are written in. Where a joker's meaning is
ambiguous, every valid reading is found and one is chosen, by these rules in turn:

1. the reading that best fits the written order (fewest pairs of cards written in the opposite
   order to their place in the run; a group always fits): ``7H * *`` is 7H 8H 9H, ``* * 7H`` is
   5H 6H 7H;
2. a run before a group (``5H * *`` is a run);
3. the higher value;
4. suit order S H D C and lower ranks for the jokers (``QS QD *``: the joker is QH).

``SeriesCheck.jokers`` maps each joker's written position (0-based) to every card it stands for
across all readings, the chosen reading's card first. ``value`` is the sum of the card points
(``CardRules.points``) of the chosen reading, each joker counted as the card it stands for.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Literal, Sequence

from engine.reasons import Reason, reason_json, render
from engine.cards.cards import SUITS, Card, format_cards
from engine.cards.rules import CLOSED, CardRules

__all__ = [
    "MAX_GROUP",
    "MAX_RUN",
    "MIN_SERIES",
    "Reading",
    "SeriesCheck",
    "check_series",
    "is_valid_series",
    "readings",
    "run_card",
]

Kind = Literal["run", "group"]

MIN_SERIES = 3
MAX_GROUP = len(SUITS)  # 4
MAX_RUN = 13


def run_card(suit: str, position: int) -> Card:
    """The card at run position 1-14 of ``suit`` (14 is the ace above the king)."""
    return Card(1 if position == 14 else position, suit)


def _positions(rank: int, rules: CardRules) -> tuple[int, ...]:
    return (1, 14) if rank == 1 and rules.ace_high else (rank,)


@dataclass(frozen=True)
class Reading:
    """One valid reading of a series.

    kind:        "run" or "group"
    resolved:    the cards in play order (a run low to high, a group as written), each joker
                 replaced by the card it stands for
    joker_cards: for each joker, (its written position, the card it stands for)
    inversions:  pairs of cards written in the opposite order to the play order (0 for a group)
    value:       card points, jokers counted as the card they stand for
    """

    kind: Kind
    resolved: tuple[Card, ...]
    joker_cards: tuple[tuple[int, Card], ...]
    inversions: int
    value: int

    @property
    def sort_key(self) -> tuple:
        jokers = tuple(c.sort_key for _, c in self.joker_cards)
        return (self.inversions, 0 if self.kind == "run" else 1, -self.value, jokers)


@dataclass(frozen=True)
class SeriesCheck:
    """The verdict on one series: valid, kind, value (0 if invalid), reason (why not, else None),
    cards (as written), resolved (chosen reading), jokers (position -> cards it can stand for,
    chosen first), interpretations (every reading, chosen first), their kinds and why (``reason`` as
    a code, ``engine.reasons``)."""

    valid: bool
    kind: Kind | None
    value: int
    reason: str | None
    cards: tuple[Card, ...]
    resolved: tuple[Card, ...] = ()
    jokers: dict[int, tuple[Card, ...]] = field(default_factory=dict, hash=False)
    interpretations: tuple[tuple[Card, ...], ...] = ()
    kinds: tuple[Kind, ...] = ()
    why: Reason | None = None

    @property
    def codes(self) -> list[str]:
        return [c.code for c in self.cards]

    def to_json(self) -> dict:
        """The shape of one meld in ``rummi check --json``."""
        return {
            "codes": self.codes,
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value,
            "jokers": {str(i): [c.code for c in cs] for i, cs in self.jokers.items()},
            "reason": self.reason,
            "resolved": [c.code for c in self.resolved],
            "interpretations": [[c.code for c in r] for r in self.interpretations],
            "reason_code": self.why.code if self.why else None,
            "why": reason_json(self.why),
        }


# --------------------------------------------------------------------------- readings


def _inversions(order: Sequence[int]) -> int:
    return sum(1 for i in range(len(order)) for j in range(i + 1, len(order)) if order[i] > order[j])


def _run_readings(cards: tuple[Card, ...], rules: CardRules) -> list[Reading]:
    n = len(cards)
    naturals = [(i, c) for i, c in enumerate(cards) if not c.is_joker]
    jokers = [i for i, c in enumerate(cards) if c.is_joker]
    suits = {c.suit for _, c in naturals}
    if len(suits) != 1 or n > MAX_RUN:
        return []
    (suit,) = suits
    assert suit is not None
    out: list[Reading] = []
    for start in range(1, rules.top - n + 2):
        window = range(start, start + n)
        slots: dict[int, int] = {}  # written position -> run position
        for i, c in naturals:
            assert c.rank is not None
            where = [p for p in _positions(c.rank, rules) if p in window]
            if not where or where[0] in slots.values():
                break
            slots[i] = where[0]
        else:
            missing = [p for p in window if p not in slots.values()]
            slots.update(zip(jokers, missing))
            seq = tuple(run_card(suit, p) for p in window)
            out.append(
                Reading(
                    kind="run",
                    resolved=seq,
                    joker_cards=tuple((i, run_card(suit, slots[i])) for i in jokers),
                    inversions=_inversions([slots[i] for i in range(n)]),
                    value=sum(rules.points(c) for c in seq),
                )
            )
    return out


def _group_readings(cards: tuple[Card, ...], rules: CardRules) -> list[Reading]:
    n = len(cards)
    naturals = [c for c in cards if not c.is_joker]
    jokers = [i for i, c in enumerate(cards) if c.is_joker]
    ranks = {c.rank for c in naturals}
    suits = [c.suit for c in naturals]
    if n > MAX_GROUP or len(ranks) != 1 or len(set(suits)) != len(suits):
        return []
    (rank,) = ranks
    free = [s for s in SUITS if s not in suits]
    out: list[Reading] = []
    for chosen in combinations(free, len(jokers)):
        joker_cards = tuple((i, Card(rank, s)) for i, s in zip(jokers, chosen))
        stand = dict(joker_cards)
        resolved = tuple(stand.get(i, c) for i, c in enumerate(cards))
        out.append(
            Reading(
                kind="group",
                resolved=resolved,
                joker_cards=joker_cards,
                inversions=0,
                value=sum(rules.points(c) for c in resolved),
            )
        )
    return out


@lru_cache(maxsize=1 << 14)
def _readings(cards: tuple[Card, ...], rules: CardRules) -> tuple[Reading, ...]:
    n_jokers = sum(c.is_joker for c in cards)
    if len(cards) < MIN_SERIES or n_jokers > rules.jokers or n_jokers == len(cards):
        return ()
    found = _run_readings(cards, rules) + _group_readings(cards, rules)
    return tuple(sorted(found, key=lambda r: r.sort_key))


def readings(cards: Sequence[Card], rules: CardRules = CLOSED) -> tuple[Reading, ...]:
    """Every valid reading of ``cards``, the chosen one first (empty if not a valid series)."""
    return _readings(tuple(cards), rules)


# --------------------------------------------------------------------------- reasons


def _wraps(ranks: set[int], n: int) -> bool:
    """Would these ranks fit a run of ``n`` going round the corner (K-A-2)?"""
    for start in range(1, 14):
        cyclic = {(start - 1 + k) % 13 + 1 for k in range(n)}
        if ranks <= cyclic:
            return True
    return False


def _gaps(ranks: list[int], rules: CardRules) -> list[int]:
    """Run positions missing between the cards, over the shortest stretch."""
    options = [sorted(ranks)]
    if rules.ace_high and 1 in ranks:
        options.append(sorted(14 if r == 1 else r for r in ranks))
    best: list[int] | None = None
    for pos in options:
        gaps = [p for p in range(pos[0], pos[-1] + 1) if p not in pos]
        if best is None or len(gaps) < len(best):
            best = gaps
    assert best is not None
    return best


def _why_invalid(cards: tuple[Card, ...], rules: CardRules) -> Reason:
    written = format_cards(cards)
    n = len(cards)
    if n < MIN_SERIES:
        return Reason("series_too_few_cards", {"cards": written, "count": n, "min": MIN_SERIES})
    n_jokers = sum(c.is_joker for c in cards)
    if n_jokers and rules.jokers == 0:
        return Reason("series_no_jokers", {"game": rules.game})
    if n_jokers > rules.jokers:
        return Reason("series_too_many_jokers", {"jokers": n_jokers, "limit": rules.jokers})
    naturals = [c for c in cards if not c.is_joker]
    suits = {c.suit for c in naturals}
    ranks = {c.rank for c in naturals}
    repeated = [c for c, k in Counter(naturals).items() if k > 1]
    if len(suits) > 1 and len(ranks) > 1:
        return Reason("series_mixed", {"cards": written})
    if len(suits) == 1 and len(ranks) == 1:
        return Reason("series_same_card_twice", {"card": repeated[0].code})
    if len(ranks) == 1:
        if repeated:
            return Reason("series_group_suit_twice", {"card": repeated[0].code})
        return Reason("series_group_too_long", {"max": MAX_GROUP, "cards": written, "count": n})
    if repeated:
        return Reason("series_run_rank_twice", {"card": repeated[0].code})
    if n > MAX_RUN:
        return Reason("series_run_too_long", {"max": MAX_RUN, "count": n})
    int_ranks = {r for r in ranks if r is not None}
    if not rules.ace_high and 1 in int_ranks and _readings(cards, rules.with_(ace_high=True)):
        return Reason("series_ace_high_only", {"cards": written})
    if _wraps(int_ranks, n):
        return Reason("series_wraps", {"cards": written})
    (suit,) = suits
    assert suit is not None
    gaps = _gaps(sorted(int_ranks), rules)
    need = " ".join(run_card(suit, p).code for p in gaps)
    return Reason("series_run_gaps", {"cards": written, "need": need, "missing": len(gaps), "jokers": n_jokers})


# --------------------------------------------------------------------------- public API


@lru_cache(maxsize=1 << 14)
def _check(cards: tuple[Card, ...], rules: CardRules) -> SeriesCheck:
    found = _readings(cards, rules)
    if not found:
        why = _why_invalid(cards, rules)
        return SeriesCheck(valid=False, kind=None, value=0, reason=render(why), cards=cards, why=why)
    chosen = found[0]
    jokers: dict[int, list[Card]] = {i: [] for i, c in enumerate(cards) if c.is_joker}
    for reading in found:
        for i, card in reading.joker_cards:
            if card not in jokers[i]:
                jokers[i].append(card)
    return SeriesCheck(
        valid=True,
        kind=chosen.kind,
        value=chosen.value,
        reason=None,
        cards=cards,
        resolved=chosen.resolved,
        jokers={i: tuple(cs) for i, cs in jokers.items()},
        interpretations=tuple(r.resolved for r in found),
        kinds=tuple(r.kind for r in found),
    )


def check_series(cards: Sequence[Card], rules: CardRules = CLOSED) -> SeriesCheck:
    """Check one series and explain the verdict (memoised; treat the result as read-only)."""
    return _check(tuple(cards), rules)


def is_valid_series(cards: Sequence[Card], rules: CardRules = CLOSED) -> bool:
    """True if ``cards`` (in any order) form a run or a group under ``rules``."""
    return bool(_readings(tuple(cards), rules))
