"""The integer program's columns and what a solution means: ``Model`` (one position's program,
its column blocks, decoding and cuts), ``Solution`` (a decoded point) and ``tile_values``.

Kept apart from ``engine.solver.model`` (which builds the rows) so that the row builders
(``engine.solver.joker_rows``) can use ``Model`` without importing the module that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np

from engine.rules import HouseRules
from engine.solver.catalogue import N_FACES, N_TYPES, Catalogue
from engine.solver.ilp import Ilp, IlpResult
from engine.solver.keep import KeepColumn
from engine.tiles import Tile
from engine.turns import TableJoker

__all__ = ["Model", "Solution", "tile_values"]


@lru_cache(maxsize=16)
def tile_values(rules: HouseRules) -> np.ndarray:
    """Points per tile type: the face value, a joker ``rules.joker_penalty`` (so does each Twist
    special joker: what ``engine.scoring.rack_value`` charges for one left on a rack). Read-only."""
    jokers = [rules.joker_penalty] * (N_TYPES - N_FACES)
    values = np.array([(i % 13) + 1 for i in range(N_FACES)] + jokers, dtype=np.int64)
    values.flags.writeable = False
    return values


@dataclass(frozen=True)
class Solution:
    """A decoded point: face sets used (catalogue index, repeated per copy), keep columns used,
    jokers standing in per face (52 counts), rack tiles played (53 counts)."""

    sets: tuple[int, ...]
    kept: tuple[KeepColumn, ...]
    jokers: np.ndarray
    played: np.ndarray

    @property
    def tiles_played(self) -> int:
        return int(self.played.sum())


@dataclass
class Model:
    rules: HouseRules
    opened: bool
    table: list[tuple[Tile, ...]]  # in play order
    rack_counts: np.ndarray
    table_counts: np.ndarray
    cat: Catalogue
    sets: np.ndarray  # catalogue indices of the face-set columns
    keep: list[KeepColumn]
    joker_faces: np.ndarray  # faces with a z (and a q) variable
    rack_vars: list[tuple[int, int]]  # (type, copy)
    ilp: Ilp | None = None
    n_extra: int = 0  # columns after the rack binaries (the joker reuse rule)
    stays: tuple[tuple[tuple, Tile, int], ...] = ()  # last columns: (table joker key, face, jokers)
    reuse_faces: frozenset[int] = frozenset()  # faces with reuse rows
    exposure: bool = True  # rows for exposed jokers among those standing in for faces
    weights: tuple[int, int, int] = (0, 0, 0)  # tiles, value, kept
    written: list[tuple[Tile, ...]] | None = None  # the table as written (joker readings)
    held: tuple[tuple[int, TableJoker], ...] = ()  # the table's jokers and their sets (when it is open)

    def __post_init__(self) -> None:
        if self.written is None:
            self.written = list(self.table)

    # column blocks: x | e | z | q | b (q only with the exposure rows: without them it is unused)
    @property
    def _blocks(self) -> tuple[int, int, int, int]:
        ns, nk, nz = len(self.sets), len(self.keep), len(self.joker_faces)
        return ns, ns + nk, ns + nk + nz, ns + nk + (2 if self.exposure else 1) * nz

    @property
    def n_cols(self) -> int:
        return self._blocks[3] + len(self.rack_vars) + self.n_extra + len(self.stays)

    def decode(self, values: np.ndarray) -> Solution:
        e0, z0, q0, b0 = self._blocks
        used = values[:e0].nonzero()[0]
        copies = zip(self.sets[used].tolist(), values[used].tolist())
        sets = tuple(s for s, n in copies for _ in range(int(n)))
        kept = tuple(self.keep[c] for c in values[e0:z0].nonzero()[0].tolist())
        jokers = np.zeros(N_FACES, dtype=np.int64)
        jokers[self.joker_faces] = values[z0:q0]
        types = [t for t, _ in self.rack_vars]
        played = np.bincount(types, weights=values[b0 : b0 + len(types)], minlength=N_TYPES).astype(np.int64)
        return Solution(sets, kept, jokers, played)

    def encode(self, sets: Sequence[int], kept: Sequence[int], played: np.ndarray) -> np.ndarray:
        """A column vector for a point without jokers standing in (the greedy start)."""
        e0, z0, q0, b0 = self._blocks
        values = np.zeros(self.n_cols, dtype=np.float64)
        where = {int(s): j for j, s in enumerate(self.sets)}
        for s in sets:
            values[where[int(s)]] += 1
        for c in kept:
            values[e0 + c] = 1
        for k, (t, copy) in enumerate(self.rack_vars):
            values[b0 + k] = 1.0 if played[t] >= copy else 0.0
        return values

    def solve(self, time_limit: float, quick: bool = True) -> IlpResult:
        assert self.ilp is not None
        return self.ilp.solve(time_limit, quick)

    def exclude_played(self, played: np.ndarray) -> None:
        """Cut off every point that plays exactly this multiset of rack tiles."""
        assert self.ilp is not None
        b0 = self._blocks[3]
        idx, val, ones = [], [], 0
        for k, (t, copy) in enumerate(self.rack_vars):
            idx.append(b0 + k)
            if played[t] >= copy:
                val.append(-1.0)
                ones += 1
            else:
                val.append(1.0)
        self.ilp.add_row(idx, val, 1 - ones, np.inf)

    def prefix(self, values: np.ndarray) -> tuple[int, int, int]:
        """The first three criteria of a point: tiles played, their value, keep columns used."""
        e0, z0, q0, b0 = self._blocks
        vals = tile_values(self.rules)
        b = values[b0 : b0 + len(self.rack_vars)]
        tiles = int(sum(b))
        value = int(sum(v * vals[t] for (t, _), v in zip(self.rack_vars, b)))
        return tiles, value, int(values[e0:z0].sum())

    def require_prefix(self, prefix: tuple[int, int, int]) -> None:
        """Only points exactly this good on the first three criteria (the best, so as good)."""
        assert self.ilp is not None
        tiles, value, kept = prefix
        e0, z0, q0, b0 = self._blocks
        vals = tile_values(self.rules)
        bs = [b0 + k for k in range(len(self.rack_vars))]
        self.ilp.add_row(bs, [1.0] * len(bs), tiles, tiles)
        self.ilp.add_row(bs, [float(vals[t]) for t, _ in self.rack_vars], value, value)
        self.ilp.add_row(list(range(e0, z0)), [1.0] * (z0 - e0), kept, kept)

    def exclude_support(self, values: np.ndarray) -> None:
        """Cut off this point and every point that uses only its sets, keep columns and jokers."""
        assert self.ilp is not None
        q0 = self._blocks[2]
        idx = [j for j in range(q0) if values[j] == 0]
        self.ilp.add_row(idx, [1.0] * len(idx), 1, np.inf)
