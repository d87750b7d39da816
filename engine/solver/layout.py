"""From a solution of the integer program to the table a person lays out.

Kept table sets come first, in their old order (grown at their ends where faces were added);
new sets follow. The program only says how many jokers stand in for each face, so the layout
tries every way to put them in the sets that hold that face, safest first (``layouts`` yields
them with the fewest exposed jokers first, then the fewest jokers in a set without a tile from
the rack; the caller keeps the first that ``validate_turn`` accepts). Runs of one colour that meet end to end are joined (``K3 K4 K5`` + ``K6 K7 K8`` is
``K3 K4 K5 K6 K7 K8``) unless that would leave a joker exposed that was not, or change what a
joker stands for.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import combinations, product
from typing import Iterator

from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.solver.catalogue import N_FACES, TYPE_TILES, exposed_jokers
from engine.solver.program import Model, Solution
from engine.tiles import JOKER, Tile
from engine.turns import holds_faces

__all__ = ["LaidSet", "layouts", "join_runs"]

_MAX_PLACEMENTS = 512  # joker placements ranked per solution
_MAX_LAYOUTS = 48  # of those, tried (validated) per solution


@dataclass(frozen=True)
class LaidSet:
    """A set on the table afterwards: ``owner`` is the index of the table set it keeps (None for
    a new set) and ``added`` the tiles put at its ends."""

    tiles: tuple[Tile, ...]
    owner: int | None = None
    added: tuple[Tile, ...] = ()


def _new_set_order(tiles: tuple[Tile, ...]) -> tuple:
    faces = [t for t in tiles if not t.is_joker and not t.is_special]
    first = faces[0]
    is_group = len({t.number for t in faces}) == 1 and len({t.colour for t in faces}) > 1
    return (is_group, "KRBO".index(first.colour) if not is_group else 0, first.number)


def layouts(model: Model, solution: Solution) -> Iterator[list[LaidSet]]:
    """Every placement of the jokers standing in (fewest exposed first), as a table; each with its
    runs joined, then as the program built it."""
    kept = sorted(solution.kept, key=lambda c: c.owner)
    new = sorted((model.cat.sets[s].written for s in solution.sets), key=_new_set_order)
    # slots: (block, set, position); block 0 = kept (added faces only), 1 = new
    base: list[list[Tile]] = [list(c.tiles) for c in kept] + [list(f) for f in new]
    n_kept = len(kept)
    choices: list[list[tuple[tuple[int, int], ...]]] = []
    for f in (int(i) for i in solution.jokers.nonzero()[0]):
        face = TYPE_TILES[f]
        # every place of the face (a Twist mirror holds each face twice)
        slots = [(k, i) for k, c in enumerate(kept) if face in c.added for i, t in enumerate(c.tiles) if t == face]
        slots += [(n_kept + k, i) for k, s in enumerate(new) for i, t in enumerate(s) if t == face]
        choices.append(list(combinations(slots, int(solution.jokers[f]))))
    lonely = _lonely(model, solution, base, n_kept, choices) if choices else {}
    ranked = []
    twist = model.cat.specials is not None

    def laid(k: int, tiles: tuple[Tile, ...]) -> tuple[LaidSet, int]:
        """Set ``k`` with these tiles, and what it adds to the ranking (jokers exposed)."""
        if k < n_kept:
            c = kept[k]
            laid_set = LaidSet(tiles, c.owner, _added(tiles, c.tiles, c.added))
        else:
            laid_set = LaidSet(tiles)
        exposed = exposed_jokers(tiles, model.rules)
        if twist:  # a Twist set left without a numbered tile (all jokers) is not a set: last
            exposed += 1000 * (not analyse_set(tiles, model.rules).valid)
        return laid_set, exposed

    # a placement changes only the sets it puts jokers in: the others are laid out once
    plain = [laid(k, tuple(tiles)) for k, tiles in enumerate(base)]
    plain_sets = [laid_set for laid_set, _ in plain]
    plain_exposed = sum(exposed for _, exposed in plain)
    for pick in product(*choices):
        tables: dict[int, list[Tile]] = {}
        for group in pick:
            for k, pos in group:
                tables.setdefault(k, list(base[k]))[pos] = JOKER
        sets = list(plain_sets)
        exposed = plain_exposed
        for k, tiles in tables.items():
            sets[k], placed = laid(k, tuple(tiles))
            exposed += placed - plain[k][1]
        alone = sum(lonely[slot] for group in pick for slot in group)
        ranked.append((exposed, alone, len(ranked), sets))
        if len(ranked) >= _MAX_PLACEMENTS:
            break
    ranked.sort(key=lambda r: r[:3])
    for _, _, _, sets in ranked[:_MAX_LAYOUTS]:
        joined = join_runs(sets, model.rules)
        yield joined
        if joined != sets:
            yield sets


def _lonely(
    model: Model,
    solution: Solution,
    base: list[list[Tile]],
    n_kept: int,
    choices: list[list[tuple[tuple[int, int], ...]]],
) -> dict[tuple[int, int], bool]:
    """Per joker slot: is it away from a tile from the rack? A joker is best placed next to one (a
    taken joker must be played again so) - and, with the default joker_reuse, in a new set: not a
    kept one, nor one holding every face of a table set."""
    grew = {TYPE_TILES[int(f)] for f in solution.played[:N_FACES].nonzero()[0]}
    slots = {slot for options in choices for pick in options for slot in pick}
    table_faces = [Counter(t for t in s if not t.is_joker) for s in model.written or ()]

    def is_old(k: int) -> bool:
        if k < n_kept:
            return True
        have = Counter(base[k])
        return any(holds_faces(have, f) for f in table_faces)

    old = {k: is_old(k) for k in {k for k, _ in slots}}
    return {(k, pos): old[k] or not any(t in grew for i, t in enumerate(base[k]) if i != pos) for k, pos in slots}


def _added(tiles: tuple[Tile, ...], planned: tuple[Tile, ...], added: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The tiles of ``tiles`` at the places of ``added`` (a joker where one stands in)."""
    return tuple(t for t, p in zip(tiles, planned) if p in added)


