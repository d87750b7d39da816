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

from collections import Counter
from typing import Sequence

import numpy as np

from engine.solver.layout import LaidSet
from engine.tiles import JOKER, Tile, format_tiles

__all__ = ["describe_moves"]


def _and(parts: Sequence[str]) -> str:
    parts = list(parts)
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _in_order(order: Sequence[Tile], take: Counter[Tile]) -> tuple[Tile, ...]:
    left = Counter(take)
    out = []
    for t in order:
        if left[t] > 0:
            left[t] -= 1
            out.append(t)
    return tuple(out)


def _assign(
    before: Sequence[tuple[Tile, ...]], after: Sequence[LaidSet]
) -> tuple[list[int], dict[tuple[int, int], Counter[Tile]], list[Counter[Tile]]]:
    """Which disturbed table set each new tile comes from (largest overlaps first); what is left
    comes from the rack."""
    kept = {s.owner for s in after if s.owner is not None}
    disturbed = [b for b in range(len(before)) if b not in kept]
    demand_tiles = [s.added if s.owner is not None else s.tiles for s in after]
    faces = sorted({t for s in demand_tiles for t in s} | {t for b in disturbed for t in before[b]}, key=lambda t: t.code)
    col = {t: k for k, t in enumerate(faces)}
    need = np.zeros((len(after), len(faces)), dtype=np.int64)
    for a, tiles in enumerate(demand_tiles):
        for t in tiles:
            need[a, col[t]] += 1
    pool = np.zeros((len(disturbed), len(faces)), dtype=np.int64)
    for d, b in enumerate(disturbed):
        for t in before[b]:
            pool[d, col[t]] += 1
    got: dict[tuple[int, int], Counter[Tile]] = {}
    while len(disturbed):
        overlap = np.minimum(need[:, None, :], pool[None, :, :])  # (after, disturbed, faces)
        sizes = overlap.sum(axis=2)
        a, d = np.unravel_index(int(np.argmax(sizes)), sizes.shape)
        if sizes[a, d] == 0:
            break
        take = overlap[a, d]
        need[a] -= take
        pool[d] -= take
        got[(int(a), disturbed[d])] = Counter({faces[k]: int(n) for k, n in enumerate(take) if n})
    rack = [Counter({faces[k]: int(n) for k, n in enumerate(row) if n}) for row in need]
    return disturbed, got, rack


def describe_moves(before: Sequence[Sequence[Tile]], after: Sequence[LaidSet]) -> list[str]:
    """Steps from ``before`` (the table sets, in play order) to ``after``."""
    before = [tuple(s) for s in before]
    disturbed, got, from_rack = _assign(before, after)
    steps: list[str] = []
    label: dict[tuple[int, int], str] = {}  # (after set, table set) -> how the piece is called
    whole: set[int] = set()
    done: set[int] = set()  # after sets already described
    for b in disturbed:
        pieces = sorted(
            ((a, _in_order(before[b], c)) for (a, bb), c in got.items() if bb == b),
            key=lambda p: before[b].index(p[1][0]),
        )
        if len(pieces) == 1:
            whole.add(b)
            label[(pieces[0][0], b)] = format_tiles(before[b])
            continue
        main = max(pieces, key=lambda p: len(p[1]))
        others = [p for p in pieces if p is not main]
        for a, tiles in pieces:
            label[(a, b)] = "the joker" if tiles == (JOKER,) else format_tiles(tiles)
        a_main = main[0]
        rack = _in_order(after[a_main].tiles, from_rack[a_main])
        only_b = [bb for bb in disturbed if (a_main, bb) in got] == [b]
        if all(t == (JOKER,) for _, t in others) and rack and only_b and after[a_main].owner is None:
            # the joker's tile from the rack takes its place: one step for both
            steps.append(
                f"replace the joker in {format_tiles(before[b])} with {format_tiles(rack)} from your rack, "
                f"making {format_tiles(after[a_main].tiles)}"
            )
            done.add(a_main)
        elif len(main[1]) == 1:  # every tile goes its own way
            steps.append(f"break up {format_tiles(before[b])}")
        elif all(len(t) == 1 for _, t in others):
            taken = _and([t[0].code for _, t in others])
            steps.append(f"take {taken} from {format_tiles(before[b])}")
        else:
            steps.append(f"split {format_tiles(before[b])} into {_and([format_tiles(t) for _, t in pieces])}")
    for a, s in enumerate(after):
        if (s.owner is not None and not s.added) or a in done:
            continue
        parts = [(b, label[(a, b)]) for b in disturbed if (a, b) in got]
        rack = _in_order(s.tiles, from_rack[a])
        from_hand = [f"{format_tiles(rack)} from your rack"] if rack else []
        made = format_tiles(s.tiles)
        if s.owner is not None:
            sources = [f"{name} from {format_tiles(before[b])}" for b, name in parts]
            steps.append(f"add {_and(sources + from_hand)} to {format_tiles(before[s.owner])}, making {made}")
        elif not parts:
            steps.append(f"lay down {made} from your rack")
        elif len(parts) == 1 and not rack:  # a piece left standing on its own after a split
            b, name = parts[0]
            if b in whole and tuple(s.tiles) != before[b]:
                steps.append(f"rearrange {name} as {made}")
        elif len(parts) == 1 and (parts[0][0] in whole or sum(got[(a, parts[0][0])].values()) > 1):
            steps.append(f"add {format_tiles(rack)} from your rack to {parts[0][1]}, making {made}")
        else:
            steps.append(f"make {made} from {_and([name for _, name in parts] + from_hand)}")
    return steps
