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
from functools import lru_cache
from typing import Sequence

import numpy as np

from engine.errors import InputError
from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.solver.catalogue import (
    JOKER_TYPE,
    N_FACES,
    TYPE_TILES,
    count_vector,
    exposed_jokers,
    masks_fit,
    row_masks,
    type_index,
)
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
    return _play_order(tuple(tiles), rules)


@lru_cache(maxsize=1 << 12)
def _play_order(tiles: tuple[Tile, ...], rules: HouseRules) -> tuple[Tile, ...]:
    """``play_order`` (memoised: the same table sets come back turn after turn)."""
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


_Way = tuple[tuple[Tile, ...], tuple[Tile, ...], frozenset[Tile]]  # tiles, added, safe


def _run_extensions(ordered: tuple[Tile, ...], rules: HouseRules) -> list[_Way]:
    resolved = analyse_set(ordered, rules).resolved
    colour = resolved[0].colour
    first, last = resolved[0].number, resolved[-1].number
    faces = TYPE_TILES[COLOURS.index(colour) * _N : (COLOURS.index(colour) + 1) * _N]  # of the colour, 1-13
    out = []
    for left in range(_MAX_ADD + 1):
        for right in range(_MAX_ADD + 1):
            if left == right == 0 or len(ordered) + left + right > _N:
                continue
            if not rules.wrap_around and (first - left < 1 or last + right > _N):
                continue
            lefts = tuple(faces[(first - 2 - k) % _N] for k in range(left))[::-1]
            rights = tuple(faces[(last + k) % _N] for k in range(right))
            # the added faces a joker could stand for inside the run: all but the new ends
            out.append((lefts + ordered + rights, lefts + rights, frozenset(lefts[1:] + rights[:-1])))
    return out


def _group_extensions(ordered: tuple[Tile, ...]) -> list[_Way]:
    if len(ordered) >= len(COLOURS):
        return []
    number = next(t.number for t in ordered if not t.is_joker)
    have = {t.colour for t in ordered}
    faces = [TYPE_TILES[k * _N + number - 1] for k, c in enumerate(COLOURS) if c not in have]
    return [(ordered + (t,), (t,), frozenset()) for t in faces]


def _affordable(base: np.ndarray, available: np.ndarray, jokers: int):
    def ok(added: Sequence[Tile]) -> bool:
        counts = base + count_vector(added)
        return int(np.maximum(counts[:N_FACES] - available[:N_FACES], 0).sum()) <= jokers

    return ok


@dataclass(frozen=True)
class _Growths:
    """A table set kept as it is and every way to grow it, with their face counts stacked (one
    row per way) to check them against a position at once. The jokers a way leaves exposed are
    worked out the first time a position can afford it (that needs the set analysed)."""

    kept: KeepColumn
    group: bool  # grown as a group (else as a run)
    ways: tuple[tuple[tuple[Tile, ...], tuple[Tile, ...], frozenset[Tile], np.ndarray], ...]  # _Way + counts
    faces: np.ndarray  # (len(ways), N_FACES)
    masks: np.ndarray | None  # the faces of each way as a 64-bit mask (None if one holds a face twice)
    # the columns made so far, by (way, owner; way -1: the set kept as it is): the same set comes
    # back at the same place turn after turn
    made: dict[tuple[int, int], KeepColumn]

    def column(self, k: int, owner: int, rules: HouseRules) -> KeepColumn:
        col = self.made.get((k, owner))
        if col is None:
            if k < 0:
                kept = self.kept
                col = KeepColumn(owner, kept.tiles, (), kept.counts, kept.exposed)
            else:
                tiles, added, safe, counts = self.ways[k]
                exposed = _grown_exposed(tiles, self.group, rules) if counts[JOKER_TYPE] else 0
                col = KeepColumn(owner, tiles, added, counts, exposed, safe)
            self.made[(k, owner)] = col
        return col


def _grown_exposed(tiles: tuple[Tile, ...], group: bool, rules: HouseRules) -> int:
    """``exposed_jokers`` of a grown set, without analysing it where the answer is plain: every
    joker of a group of four; none in a run whose ends are tiles (its jokers fill gaps)."""
    if group:
        return sum(t.is_joker for t in tiles)
    if not tiles[0].is_joker and not tiles[-1].is_joker:
        return 0
    return exposed_jokers(tiles, rules)