def _run_ends(s: LaidSet, rules: HouseRules) -> tuple[str, int, int] | None:
    """(colour, first number, last number) of a run; None for a group."""
    check = analyse_set(s.tiles, rules)
    if check.kind != "run":
        return None
    return check.resolved[0].colour, check.resolved[0].number, check.resolved[-1].number


def _joined(a: LaidSet, b: LaidSet, rules: HouseRules) -> LaidSet | None:
    """``a`` then ``b`` as one run, if they meet end to end and joining exposes no joker."""
    if a.owner is not None and b.owner is not None:
        return None
    ca, cb = analyse_set(a.tiles, rules), analyse_set(b.tiles, rules)
    tiles = a.tiles + b.tiles
    check = analyse_set(tiles, rules)
    if not check.valid or check.resolved != ca.resolved + cb.resolved:
        return None
    if exposed_jokers(tiles, rules) > exposed_jokers(a.tiles, rules) + exposed_jokers(b.tiles, rules):
        return None
    if a.owner is not None:
        return LaidSet(tiles, a.owner, a.added + b.tiles)
    if b.owner is not None:
        return LaidSet(tiles, b.owner, a.tiles + b.added)
    return LaidSet(tiles)


def join_runs(sets: list[LaidSet], rules: HouseRules) -> list[LaidSet]:
    """Join runs that meet end to end (see the module docstring)."""
    sets = list(sets)
    ends = [_run_ends(s, rules) for s in sets]
    while True:
        starts: dict[tuple[str, int], list[int]] = {}
        for j, e in enumerate(ends):
            if e is not None:
                starts.setdefault((e[0], e[1]), []).append(j)
        merged = None
        for i, e in enumerate(ends):
            if e is None:
                continue
            for j in starts.get((e[0], e[2] % 13 + 1), []):
                if j != i:
                    merged = _joined(sets[i], sets[j], rules)
                    if merged is not None:
                        break
            if merged is not None:
                break
        if merged is None:
            return sets
        keep_at, drop = (i, j) if sets[i].owner is not None or sets[j].owner is None else (j, i)
        sets[keep_at] = merged
        ends[keep_at] = _run_ends(merged, rules)
        del sets[drop], ends[drop]
