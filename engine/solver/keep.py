"""Columns that keep a table set: the set as it is, or grown at its ends.

A set on the table is *kept* when it is still on the table afterwards, unchanged or with tiles
added at its ends (``K3 K4 K5`` + ``K6``; ``K5 R5 B5`` + ``O5`` or a joker; a Twist set with a
special joker: ``engine.solver.twist.special_extensions``). The solver prefers
plays that keep more sets (fewer sets for a person to rebuild by hand); these columns let the
integer program see that, and they keep every joker of the set where it was.

Additions are at most two tiles at each end of a run: three or more tiles added on one side are
a run of their own, laid next to the kept set (the layout step may join them back).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from engine.errors import InputError
from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.solver.catalogue import N_FACES, count_vector, exposed_jokers
from engine.solver.twist import special_extensions, special_order
from engine.tiles import COLOURS, NUMBERS, Tile

__all__ = ["KeepColumn", "keep_columns", "play_order"]

_N = len(NUMBERS)
_MAX_ADD = 2  # tiles added at one end of a run


@dataclass(frozen=True)
class KeepColumn:
    """Table set ``owner`` kept, with ``added`` faces at its ends (a joker may stand in for any of
    them): ``tiles`` is the set afterwards, in order; ``counts`` its 56 type counts (the added
    faces as faces); ``exposed`` the set's own jokers left exposed; ``safe`` the added faces a
    joker could stand for without being exposed."""

    owner: int
    tiles: tuple[Tile, ...]
    added: tuple[Tile, ...]
    counts: np.ndarray
    exposed: int
    safe: frozenset[Tile] = frozenset()


def play_order(tiles: Sequence[Tile], rules: HouseRules) -> tuple[Tile, ...]:
    """A valid set written in play order (a run low to high, jokers in their places; a group as
    written; a Twist set: ``engine.solver.twist.special_order``). Raises ValueError for an
    invalid set."""
    check = analyse_set(tiles, rules)
    if not check.valid:
        raise InputError(check.reason)
    if any(t.is_special for t in tiles):
        return special_order(tiles, rules)
    if check.kind == "group":
        return tuple(tiles)
    stands = {i: ts[0] for i, ts in check.jokers.items()}
    slot = {t: k for k, t in enumerate(check.resolved)}
    ordered: list[Tile | None] = [None] * len(tiles)
    for i, t in enumerate(tiles):
        ordered[slot[stands[i] if t.is_joker else t]] = t
    return tuple(t for t in ordered if t is not None)


def _run_extensions(ordered: tuple[Tile, ...], rules: HouseRules) -> list[tuple[tuple[Tile, ...], tuple[Tile, ...], frozenset[Tile]]]:
    resolved = analyse_set(ordered, rules).resolved
    colour = resolved[0].colour
    first, last = resolved[0].number, resolved[-1].number
    out = []
    for left in range(_MAX_ADD + 1):
        for right in range(_MAX_ADD + 1):
            if left == right == 0 or len(ordered) + left + right > _N:
                continue
            if not rules.wrap_around and (first - left < 1 or last + right > _N):
                continue
            lefts = tuple(Tile(colour, (first - 2 - k) % _N + 1) for k in range(left))[::-1]
            rights = tuple(Tile(colour, (last + k) % _N + 1) for k in range(right))
            tiles = lefts + ordered + rights
            inner = frozenset(tiles[1:-1]) & frozenset(lefts + rights)
            out.append((tiles, lefts + rights, inner))
    return out


def _group_extensions(ordered: tuple[Tile, ...]) -> list[tuple[tuple[Tile, ...], tuple[Tile, ...], frozenset[Tile]]]:
    if len(ordered) >= len(COLOURS):
        return []
    number = next(t.number for t in ordered if not t.is_joker)
    have = {t.colour for t in ordered}
    return [(ordered + (Tile(c, number),), (Tile(c, number),), frozenset()) for c in COLOURS if c not in have]


def _affordable(base: np.ndarray, available: np.ndarray, jokers: int):
    def ok(added: Sequence[Tile]) -> bool:
        counts = base + count_vector(added)
        return int(np.maximum(counts[:N_FACES] - available[:N_FACES], 0).sum()) <= jokers

    return ok


def keep_columns(
    table: Sequence[tuple[Tile, ...]],
    available: np.ndarray,
    jokers: int,
    rules: HouseRules,
    extend: bool = True,
) -> list[KeepColumn]:
    """For each table set (already in play order): keep it, and (if ``extend``) every way to grow
    it whose faces ``available`` (53 counts: the table's and the rack's) can supply, but for at
    most ``jokers`` faces a joker stands in for."""
    columns: list[KeepColumn] = []
    for owner, ordered in enumerate(table):
        base = count_vector(ordered)
        columns.append(KeepColumn(owner, ordered, (), base, exposed_jokers(ordered, rules)))
        if not extend:
            continue
        kind = analyse_set(ordered, rules).kind
        if any(t.is_special for t in ordered):  # Rummikub Twist
            grown = special_extensions(ordered, rules, _affordable(base, available, jokers))
        else:
            grown = _run_extensions(ordered, rules) if kind == "run" else _group_extensions(ordered)
        for tiles, added, safe in grown:
            if any(t in ordered for t in added):  # a face twice in one set (a joker stands for it)
                continue
            counts = base + count_vector(added)
            short = np.maximum(counts[:N_FACES] - available[:N_FACES], 0).sum()
            if short > jokers:  # (valid by construction: faces next to a run, a missing colour)
                continue
            columns.append(KeepColumn(owner, tiles, added, counts, exposed_jokers(tiles, rules), safe))
    return columns
