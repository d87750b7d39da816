"""Is this a valid set? Which tile does each joker stand for? Why not?

A **group** is 3 or 4 tiles of one number in different colours (``K7 R7 B7``).
A **run** is 3 or more consecutive numbers in one colour (``R10 R11 R12``), at most 13 long;
1 is always low and 13 always high, so ``O12 O13 O1`` is not a run unless the
``wrap_around`` house rule is on (then ``O12 O13 O1 O2`` is one, still at most 13 tiles).
Jokers stand in for any tile. A full set has two jokers, so a set with three is reported invalid.

Validity never depends on the order the tiles are written in (a photo may read them in any
order: ``R12 R10 R11`` is a valid run). Where a joker's meaning is ambiguous, every valid
reading is reported and one is *chosen*, by these rules in turn:

1. the reading that best fits the written order: fewest pairs of tiles written in the opposite
   order to their place in the run (a group has no order, so a group reading always fits);
   ``O5 J J`` is O5 O6 O7 while ``J J O5`` is O3 O4 O5, ``K7 K8 J`` makes the joker K9;
2. a run before a group (``J J K5`` reads K3 K4 K5; ``J J K1`` is a group since the run K1 K2 K3
   would have to be written backwards);
3. a run that does not wrap through 13-1 before one that does;
4. the higher value (``K7 J K8`` fits K6 and K9 equally badly: the joker is K9);
5. colour order K, R, B, O and lower numbers for the jokers (``K5 R5 J``: the joker is B5).

Two jokers in one reading are matched to the tiles they stand for in written order: the first
joker written takes the lower number of the run (or the earlier colour, K R B O, of the group).
``SetCheck.jokers`` lists, for each joker's written position, every tile it stands for across
all readings, the chosen reading's tile first.

``analyse_set`` is memoised (the solver and the photo reader call it a lot): the ``SetCheck`` it
returns is shared, so treat it, its ``jokers`` dict included, as read-only.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Literal, Sequence

from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import COLOURS, JOKERS_IN_SET, NUMBERS, Tile, format_tiles

__all__ = [
    "Interpretation",
    "SetCheck",
    "analyse_set",
    "interpretations",
    "is_valid_set",
    "set_value",
    "MAX_GROUP",
    "MAX_RUN",
    "MIN_SET",
]

Kind = Literal["run", "group"]

MIN_SET = 3
MAX_GROUP = len(COLOURS)  # 4
MAX_RUN = len(NUMBERS)  # 13


@dataclass(frozen=True)
class Interpretation:
    """One valid reading of a set.

    kind:        "run" or "group"
    resolved:    the tiles in play order (a run low to high; a group as written) with each
                 joker replaced by the tile it stands for
    joker_tiles: for each joker, (its written position, the tile it stands for)
    inversions:  pairs of tiles written in the opposite order to the play order (0 for a group)
    wraps:       the run goes through 13-1
    value:       sum of the numbers, jokers counted as the tile they stand for
    """

    kind: Kind
    resolved: tuple[Tile, ...]
    joker_tiles: tuple[tuple[int, Tile], ...]
    inversions: int
    wraps: bool
    value: int

    @property
    def rank(self) -> tuple:
        """Sort key: the chosen reading sorts first (see the module docstring)."""
        jokers = tuple((COLOURS.index(t.colour), t.number) for _, t in self.joker_tiles)
        return (self.inversions, 0 if self.kind == "run" else 1, self.wraps, -self.value, jokers)


@dataclass(frozen=True)
class SetCheck:
    """The verdict on one set, with the explanation.

    valid, kind ("run"/"group"/None), value (0 if invalid), reason (why invalid, else None),
    tiles (as written), resolved (chosen reading, jokers replaced), jokers (joker written
    position -> every tile it can stand for, chosen first), interpretations (all readings as
    resolved tuples, chosen first), kinds (the kind of each reading), best (how many leading
    readings fit the written order as well as the chosen one; 0 if invalid).
    """

    valid: bool
    kind: Kind | None
    value: int
    reason: str | None
    tiles: tuple[Tile, ...]
    resolved: tuple[Tile, ...] = ()
    jokers: dict[int, tuple[Tile, ...]] = field(default_factory=dict, hash=False)
    interpretations: tuple[tuple[Tile, ...], ...] = ()
    kinds: tuple[Kind, ...] = ()
    best: int = 0

    @property
    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]


# --------------------------------------------------------------------------- readings


def _inversions(order: Sequence[int]) -> int:
    return sum(1 for i in range(len(order)) for j in range(i + 1, len(order)) if order[i] > order[j])


def _run_numbers(start: int, length: int) -> list[int]:
    return [(start - 1 + k) % MAX_RUN + 1 for k in range(length)]


def _run_readings(tiles: tuple[Tile, ...], rules: HouseRules) -> list[Interpretation]:
    n = len(tiles)
    faces = [(i, t) for i, t in enumerate(tiles) if not t.is_joker]
    jokers = [i for i, t in enumerate(tiles) if t.is_joker]
    colours = {t.colour for _, t in faces}
    numbers = [t.number for _, t in faces]
    if len(colours) != 1 or len(set(numbers)) != len(numbers) or n > MAX_RUN:
        return []
    (colour,) = colours
    present = set(numbers)
    starts = range(1, MAX_RUN + 1) if rules.wrap_around else range(1, MAX_RUN - n + 2)
    out: list[Interpretation] = []
    for start in starts:
        seq = _run_numbers(start, n)
        if not present <= set(seq):
            continue
        slot = {num: k for k, num in enumerate(seq)}
        missing = [num for num in seq if num not in present]
        joker_numbers = dict(zip(jokers, missing))
        order = [slot[t.number] if not t.is_joker else slot[joker_numbers[i]] for i, t in enumerate(tiles)]
        out.append(
            Interpretation(
                kind="run",
                resolved=tuple(Tile(colour, num) for num in seq),
                joker_tiles=tuple((i, Tile(colour, num)) for i, num in joker_numbers.items()),
                inversions=_inversions(order),
                wraps=start + n - 1 > MAX_RUN,
                value=sum(seq),
            )
        )
    return out


def _group_readings(tiles: tuple[Tile, ...]) -> list[Interpretation]:
    n = len(tiles)
    faces = [t for t in tiles if not t.is_joker]
    jokers = [i for i, t in enumerate(tiles) if t.is_joker]
    numbers = {t.number for t in faces}
    colours = [t.colour for t in faces]
    if n > MAX_GROUP or len(numbers) != 1 or len(set(colours)) != len(colours):
        return []
    (number,) = numbers
    free = [c for c in COLOURS if c not in colours]
    out: list[Interpretation] = []
    for chosen in combinations(free, len(jokers)):
        joker_tiles = tuple((i, Tile(c, number)) for i, c in zip(jokers, chosen))
        stand = dict(joker_tiles)
        out.append(
            Interpretation(
                kind="group",
                resolved=tuple(stand.get(i, t) for i, t in enumerate(tiles)),
                joker_tiles=joker_tiles,
                inversions=0,
                wraps=False,
                value=number * n,
            )
        )
    return out


@lru_cache(maxsize=1 << 16)
def _readings(tiles: tuple[Tile, ...], rules: HouseRules) -> tuple[Interpretation, ...]:
    n_jokers = sum(t.is_joker for t in tiles)
    if len(tiles) < MIN_SET or n_jokers > JOKERS_IN_SET:
        return ()
    found = _run_readings(tiles, rules) + _group_readings(tiles)
    return tuple(sorted(found, key=lambda r: r.rank))


def interpretations(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> tuple[Interpretation, ...]:
    """Every valid reading of ``tiles``, the chosen one first (empty if the set is invalid)."""
    return _readings(tuple(tiles), rules)


# --------------------------------------------------------------------------- reasons


def _missing_between(numbers: list[int], wrap: bool) -> list[int]:
    """The numbers a run through ``numbers`` still needs, over the shortest stretch."""
    present = set(numbers)
    if not wrap:
        return [k for k in range(min(present), max(present) + 1) if k not in present]
    candidates = []
    for start in sorted(present):
        span = next(
            length for length in range(1, MAX_RUN + 1) if present <= set(_run_numbers(start, length))
        )
        candidates.append([k for k in _run_numbers(start, span) if k not in present])
    return min(candidates, key=len)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _why_invalid(tiles: tuple[Tile, ...], rules: HouseRules) -> str:
    written = format_tiles(tiles)
    n = len(tiles)
    if n < MIN_SET:
        return f"a set needs at least {MIN_SET} tiles, {written or 'this'} has {n}"
    n_jokers = sum(t.is_joker for t in tiles)
    if n_jokers > JOKERS_IN_SET:
        return f"{n_jokers} jokers: a full set has only {JOKERS_IN_SET} jokers"
    faces = [t for t in tiles if not t.is_joker]
    colours = {t.colour for t in faces}
    numbers = {t.number for t in faces}
    repeated = [t for t, k in Counter(faces).items() if k > 1]
    if len(colours) > 1 and len(numbers) > 1:
        return f"{written} mixes colours and numbers: a run is one colour, a group is one number"
    if len(colours) == 1 and len(numbers) == 1:  # the same face, repeated
        return (
            f"{repeated[0].code} appears twice: a group needs different colours, "
            "a run different numbers"
        )
    if len(numbers) == 1:  # a group that fails
        if repeated:
            return f"{repeated[0].code} appears twice: a group needs different colours"
        return f"a group has at most {MAX_GROUP} tiles, {written} has {n}"
    # a run that fails
    if repeated:
        return f"{repeated[0].code} appears twice: a run needs different numbers"
    if n > MAX_RUN:
        return f"a run has at most {MAX_RUN} tiles, this one has {n}"
    if not rules.wrap_around and _readings(tiles, rules.with_(wrap_around=True)):
        return f"{written} wraps 13-1: not allowed unless the wrap-around house rule is on"
    (colour,) = colours
    gaps = _missing_between(sorted(numbers), rules.wrap_around)
    need = " ".join(f"{colour}{k}" for k in gaps)
    return (
        f"{written} is not a run: it needs {need} to be consecutive "
        f"({_plural(len(gaps), 'tile')} missing, {_plural(n_jokers, 'joker')} to fill them)"
    )


# --------------------------------------------------------------------------- public API


@lru_cache(maxsize=1 << 16)
def _analyse(tiles: tuple[Tile, ...], rules: HouseRules) -> SetCheck:
    readings = _readings(tiles, rules)
    if not readings:
        return SetCheck(valid=False, kind=None, value=0, reason=_why_invalid(tiles, rules), tiles=tiles)
    chosen = readings[0]
    jokers: dict[int, list[Tile]] = {i: [] for i, t in enumerate(tiles) if t.is_joker}
    for reading in readings:
        for i, tile in reading.joker_tiles:
            if tile not in jokers[i]:
                jokers[i].append(tile)
    fit = chosen.inversions
    return SetCheck(
        valid=True,
        kind=chosen.kind,
        value=chosen.value,
        reason=None,
        tiles=tiles,
        resolved=chosen.resolved,
        jokers={i: tuple(ts) for i, ts in jokers.items()},
        interpretations=tuple(r.resolved for r in readings),
        kinds=tuple(r.kind for r in readings),
        best=sum(1 for r in readings if r.inversions == fit),
    )


def analyse_set(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> SetCheck:
    """Check one set and explain the verdict (memoised on the tiles and the rules)."""
    return _analyse(tuple(tiles), rules)


def is_valid_set(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> bool:
    """True if ``tiles`` (in any order) form a run or a group."""
    return _analyse(tuple(tiles), rules).valid


def set_value(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> int:
    """Points of the set in its chosen reading (jokers count as the tile they stand for); 0 if invalid."""
    return _analyse(tuple(tiles), rules).value
