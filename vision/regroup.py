"""Melds laid nearly touching in one row, and boxes crowding a meld, told apart by the game's rules.

``vision.layout`` links tiles whose gap is narrower than a sure meld gap; two melds laid close in a
row (``K12 R12 B12 O12`` then ``K1 B1 R1``) then come out as one group. The boxes cannot tell such a
gap from tiles of one meld laid loosely; the rules can: a group that cannot be a valid meld, but
that can be valid melds (and perhaps a short cluster still being laid) once cut at its wider gaps
(``vision.layout.melds_with_cuts``), is those. "Can be" asks each tile's candidate readings, not only the
likeliest (``vision.consistent.likeliest_meld``): a 6 read as a 9 in ``O5 O9 O7`` beside ``R6 R7 R8`` must not
hold the two melds together when the readers name the 6 too; the tile is then read again in its own meld, and
shown as doubtful, since the rules chose its reading. A group that can be valid as it is stays whole, and so
does one that no cut makes into valid melds (a tile misread past its candidates is for the reader's doubt to
show, not for the grouping to hide), except at a gap the boxes show as wide (``vision.layout.melds_with_cuts``, a third
of a tile where tiles of one meld lie a tenth apart or less): a group that can be no valid meld as it is, is cut at
every such gap, whatever its parts are (a valid meld beside a cluster still being laid, ``K4 K5 K6 K7 K8`` then
``B12 R5 O8``, or two such clusters): nothing holds tiles that far apart together, and each part is then shown
as what it is.

Two melds laid touching (``O10 B10 R10`` against ``K8 B8 O8``) show no gap at all. A group that can be no valid meld,
whose tiles lie a tile apart, is parted at the one joint that leaves a valid meld either side (``part_at_joint``);
where two joints would (``R1 R2 R3 R4 K4 B4 O4``), the rules cannot say which, and it stays whole.

The detector's boxes are upright rectangles, and where a meld runs at a slant they overlap their neighbours';
a second box on one tile, or a box over the joint of two tiles, can survive their suppression
(``vision.outline``) and read as a tile that is not there (``O9 O10 O11 O11 O12``). Such a box lies about half a
tile from a neighbour (``vision.layout.crowded``). A group that is no valid meld as read, but can be one without one
of its crowded tiles (or two, either side of it; "can be" asks the candidates again), is that meld (or those
two), and the tile is set aside (``set_aside``): read on its own and shown as doubtful, never dropped, since it
may still be a tile.
"""

from __future__ import annotations

from itertools import combinations
from typing import Callable, Sequence

import numpy as np

from engine.rules import HouseRules
from engine.sets import MIN_SET, analyse_set
from engine.tiles import parse_tile
from vision.layout import crowded, spacings

MAX_CUTS = 4  # candidate cuts tried per group (2 ** 4 ways at most); a row rarely holds more melds


def valid_meld(codes: Sequence[str], rules: HouseRules) -> bool:
    """Is this a valid meld (3 tiles or more) under ``rules``?"""
    if len(codes) < 3:
        return False
    return analyse_set([parse_tile(c, twist=True) for c in codes], rules).valid


def split_by_rules(groups: Sequence[Sequence[int]], cuts: Sequence[Sequence[int]],
                   is_meld: Callable[[tuple[int, ...]], bool], wide: Sequence[Sequence[int]] | None = None) -> list[list[int]]:
    """Each group, or the parts it is when cut at some of its candidate cuts (``_best_cut``).

    groups: tile indices, in row order; cuts: per group, positions k at which it may be cut (between
    its tiles k - 1 and k); is_meld: whether tiles (3 or more, in row order) can be read as a valid meld (the
    reader asks its readers' candidates, ``vision.consistent.likeliest_meld``, so that a misread tile whose true
    face they name does not hold two melds together; ``codes_meld`` asks one reading); wide: per group, the gaps the
    boxes show as wide (``vision.layout.melds_with_cuts``), at all of which a group that is no valid meld is cut where
    no cut of the rules' own makes it valid melds; None: none.
    """
    if len(groups) != len(cuts) or (wide is not None and len(wide) != len(groups)):
        raise ValueError(f"{len(groups)} groups but {len(cuts)} lists of cuts" + ("" if wide is None else f" and {len(wide)} of wide ones"))
    known: dict[tuple[int, ...], bool] = {}

    def meld(part: Sequence[int]) -> bool:
        key = tuple(part)
        if key not in known:
            known[key] = len(key) >= MIN_SET and is_meld(key)
        return known[key]

    out: list[list[int]] = []
    for g, (group, where) in enumerate(zip(groups, cuts)):
        group = list(group)
        where = sorted(k for k in where if 0 < k < len(group))[:MAX_CUTS]
        if not where or meld(group):
            out.append(group)
            continue
        parts = _best_cut(group, where, meld)
        if parts is None and wide is not None:
            parts = _cut_at(group, sorted(k for k in wide[g] if 0 < k < len(group)))
        out.extend(parts if parts is not None else [group])
    return out


def _cut_at(group: list[int], positions: Sequence[int]) -> list[list[int]]:
    """``group`` cut before each of its ``positions`` (increasing, 1 .. len - 1)."""
    bounds = (0, *positions, len(group))
    return [group[a:b] for a, b in zip(bounds, bounds[1:])]


def codes_meld(codes: Sequence[str], rules: HouseRules) -> Callable[[tuple[int, ...]], bool]:
    """``split_by_rules``'s question answered by one reading of every tile: are these tiles a valid meld as read?"""
    return lambda part: valid_meld([codes[i] for i in part], rules)


