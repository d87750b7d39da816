"""A quick play without rearranging the table: the fallback when the time limit leaves no better
answer.

Every table set is kept; new sets are built from the rack's faces alone, largest first (before the
initial meld: most points first, and only if they reach the threshold); then each table set is
grown at its ends with rack tiles where it can be.
"""

from __future__ import annotations

import numpy as np

from engine.solver.catalogue import N_FACES
from engine.solver.program import Model

__all__ = ["greedy_play"]


def greedy_play(model: Model) -> np.ndarray | None:
    """A feasible column vector for ``model``, or None (an opening that doesn't reach the meld)."""
    cat = model.cat
    remaining = model.rack_counts.copy()
    allowed = set(int(s) for s in model.sets if s < cat.n_base)  # no Twist special joker sets
    shapes: list[int] = []
    points = 0
    while True:
        fits = [int(s) for s in cat.fitting(remaining, 0) if int(s) in allowed]
        if not fits:
            break
        if model.opened:
            best = max(fits, key=lambda s: (cat.sizes[s], cat.points[s]))
        else:
            best = max(fits, key=lambda s: (cat.points[s], cat.sizes[s]))
        shapes.append(best)
        points += int(cat.points[best])
        remaining[:N_FACES] -= cat.matrix[:, best]
    if not model.opened and (points < model.rules.initial_meld or not shapes):
        return None
    kept: list[int] = []
    for owner in range(len(model.table)):
        options = [c for c, col in enumerate(model.keep) if col.owner == owner]
        base = options[0]  # the set as it is
        best_c, best_n = base, 0
        for c in options[1:]:
            extra = model.keep[c].counts - model.keep[base].counts
            n = int(extra.sum())
            if n > best_n and (extra <= remaining).all():
                best_c, best_n = c, n
        if best_c != base:
            remaining -= model.keep[best_c].counts - model.keep[base].counts
        kept.append(best_c)
    played = model.rack_counts - remaining
    return model.encode(shapes, kept, played)
