"""Every set the solver may build, as columns over the 52 faces; jokers fill in for faces.

A *face set* is a valid set written with faces only: every group (3 or 4 colours of one number)
and every run of 3, 4 or 5 tiles (through 13-1 when ``rules.wrap_around``). A joker on the
table afterwards stands for one face of one of these sets, so the integer program counts jokers
per face they stand for instead of listing every set with jokers in every position: far fewer
columns, the same plays. Nothing with a "redundant" joker is lost (``K3 K4 K5 J`` is the run
K3-K6 with a joker for K6; ``K5 R5 B5 J`` the group of four).

Longer runs are left out on purpose: a run of 6 or more tiles is two runs of 3-5 laid end to
end, so the shorter sets allow exactly the same placements; the layout step joins them back.

A joker is *exposed* when the next player could lift it off with the set staying valid: at an
end of a run of 4 or more, or anywhere in a group of 4. ``safe[i, j]`` says whether a joker for
face ``i`` in face set ``j`` would be safe (any face of a 3-tile set, an inner face of a run).

Rummikub Twist (``rules.twist``): the special jokers JD, JM, JC are tile types 53-55, and the
catalogue also holds every set shape with a special joker (``engine.solver.twist``), after the
face sets; ``specials[k, j]`` says whether set ``j`` holds special joker ``k`` (D, M, C). Without
Twist those columns do not exist (the base game's catalogue is unchanged).

The catalogue is built once per ``HouseRules`` (a module-level cache).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Iterable, Sequence

import numpy as np

from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.tiles import ALL_FACES, COLOURS, JOKER, NUMBERS, SPECIAL_JOKERS, SPECIALS, Tile, face

__all__ = [
    "JOKER_TYPE",
    "N_FACES",
    "SPECIAL_TYPES",
    "N_TYPES",
    "TYPE_TILES",
    "Catalogue",
    "FaceSet",
    "catalogue",
    "count_vector",
    "exposed_jokers",
    "face_mask",
    "row_masks",
    "type_index",
]

N_FACES = len(ALL_FACES)  # 52
JOKER_TYPE = N_FACES  # 52
SPECIAL_TYPES: dict[str, int] = {k: JOKER_TYPE + 1 + i for i, k in enumerate(SPECIALS)}  # D 53, M 54, C 55
N_TYPES = N_FACES + 1 + len(SPECIALS)  # 56
TYPE_TILES: tuple[Tile, ...] = ALL_FACES + (JOKER,) + SPECIAL_JOKERS
_N = len(NUMBERS)


_TYPE_OF: dict[Tile, int] = {t: i for i, t in enumerate(TYPE_TILES)}


def type_index(tile: Tile) -> int:
    """Row of ``tile`` in the count vectors: colour-major faces (K1..K13, R1..), then the joker,
    then the Twist special jokers (JD, JM, JC)."""
    return _TYPE_OF[tile]


def count_vector(tiles: Iterable[Tile]) -> np.ndarray:
    """How many tiles of each of the 56 types (int64)."""
    return np.bincount(list(map(_TYPE_OF.__getitem__, tiles)), minlength=N_TYPES).astype(np.int64, copy=False)


def exposed_jokers(tiles: Sequence[Tile], rules: HouseRules) -> int:
    """Jokers the next player could lift off with the set staying valid: those at an end of a run
    of 4 or more, every joker of a group of 4 (the tiles in play order; 0 for an invalid set).
    Only regular jokers count (a Twist special joker is never lifted off alone), and none in a
    Twist mirror set (taking one tile off one side unbalances it)."""
    if not any(t.is_joker for t in tiles):
        return 0
    check = analyse_set(tiles, rules)
    if not check.valid or len(tiles) < 4 or check.kind == "mirror":
        return 0
    if check.kind == "group":
        return sum(t.is_joker for t in tiles)
    stands = {i: ts[0] for i, ts in check.jokers.items() if tiles[i].is_joker}
    ends = {check.resolved[0], check.resolved[-1]}
    return sum(1 for i in stands if stands[i] in ends)


@dataclass(frozen=True)
class FaceSet:
    """One column: the faces of a valid set in play order, its kind and its points; ``tiles``
    the set as written in play order when it holds a Twist special joker (else the faces)."""

    faces: tuple[Tile, ...]
    kind: str
    points: int
    tiles: tuple[Tile, ...] = ()

    @property
    def written(self) -> tuple[Tile, ...]:
        return self.tiles or self.faces

    @property
    def size(self) -> int:
        return len(self.faces)


@dataclass(frozen=True)
class Catalogue:
    """All face sets for one set of house rules; ``matrix[i, j]`` = 1 if face i is in set j."""

    sets: tuple[FaceSet, ...]
    matrix: np.ndarray  # (N_FACES, n) int64, 0/1
    safe: np.ndarray  # (N_FACES, n) bool
    points: np.ndarray  # (n,) int64
    sizes: np.ndarray  # (n,) int64
    n_base: int = 0  # the face sets come first; the Twist columns (special jokers) after them
    specials: np.ndarray | None = None  # (3, n - n_base) int64: JD, JM, JC in each Twist column
    # (n_base, 5) the faces of each face set, padded with N_FACES (a stand-in that is always there)
    face_rows: np.ndarray = field(default_factory=lambda: np.zeros((0, 5), dtype=np.int64))
    face_bits: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint64))  # the same, bit f

    def __len__(self) -> int:
        return len(self.sets)

    def holds(self, sets: np.ndarray) -> np.ndarray:
        """(52 bools) the faces some of ``sets`` (catalogue indices) hold."""
        bits = np.bitwise_or.reduce(self.face_bits[sets[sets < self.n_base]])
        out = (bits >> _FACE_SHIFTS) & np.uint64(1) > 0
        twist = sets[sets >= self.n_base]
        if len(twist):
            out |= self.matrix[:, twist].any(axis=1)
        return out

    def fitting(
        self, available: np.ndarray, jokers: int, free: int | None = None, bound: np.ndarray | None = None
    ) -> np.ndarray:
        """Indices of the sets whose faces ``available`` (52+ counts) has, but for at most
        ``jokers`` faces that jokers stand in for (and, for a Twist column, its special jokers).
        With ``free`` and ``bound`` (52 bools): only ``free`` of those jokers may stand for any
        face, the others only for the ``bound`` faces (table jokers that must stay what they were)."""
        nb = self.n_base
        found = masks_fit(self.face_bits, available, jokers, free, bound).nonzero()[0]
        if self.specials is None or len(available) < N_TYPES:
            return found
        held = available[JOKER_TYPE + 1 : N_TYPES]
        if not held.any():
            return found
        ok = (self.specials <= held[:, None]).all(axis=0)
        short = np.maximum(self.matrix[:, nb:] - available[:N_FACES, None], 0).sum(axis=0)
        twist = nb + np.flatnonzero(ok & (short <= jokers))
        return np.concatenate([found, twist])


_FACE_SHIFTS = np.arange(N_FACES, dtype=np.uint64)
_FACE_BITS = np.left_shift(np.uint64(1), _FACE_SHIFTS)


def face_mask(faces: np.ndarray) -> np.uint64:
    """52 bools as one 64-bit mask (bit ``f`` for face ``f``)."""
    return np.bitwise_or.reduce(_FACE_BITS[faces])


def masks_fit(
    masks: np.ndarray, available: np.ndarray, jokers: int, free: int | None = None, bound: np.ndarray | None = None
) -> np.ndarray:
    """(n,) bools: which face sets (64-bit masks, ``row_masks``) ``available`` (52+ counts) has, but
    for at most ``jokers`` faces that jokers stand in for; with ``free`` and ``bound`` (52 bools),
    only ``free`` of them for any face, the others for a ``bound`` one."""
    missing = masks & ~face_mask(available[:N_FACES] > 0)  # per face set, its missing faces
    fits = np.bitwise_count(missing) <= jokers
    if bound is not None and free is not None and free < jokers:
        fits &= np.bitwise_count(missing & ~face_mask(bound)) <= free
    return fits


def row_masks(rows: np.ndarray) -> np.ndarray:
    """(n, 52) face counts of 0 or 1 as n 64-bit masks (``face_mask`` of each row)."""
    return (rows.astype(np.uint64) * _FACE_BITS).sum(axis=1, dtype=np.uint64)


def _runs(rules: HouseRules) -> Iterable[tuple[Tile, ...]]:
    for colour in COLOURS:
        for length in (3, 4, 5):
            starts = NUMBERS if rules.wrap_around else range(1, _N - length + 2)
            for start in starts:
                yield tuple(face(colour, (start - 1 + k) % _N + 1) for k in range(length))


def _groups() -> Iterable[tuple[Tile, ...]]:
    for number in NUMBERS:
        for size in (3, 4):
            for colours in combinations(COLOURS, size):
                yield tuple(face(c, number) for c in colours)


def catalogue(rules: HouseRules, jokers: int = 2) -> Catalogue:
    """The face sets for ``rules`` (cached: built once per distinct rules object); under Twist
    with the special joker columns for ``jokers`` regular jokers in play (0-2)."""
    return _catalogue(rules, min(max(jokers, 0), 2) + 1 if rules.twist else 3)


@lru_cache(maxsize=16)
def _catalogue(rules: HouseRules, min_faces: int) -> Catalogue:
    sets: list[FaceSet] = []
    for faces in _groups():
        sets.append(FaceSet(faces, "group", sum(t.number for t in faces)))
    for faces in _runs(rules):
        sets.append(FaceSet(faces, "run", sum(t.number for t in faces)))
    n_base = len(sets)
    if rules.twist:
        from engine.solver.twist import twist_shapes  # only under Twist

        sets += [FaceSet(sh.faces, sh.kind, sh.points, sh.tiles) for sh in twist_shapes(rules, min_faces)]
    n = len(sets)
    matrix = np.zeros((N_FACES, n), dtype=np.int64)
    safe = np.zeros((N_FACES, n), dtype=bool)
    for j, s in enumerate(sets[:n_base]):
        for k, t in enumerate(s.faces):
            i = type_index(t)
            matrix[i, j] = 1
            safe[i, j] = s.size == 3 or (s.kind == "run" and 0 < k < s.size - 1)
    specials = None
    if n > n_base:
        specials = np.zeros((len(SPECIALS), n - n_base), dtype=np.int64)
        for j, s in enumerate(sets[n_base:], start=n_base):
            tiles = s.tiles
            for t in tiles:
                if t.special is not None:
                    specials[SPECIALS.index(t.special), j - n_base] += 1
            # a regular joker for a face is safe unless the next player could lift it off: in a
            # set of 3 tiles, a mirror, and inside a run it is safe; at a run's end (4+ tiles),
            # or in a group of 4 tiles, it is not (``exposed_jokers``)
            ends = (tiles[0], tiles[-1]) if s.kind == "run" else ()
            for t in s.faces:
                i = type_index(t)
                matrix[i, j] += 1
                safe[i, j] = len(tiles) == 3 or s.kind == "mirror" or (s.kind == "run" and t not in ends)
    face_rows = np.full((n_base, 5), N_FACES, dtype=np.int64)
    face_bits = np.zeros(n_base, dtype=np.uint64)
    for j, s in enumerate(sets[:n_base]):
        face_rows[j, : s.size] = [type_index(t) for t in s.faces]
        face_bits[j] = face_mask(np.isin(np.arange(N_FACES), face_rows[j]))
        # ``engine.sets`` memoises its analyses: a face set laid down is analysed again by the
        # layout and by ``validate_turn``, so it is done once here rather than in a hint
        analyse_set(s.faces, rules)
    return Catalogue(
        sets=tuple(sets),
        matrix=matrix,
        safe=safe,
        face_rows=face_rows,
        face_bits=face_bits,
        points=np.array([s.points for s in sets], dtype=np.int64),
        sizes=np.array([s.size for s in sets], dtype=np.int64),
        n_base=n_base,
        specials=specials,
    )