def _best_cut(group: list[int], where: list[int], meld: Callable[[Sequence[int]], bool]) -> list[list[int]] | None:
    """The parts of the best way to cut ``group`` at some of ``where``: every part a valid meld or a short
    cluster (1-2 tiles, a meld still being laid), at least one a valid meld; fewest short parts first,
    then fewest cuts, then the leftmost. None where no cut qualifies."""
    best, best_key = None, None
    for n in range(1, len(where) + 1):
        for chosen in combinations(where, n):
            parts = _cut_at(group, chosen)
            short = sum(len(p) < 3 for p in parts)
            if short == len(parts) or not all(len(p) < 3 or meld(p) for p in parts):
                continue
            key = (short, n)
            if best_key is None or key < best_key:
                best, best_key = parts, key
    return best


def set_aside(groups: Sequence[Sequence[int]], boxes: Sequence[Sequence[float]], codes: Sequence[str],
              scores: Sequence[float], rules: HouseRules,
              is_meld: Callable[[tuple[int, ...]], bool] | None = None,
              down: bool | None = None) -> tuple[list[list[int]], list[int]]:
    """The groups without the tiles that crowd a meld valid without them, and those tiles.

    groups: tile indices in row order; boxes, codes, scores: every tile's box, reading and detector's score. A
    group of 4 or more that is no valid meld as read loses one of its crowded tiles (``vision.layout.crowded``)
    where the rest is a valid meld, or else where the rest is two valid melds either side of it (a box between
    two melds laid close). Where several would do (a tile found twice: either box), the one whose going leaves
    the rest most evenly laid goes (tiles a width apart), and then the weaker box. ``is_meld``: whether the rest can
    be read as a valid meld (``split_by_rules``'s question; default: as read, ``codes_meld``). ``down``: whether
    the rows run down the photo (``vision.layout.rows_run_down``; None: as the boxes say).
    """
    as_read = codes_meld(codes, rules)

    def rest_meld(part: tuple[int, ...]) -> bool:  # a rest valid as read needs no search of its candidates
        return as_read(part) or (is_meld is not None and is_meld(part))

    groups = [list(g) for g in groups]
    doubtful = [k for k, g in enumerate(groups) if len(g) > MIN_SET and not as_read(tuple(g))]
    spacing_of = dict(zip(doubtful, spacings(boxes, [groups[k] for k in doubtful], down))) if doubtful else {}
    out: list[list[int]] = []
    aside: list[int] = []
    for k, group in enumerate(groups):
        spacing = spacing_of.get(k)
        ways = {} if spacing is None else {p: _without(group, p, rest_meld) for p in crowded(spacing)}
        fits = {p: parts for p, parts in ways.items() if parts is not None}
        if not fits:
            out.append(group)
            continue
        best = min(fits, key=lambda p: (len(fits[p]), _unevenness(spacing, p), scores[group[p]]))
        out.extend(fits[best])
        aside.append(group[best])
    return out, aside


def _without(group: list[int], p: int, meld: Callable[[tuple[int, ...]], bool]) -> list[list[int]] | None:
    """``group`` without its tile at ``p``, as one valid meld or as two either side of it; None where neither is."""
    rest = group[:p] + group[p + 1 :]
    if meld(tuple(rest)):
        return [rest]
    left, right = group[:p], group[p + 1 :]
    if len(left) >= MIN_SET and len(right) >= MIN_SET and meld(tuple(left)) and meld(tuple(right)):
        return [left, right]
    return None


def _unevenness(spacing: np.ndarray, p: int) -> float:
    """How far from a tile width apart the rest of a group lies, its tile at position ``p`` taken out: the sum over
    its neighbouring tiles of |distance - 1| in tile widths."""
    rest = list(spacing)
    if 0 < p < len(rest):  # a tile inside: its two distances become one
        rest[p - 1 : p + 1] = [rest[p - 1] + rest[p]]
    else:  # an end tile: its one distance goes
        del rest[0 if p == 0 else -1]
    return float(sum(abs(d - 1.0) for d in rest))


def part_at_joint(groups: Sequence[Sequence[int]], boxes: Sequence[Sequence[float]],
                  is_meld: Callable[[tuple[int, ...]], bool], down: bool | None = None) -> list[list[int]]:
    """Each group, or the two valid melds it is when parted at the one joint between its tiles that makes it so.

    Two melds laid touching in a row (``K5 R5 J`` against ``K6 B6 O6``) show no gap to cut at. A group that can be
    no valid meld, whose tiles lie a tile apart (none crowded, ``vision.layout.crowded``: a tile found twice makes
    false joints), is parted where exactly one joint leaves a valid meld on either side; where two joints would,
    the rules cannot say which, and it stays whole. ``is_meld``: ``split_by_rules``'s question; ``down``: as
    ``set_aside``'s.
    """
    out: list[list[int]] = []
    long = [k for k, g in enumerate(groups) if len(g) >= 2 * MIN_SET and not is_meld(tuple(g))]
    spacing_of = dict(zip(long, spacings(boxes, [groups[k] for k in long], down))) if long else {}
    for k, group in enumerate(groups):
        group = list(group)
        spacing = spacing_of.get(k)
        if spacing is None or crowded(spacing):
            out.append(group)
            continue
        joints = [j for j in range(MIN_SET, len(group) - MIN_SET + 1)
                  if is_meld(tuple(group[:j])) and is_meld(tuple(group[j:]))]
        out.extend(_cut_at(group, joints) if len(joints) == 1 else [group])
    return out
