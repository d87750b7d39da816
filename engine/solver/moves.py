"""The play as steps a person can follow, from the table before and after.

Sets left as they were are not mentioned. Every other set of the table before is broken into the
pieces that go to different sets afterwards ("split K3 K4 K5 K6 K7 into K3 K4 K5 and K6 K7",
"take O9 from O9 R9 B9 K9" when single tiles leave a set, "break up B1 B2 B3" when every tile
goes its own way, "replace the joker in R4 J R6 with R5 from your rack, making R4 R5 R6"); then
each changed or new set is said with where its tiles come from ("add K8 from your rack to K6 K7,
making K6 K7 K8"; "lay down B1 B2 B3 from your rack"). Tiles of the same face can't be told apart, so table tiles are matched
to the set they keep most of their neighbours in.
"""

from __future__ import annotations

from operator import attrgetter
from typing import Sequence

import numpy as np

from engine.reasons import Reason
from engine.solver.layout import LaidSet
from engine.tiles import JOKER, Tile, format_tiles

__all__ = ["describe_moves"]


Tally = dict[Tile, int]  # how many of each tile


def _tally(tiles: Sequence[Tile]) -> Tally:
    out: Tally = {}
    for t in tiles:
        out[t] = out.get(t, 0) + 1
    return out


def _in_order(order: Sequence[Tile], take: Tally) -> tuple[Tile, ...]:
    if not take:
        return ()
    left = dict(take)
    out = []
    for t in order:
        if left.get(t, 0) > 0:
            left[t] -= 1
            out.append(t)
    return tuple(out)


def _assign(
    before: Sequence[tuple[Tile, ...]], after: Sequence[LaidSet]
) -> tuple[list[int], dict[tuple[int, int], Tally], list[Tally]]:
    """Which disturbed table set each new tile comes from (largest overlaps first); what is left
    comes from the rack."""
    kept = {s.owner for s in after if s.owner is not None}
    disturbed = [b for b in range(len(before)) if b not in kept]
    demand_tiles = [s.added if s.owner is not None else s.tiles for s in after]
    if not disturbed:  # every tile put down comes from the rack
        return disturbed, {}, [_tally(tiles) for tiles in demand_tiles]
    wanted = [a for a, tiles in enumerate(demand_tiles) if tiles]  # (a set kept as it was wants none)
    moved = {t for a in wanted for t in demand_tiles[a]} | {t for b in disturbed for t in before[b]}
    faces = sorted(moved, key=attrgetter("code"))
    need = _counts([demand_tiles[a] for a in wanted], faces)
    pool = _counts([before[b] for b in disturbed], faces)
    got: dict[tuple[int, int], Tally] = {}
    while len(wanted):
        overlap = np.minimum(need[:, None, :], pool[None, :, :])  # (wanted, disturbed, faces)
        sizes = np.add.reduce(overlap, axis=2)
        w, d = divmod(int(sizes.argmax()), sizes.shape[1])
        if sizes[w, d] == 0:
            break
        take = overlap[w, d]
        need[w] -= take
        pool[d] -= take
        got[(wanted[w], disturbed[d])] = _row_tally(faces, take)
    rack: list[Tally] = [{} for _ in after]
    for w, a in enumerate(wanted):
        rack[a] = _row_tally(faces, need[w])
    return disturbed, got, rack


def _counts(groups: Sequence[Sequence[Tile]], faces: list[Tile]) -> np.ndarray:
    """(groups, faces) how many of each face each group holds."""
    col = {t: k for k, t in enumerate(faces)}
    flat = [g * len(faces) + col[t] for g, tiles in enumerate(groups) for t in tiles]
    size = len(groups) * len(faces)
    return np.bincount(np.asarray(flat, dtype=np.int64), minlength=size).reshape(len(groups), len(faces))


def _row_tally(faces: list[Tile], counts: np.ndarray) -> Tally:
    return {faces[k]: n for k, n in enumerate(counts.tolist()) if n}


def describe_moves(before: Sequence[Sequence[Tile]], after: Sequence[LaidSet]) -> list[Reason]:
    """Steps from ``before`` (the table sets, in play order) to ``after``, as reasons (``step_*``:
    ``engine.reasons`` says them in English, the app in the page's language)."""
    before = [tuple(s) for s in before]
    disturbed, got, from_rack = _assign(before, after)
    steps: list[Reason] = []
    label: dict[tuple[int, int], str] = {}  # (after set, table set) -> the piece's tiles ("J": the joker alone)
    whole: set[int] = set()
    done: set[int] = set()  # after sets already described
    got_from: dict[int, list[tuple[int, Tally]]] = {}  # table set -> (after set, tiles it gave)
    for (a, b), c in got.items():
        got_from.setdefault(b, []).append((a, c))
    for b in disturbed:
        was = format_tiles(before[b])
        pieces = sorted(
            ((a, _in_order(before[b], c)) for a, c in got_from.get(b, ())),
            key=lambda p: before[b].index(p[1][0]),
        )
        if len(pieces) == 1:
            whole.add(b)
            label[(pieces[0][0], b)] = was
            continue
        main = max(pieces, key=lambda p: len(p[1]))
        others = [p for p in pieces if p is not main]
        for a, tiles in pieces:
            label[(a, b)] = format_tiles(tiles)
        a_main = main[0]
        rack = _in_order(after[a_main].tiles, from_rack[a_main])
        only_b = [bb for bb in disturbed if (a_main, bb) in got] == [b]
        if all(t == (JOKER,) for _, t in others) and rack and only_b and after[a_main].owner is None:
            # the joker's tile from the rack takes its place: one step for both
            made = format_tiles(after[a_main].tiles)
            steps.append(Reason("step_replace_joker", {"set": was, "rack": format_tiles(rack), "made": made}))
            done.add(a_main)
        elif len(main[1]) == 1:  # every tile goes its own way
            steps.append(Reason("step_break_up", {"set": was}))
        elif all(len(t) == 1 for _, t in others):
            steps.append(Reason("step_take", {"tiles": tuple(t[0].code for _, t in others), "set": was}))
        else:
            steps.append(Reason("step_split", {"set": was, "pieces": tuple(format_tiles(t) for _, t in pieces)}))
    for a, s in enumerate(after):
        if (s.owner is not None and not s.added) or a in done:
            continue
        parts = [(b, label[(a, b)]) for b in disturbed if (a, b) in got]
        rack = format_tiles(_in_order(s.tiles, from_rack[a]))
        made = format_tiles(s.tiles)
        if s.owner is not None:
            steps.append(Reason("step_add", {
                "pieces": tuple(name for _, name in parts), "sources": tuple(format_tiles(before[b]) for b, _ in parts),
                "rack": rack, "set": format_tiles(before[s.owner]), "made": made}))
        elif not parts:
            steps.append(Reason("step_lay_down", {"made": made}))
        elif len(parts) == 1 and not rack:  # a piece left standing on its own after a split
            b, name = parts[0]
            if b in whole and tuple(s.tiles) != before[b]:
                steps.append(Reason("step_rearrange", {"piece": name, "made": made}))
        elif len(parts) == 1 and (parts[0][0] in whole or sum(got[(a, parts[0][0])].values()) > 1):
            steps.append(Reason("step_add_to_piece", {"rack": rack, "piece": parts[0][1], "made": made}))
        else:
            steps.append(Reason("step_make", {"made": made, "pieces": tuple(name for _, name in parts), "rack": rack}))
    return steps
