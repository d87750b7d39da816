"""Rummikub Twist in the hint solver: the sets with a special joker (``JD``, ``JM``, ``JC``) the
integer program may build, and how such a set on the table is written and grown.

The special jokers enter the program as columns like the face sets (``engine.solver.catalogue``):
one column per set *shape* - the numbered tiles it holds (its faces; a regular joker may still
stand in for any of them, as for the other face sets) and the special jokers it holds - and one
balance row per special joker (there is one of each in the box: a column with it is used at most
once). Every shape is checked with ``engine.sets.analyse_set`` (the single source of truth: a
shape it rejects is left out), and where a set has several readings each is its own column.

* Double (JD): a run of 4 or more numbers in which the JD covers two consecutive ones (never
  13-1: ``engine.sets`` forbids it), and the group of four whose two missing colours the JD
  covers (2 faces + JD). Counts both numbers.
* Colour change (JC): a run whose colour changes at the JC: the faces before it one colour, the
  faces after it another (ordered pairs of colours); the JC is never at an end. Counts its number.
  A JC and the JD may share a run.
* Mirror (JM): a side (a run of 1-4 tiles, or a group of 2-4) and the JM between the side and
  its mirror image: each face twice. Counts the side twice (the JM itself 0).

Long runs. A run with a special joker that can be cut into two valid sets each holding more
faces than there are regular jokers in play (``min_faces``: 1-3) is left out: the two pieces
allow exactly the same placements (the layout joins runs that meet end to end back). The faces
matter: a regular joker may stand in for any face, and a piece whose faces could all be jokers
could end up holding no numbered tile, which ``engine.sets`` forbids, where the whole run would
still hold one. What is left are runs of at most 8 numbers; no run is cut off on length alone.
A mirror with a run side of 5 or more is two runs of 3+ and a mirror of side 2
(``K4..K8 JM K8..K4`` = ``K4 K5 K6`` twice + ``K7 K8 JM K8 K7``), so sides of 1-4 suffice (1-3
while fewer than two regular jokers are in play: a side of 4 is then two sets of 3 and a mirror
of one tile).

A set with a special joker must hold a numbered tile: the rows for that (``_numbered_rows`` in
``engine.solver.model``) are needed only for columns with no more faces than regular jokers in
play (at most 2).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations, permutations
from typing import Callable, Iterator, Sequence

from engine.rules import HouseRules
from engine.sets import analyse_set, interpretations
from engine.tiles import COLOUR_JOKER, COLOURS, DOUBLE_JOKER, JOKER, MIRROR_JOKER, NUMBERS, Tile
from engine.turns import table_jokers

__all__ = ["TwistShape", "twist_shapes", "special_order", "special_extensions", "MIN_PIECE_FACES"]

_N = len(NUMBERS)
MIN_PIECE_FACES = 3  # a piece of a cut run keeps this many faces (see the module docstring)
_MAX_ADD = 2  # tiles added at one end of a kept run (more are a run of their own)


@dataclass(frozen=True)
class TwistShape:
    """One column: the set in play order (special jokers in place), its faces, kind and points."""

    tiles: tuple[Tile, ...]
    faces: tuple[Tile, ...]
    kind: str
    points: int


# --------------------------------------------------------------------------- runs (JD, JC)


def _piece_ok(lo: int, hi: int, jc: int | None, jd: tuple[int, int] | None, min_faces: int) -> bool:
    """Slots ``lo..hi-1`` of a valid special run as a set of its own: at least 3 tiles and
    ``min_faces`` faces, a JC in it not at its ends (the colours around it differ, the JD never
    wraps: inherited from the whole run)."""
    has_jd = bool(jd) and lo <= jd[0] < hi  # type: ignore[index]
    faces = (hi - lo) - (1 if jc is not None and lo <= jc < hi else 0) - (2 if has_jd else 0)
    if faces < min_faces or (hi - lo) - (1 if has_jd else 0) < 3:
        return False
    if jc is not None and lo <= jc < hi and (jc == lo or jc == hi - 1):
        return False
    return True


def _cuttable(length: int, jc: int | None, jd: tuple[int, int] | None, min_faces: int) -> bool:
    for cut in range(1, length):
        if jd and cut == jd[1]:  # through the double
            continue
        if _piece_ok(0, cut, jc, jd, min_faces) and _piece_ok(cut, length, jc, jd, min_faces):
            return True
    return False


def _run_shapes(rules: HouseRules, min_faces: int = MIN_PIECE_FACES) -> Iterator[TwistShape]:
    wrap = rules.wrap_around
    for length in range(3, _N + 1):
        starts = NUMBERS if wrap else range(1, _N - length + 2)
        for start in starts:
            seq = [(start - 1 + k) % _N + 1 for k in range(length)]
            for jc in [None, *range(1, length - 1)]:
                pairs: list[tuple[int, int] | None] = [None]
                pairs += [
                    (k, k + 1)
                    for k in range(length - 1)
                    if jc not in (k, k + 1) and not (seq[k] == _N and seq[k + 1] == 1)
                ]
                for jd in pairs:
                    if jc is None and jd is None:
                        continue
                    if length - (1 if jd else 0) < 3 or _cuttable(length, jc, jd, min_faces):
                        continue
                    colourings = permutations(COLOURS, 2) if jc is not None else ((c, c) for c in COLOURS)
                    for first, second in colourings:
                        tiles: list[Tile] = []
                        faces: list[Tile] = []
                        for k in range(length):
                            if k == jc:
                                tiles.append(COLOUR_JOKER)
                            elif jd and k == jd[0]:
                                tiles.append(DOUBLE_JOKER)
                            elif jd and k == jd[1]:
                                continue
                            else:
                                face = Tile(first if jc is None or k < jc else second, seq[k])
                                tiles.append(face)
                                faces.append(face)
                        yield TwistShape(tuple(tiles), tuple(faces), "run", sum(seq))


def _double_groups() -> Iterator[TwistShape]:
    for number in NUMBERS:
        for colours in combinations(COLOURS, 2):
            faces = tuple(Tile(c, number) for c in colours)
            yield TwistShape(faces + (DOUBLE_JOKER,), faces, "group", 4 * number)


def _mirror_shapes(rules: HouseRules, min_faces: int = MIN_PIECE_FACES) -> Iterator[TwistShape]:
    # a side of 4 is two sets of 3 and a mirror of one tile (2 faces): needed only when both
    # regular jokers could stand in for those 2 faces
    longest = 4 if min_faces > 2 else 3
    sides: list[tuple[Tile, ...]] = []
    for colour in COLOURS:
        for size in range(1, longest + 1):
            starts = NUMBERS if rules.wrap_around and size > 1 else range(1, _N - size + 2)
            for start in starts:
                sides.append(tuple(Tile(colour, (start - 1 + k) % _N + 1) for k in range(size)))
    for number in NUMBERS:
        for size in range(2, longest + 1):
            for colours in combinations(COLOURS, size):
                sides.append(tuple(Tile(c, number) for c in colours))
    for side in sides:
        kind = "mirror"
        yield TwistShape(side + (MIRROR_JOKER,) + side[::-1], side + side[::-1], kind, 2 * sum(t.number for t in side))


@lru_cache(maxsize=16)
def twist_shapes(rules: HouseRules, min_faces: int = MIN_PIECE_FACES) -> tuple[TwistShape, ...]:
    """Every special-joker column shape for ``rules`` (``rules.twist`` on) when a piece of a cut
    set must keep ``min_faces`` faces (the regular jokers in play + 1, at most 3: see the module
    docstring; cached). Built
    from the rules' structure alone, for speed: the model checks each shape it uses with
    ``engine.sets.analyse_set`` and drops one that fails (the tests check that none does)."""
    seen: set[tuple[Tile, ...]] = set()
    out: list[TwistShape] = []
    for shape in (*_run_shapes(rules, min_faces), *_double_groups(), *_mirror_shapes(rules, min_faces)):
        if shape.tiles in seen:
            continue
        seen.add(shape.tiles)
        out.append(shape)
    return tuple(out)


# --------------------------------------------------------------------------- table sets


def special_order(tiles: Sequence[Tile], rules: HouseRules) -> tuple[Tile, ...]:
    """A valid set with a special joker written in play order (its chosen reading): a run low to
    high with each joker at its place (a JD at the first of its two numbers), a group as written,
    a mirror as side, JM, mirrored side."""
    tiles = tuple(tiles)
    readings = interpretations(tiles, rules)
    if not readings:
        raise ValueError("not a valid set")
    r = readings[0]
    if r.kind == "group":
        return tiles
    if r.kind == "mirror":
        s = len(r.resolved) // 2
        have = Counter(t for t in tiles if not t.is_joker and not t.is_special)
        out: list[Tile] = []
        for t in r.resolved:
            if have[t] > 0:
                have[t] -= 1
                out.append(t)
            else:
                out.append(JOKER)
        return tuple(out[:s]) + (MIRROR_JOKER,) + tuple(out[s:])
    first: dict[int, Tile] = {}
    for i, t in r.joker_tiles:
        first.setdefault(i, t)
    slot = {t: k for k, t in enumerate(r.resolved)}
    keyed = sorted(range(len(tiles)), key=lambda i: slot[first[i]] if i in first else slot[tiles[i]])
    return tuple(tiles[i] for i in keyed)


def special_extensions(
    ordered: tuple[Tile, ...], rules: HouseRules, affordable: Callable[[tuple[Tile, ...]], bool] = lambda _: True
) -> list[tuple[tuple[Tile, ...], tuple[Tile, ...], frozenset[Tile]]]:
    """Every way to grow a table set with a special joker while it stays the same set: (the set
    afterwards, the faces added, the added faces a joker could stand for without being exposed).
    Runs: up to two tiles at each end (more are a run of their own); a mirror: its side grown at
    either end (or by missing colours), each added face on both sides; a group with a JD is full.
    The set's own regular jokers must keep standing where they stood (else it is not kept).
    Each result is valid by ``engine.sets``; ``affordable`` says whether the faces added are
    there (checked before the set is)."""
    out: dict[tuple, tuple[tuple[Tile, ...], tuple[Tile, ...], frozenset[Tile]]] = {}
    have = Counter(ordered)
    has_change = COLOUR_JOKER in have
    held = table_jokers([ordered], rules) if JOKER in have else []

    def keeps_jokers(tiles: tuple[Tile, ...]) -> bool:
        """The set's own jokers still stand where they stood (``engine.turns``: each can still
        stand for a tile it stood for, next to one of its neighbours): a kept set keeps them."""
        if not held:
            return True
        meanings = {x for r in interpretations(tiles, rules) for i, x in r.joker_tiles if tiles[i].is_joker}
        faces = Counter(t for t in tiles if not t.is_joker)
        return all(any(x in meanings and anchors & faces for x, anchors in tj.options) for tj in held)

    for r in interpretations(ordered, rules):
        if r.kind == "run":
            lo, hi = r.resolved[0], r.resolved[-1]
            left_colours = COLOURS if has_change else (lo.colour,)
            right_colours = COLOURS if has_change else (hi.colour,)
            for left in range(_MAX_ADD + 1):
                for right in range(_MAX_ADD + 1):
                    if left == right == 0 or len(r.resolved) + left + right > _N:
                        continue
                    if not rules.wrap_around and (lo.number - left < 1 or hi.number + right > _N):
                        continue
                    for cl in left_colours if left else (None,):
                        for cr in right_colours if right else (None,):
                            lefts = tuple(Tile(cl, (lo.number - 2 - k) % _N + 1) for k in range(left))[::-1]
                            rights = tuple(Tile(cr, (hi.number + k) % _N + 1) for k in range(right))
                            added = lefts + rights
                            if any(t in have for t in added):
                                continue
                            tiles = lefts + ordered + rights
                            key = tuple(sorted(added, key=lambda t: t.sort_key))
                            if key in out or not affordable(added) or not analyse_set(tiles, rules).valid:
                                continue
                            if not keeps_jokers(tiles):
                                continue
                            inner = frozenset(tiles[1:-1]) & frozenset(added)
                            out[key] = (tiles, added, inner)
        elif r.kind == "mirror":
            s = len(r.resolved) // 2
            side = r.resolved[:s]
            first, rest = ordered[:s], ordered[s + 1 :]
            grown: list[tuple[tuple[Tile, ...], tuple[Tile, ...]]] = []  # (before the side, after it)
            if s == 1 or side[0].number != side[1].number:  # a run side (or one tile)
                colour = side[0].colour
                for left in range(_N):
                    for right in range(_N - left):
                        if left == right == 0 or s + left + right > _N:
                            continue
                        if not rules.wrap_around and (side[0].number - left < 1 or side[-1].number + right > _N):
                            continue
                        lefts = tuple(Tile(colour, (side[0].number - 2 - k) % _N + 1) for k in range(left))[::-1]
                        rights = tuple(Tile(colour, (side[-1].number + k) % _N + 1) for k in range(right))
                        grown.append((lefts, rights))
            if s == 1 or side[0].number == side[1].number:  # a group side (or one tile)
                number = side[0].number
                missing = [c for c in COLOURS if c not in {t.colour for t in side}]
                for k in range(1, len(missing) + 1):
                    for extra in combinations(missing, k):
                        grown.append(((), tuple(Tile(c, number) for c in extra)))
            for lefts, rights in grown:
                added = lefts + rights
                if any(t in have for t in added):
                    continue
                tiles = lefts + first + rights + (MIRROR_JOKER,) + rights[::-1] + rest + lefts[::-1]
                both = added + added
                key = tuple(sorted(both, key=lambda t: t.sort_key))
                if key in out or not affordable(both) or not analyse_set(tiles, rules).valid:
                    continue
                if not keeps_jokers(tiles):
                    continue
                out[key] = (tiles, both, frozenset(added))
    return list(out.values())