@lru_cache(maxsize=1 << 12)
def _growths(ordered: tuple[Tile, ...], rules: HouseRules, extend: bool) -> _Growths:
    """What ``keep_columns`` offers for one set without a Twist special joker, whatever the
    position (memoised: the same sets come back turn after turn)."""
    base = count_vector(ordered)
    base.flags.writeable = False
    kept = KeepColumn(0, ordered, (), base, exposed_jokers(ordered, rules) if base[JOKER_TYPE] else 0)
    ways = []
    group = analyse_set(ordered, rules).kind != "run"
    if extend:
        held = set(ordered)
        for tiles, added, safe in _group_extensions(ordered) if group else _run_extensions(ordered, rules):
            if not held.isdisjoint(added):  # a face twice in one set (a joker stands for it)
                continue
            counts = base.copy()
            for t in added:  # (one to four tiles: cheaper than counting them as a vector)
                counts[type_index(t)] += 1
            counts.flags.writeable = False
            ways.append((tiles, added, safe, counts))
    faces = np.array([w[3][:N_FACES] for w in ways], dtype=np.int64).reshape(len(ways), N_FACES)
    masks = row_masks(faces) if faces.max(initial=0) <= 1 else None
    return _Growths(kept, group, tuple(ways), faces, masks, {})


def keep_columns(
    table: Sequence[tuple[Tile, ...]],
    available: np.ndarray,
    jokers: int,
    rules: HouseRules,
    extend: bool = True,
    free: int | None = None,
    bound: np.ndarray | None = None,
) -> list[KeepColumn]:
    """For each table set (already in play order): keep it, and (if ``extend``) every way to grow
    it whose faces ``available`` (53 counts: the table's and the rack's) can supply, but for at
    most ``jokers`` faces a joker stands in for (with ``free`` and ``bound``, as
    ``Catalogue.fitting``: only ``free`` of them for any face, the others for a ``bound`` one)."""
    # a table set holds a special joker only if the counts say one is in play
    twist = len(available) <= JOKER_TYPE + 1 or bool(available[JOKER_TYPE + 1 :].any())
    bounded = bound is not None and free is not None and free < jokers
    grown: list[tuple[int, _Growths | None, list[KeepColumn]]] = []  # per set: its growths, or its columns
    for owner, ordered in enumerate(table):
        if twist and any(t.is_special for t in ordered):  # Rummikub Twist
            grown.append((owner, None, _special_columns(owner, ordered, available, jokers, rules, extend)))
        else:
            grown.append((owner, _growths(tuple(ordered), rules, extend), []))
    # the ways to grow every set checked at once (faces as masks, as ``Catalogue.fitting`` does)
    masks = [options.masks for _, options, _ in grown if options is not None and options.ways]
    fits: list[bool] = []
    if masks and all(m is not None for m in masks):
        fits = masks_fit(np.concatenate(masks), available, jokers, free, bound).tolist()
    columns: list[KeepColumn] = []
    at = 0
    for owner, options, special in grown:
        if options is None:
            columns += special
            continue
        columns.append(options.column(-1, owner, rules))
        if options.ways:
            # (valid by construction: faces next to a run, a missing colour)
            if fits:
                chosen = [k for k in range(len(options.ways)) if fits[at + k]]
                at += len(options.ways)
            else:
                chosen = _fitting_ways(options, available, jokers, free, bound if bounded else None)
            columns += [options.column(k, owner, rules) for k in chosen]
    return columns


def _fitting_ways(
    options: _Growths, available: np.ndarray, jokers: int, free: int | None, bound: np.ndarray | None
) -> list[int]:
    """The ways to grow a set that ``available`` can supply (``keep_columns``), face by face."""
    short = np.maximum(options.faces - available[:N_FACES], 0)
    fits = short.sum(axis=1) <= jokers
    if bound is not None:
        fits &= short[:, ~bound].sum(axis=1) <= free
    return np.flatnonzero(fits).tolist()


def _special_columns(
    owner: int, ordered: tuple[Tile, ...], available: np.ndarray, jokers: int, rules: HouseRules, extend: bool
) -> list[KeepColumn]:
    """``keep_columns`` for a set with a Twist special joker."""
    base = count_vector(ordered)
    columns = [KeepColumn(owner, ordered, (), base, exposed_jokers(ordered, rules))]
    if not extend:
        return columns
    for tiles, added, safe in special_extensions(ordered, rules, _affordable(base, available, jokers)):
        if any(t in ordered for t in added):  # a face twice in one set (a joker stands for it)
            continue
        counts = base + count_vector(added)
        if np.maximum(counts[:N_FACES] - available[:N_FACES], 0).sum() > jokers:
            continue
        columns.append(KeepColumn(owner, tiles, added, counts, exposed_jokers(tiles, rules), safe))
    return columns
