"""Rows for the joker rules of ``engine.turns`` (jokers on the table before the turn).

A joker on the table stood for a face ``x`` next to some *anchors* (its neighbours in a run, the
other tiles of a group). Afterwards it must *stay* (a joker still standing for ``x`` in a set with
one of its anchors) or be *replaced* (``x`` as a face in a set with one of its anchors) - and a
replaced joker must be played again in a set with a tile from the rack.

``joker_cover_rows``: each table joker has a place (``x`` with an anchor) in the sets chosen, and
jokers that all stood for one face have that many places. These are necessary conditions of the
rules, so they cut off no legal play. ``reuse_rows``: the jokers standing in for given faces sit
where a table joker stays, or next to a rack tile, or are among the jokers played from the rack;
added only for the faces whose jokers broke that rule in an answer (``engine.solver.hint``).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

import numpy as np

from engine.rules import HouseRules
from engine.sets import interpretations
from engine.solver.catalogue import JOKER_TYPE, N_FACES, TYPE_TILES, type_index
from engine.solver.ilp import Rows
from engine.solver.keep import KeepColumn
from engine.tiles import JOKER, Tile

if TYPE_CHECKING:
    from engine.solver.model import Model

__all__ = ["joker_cover_rows", "reuse_plan", "reuse_rows"]


def _means(tiles: tuple[Tile, ...], x: Tile, rules: HouseRules) -> bool:
    return any(x == t for r in interpretations(tiles, rules) for _, t in r.joker_tiles)


def _anchored(faces: np.ndarray, x: Tile, anchors: Counter[Tile]) -> np.ndarray:
    """Which columns of ``faces`` (52 x n) hold face ``x`` and at least one of ``anchors``: where
    a table joker that stood for ``x`` next to ``anchors`` can stay (``x`` a joker there) or be
    replaced (``x`` a face there), as ``engine.turns`` rules it."""
    near = [type_index(t) for t in anchors]
    return (faces[type_index(x)] > 0) & (faces[near].sum(axis=0) > 0)


def _keep_anchored(col: KeepColumn, x: Tile, anchors: Counter[Tile], rules: HouseRules) -> bool:
    held = {t for t in col.tiles if not t.is_joker}
    return bool(held & set(anchors)) and (x in held or (JOKER in col.tiles and _means(col.tiles, x, rules)))


def joker_cover_rows(model: Model, rules: HouseRules) -> list[tuple[list[int], list[float], float, float]]:
    """Each joker on the table ends in a set with one of its anchors and the face it stood for
    (a necessary condition of the ``engine.turns`` joker rules, so no legal play is cut off)."""
    from engine.turns import _table_jokers  # the anchors and meanings validate_turn uses

    cat, e0 = model.cat, model._blocks[0]
    faces = cat.matrix[:, model.sets]
    demand: Counter[tuple] = Counter()
    options_of: dict[tuple, list[tuple[Tile, Counter[Tile]]]] = {}
    owners_of: dict[tuple, set[int]] = {}
    for owner, written in enumerate(model.written):
        for tj in _table_jokers([written], rules):
            key = tuple((x, tuple(sorted(a.elements(), key=lambda t: t.code))) for x, a in tj.options)
            demand[key] += 1
            options_of[key] = list(tj.options)
            owners_of.setdefault(key, set()).add(owner)
    keep_faces = (
        np.stack([c.counts[:N_FACES] for c in model.keep], axis=1) if model.keep else np.zeros((N_FACES, 0))
    )

    def cover(keys: list[tuple]) -> list[int]:
        covers = np.zeros(len(model.sets), dtype=bool)
        keep_cover = np.zeros(len(model.keep), dtype=bool)
        for key in keys:
            # a kept set's own joker stays there (one slot can't hold two jokers: not another set's)
            own = [c for c, col in enumerate(model.keep) if col.owner in owners_of[key]]
            for x, anchors in options_of[key]:
                covers |= _anchored(faces, x, anchors)
                keep_cover |= _anchored(keep_faces, x, anchors)
                for c in own:
                    keep_cover[c] |= _keep_anchored(model.keep[c], x, anchors, rules)
        return [int(j) for j in np.flatnonzero(covers)] + [e0 + int(c) for c in np.flatnonzero(keep_cover)]

    rows = []
    for key, need in demand.items():
        idx = cover([key])
        rows.append((idx, [1.0] * len(idx), float(need), np.inf))
    # jokers that all stood for the same face need that many places for it (one per set)
    by_face: dict[Tile, list[tuple]] = {}
    for key in demand:
        if len({x for x, _ in options_of[key]}) == 1:
            by_face.setdefault(options_of[key][0][0], []).append(key)
    for keys in by_face.values():
        if len(keys) > 1:
            idx = cover(keys)
            rows.append((idx, [1.0] * len(idx), float(sum(demand[k] for k in keys)), np.inf))
    return rows


def reuse_plan(model: Model, faces: frozenset[int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Which face sets, keep columns and joker faces the reuse rows for ``faces`` need."""
    zf = np.array([f for f in model.joker_faces if int(f) in faces], dtype=np.int64)
    sub = model.cat.matrix[:, model.sets]
    sets = np.flatnonzero(sub[zf].sum(axis=0) > 0) if len(zf) else np.zeros(0, dtype=np.int64)
    tiles = {TYPE_TILES[int(f)] for f in zf}
    keep = np.array([c for c, col in enumerate(model.keep) if tiles & set(col.added)], dtype=np.int64)
    return sets, keep, zf


def reuse_rows(model: Model, rows: Rows) -> None:
    """A joker that stands in for face f must sit where a table joker stays (with one of its
    anchors, standing for f), or in a set with a tile played from the rack, or be one of the
    jokers played from the rack (what ``validate_turn`` asks of a joker taken from a set). Only
    for the faces in ``model.reuse_faces`` (those whose jokers broke the rule in an answer).

    Columns after the rack binaries: h_s <= x_s and h_s <= 2 * (faces of s played from the
    rack) - copies of s with a rack tile - for the face sets holding such a face; h_c the same for
    the keep columns adding one; st_f <= sets where a table joker for f stays and <= the table
    jokers that stood for f; sp_f spare slots, together at most the rack jokers played; and
    z_f <= sum h over sets holding f + st_f + sp_f.
    """
    from engine.turns import _table_jokers

    cat, rules, keep = model.cat, model.rules, model.keep
    sets, kcols, zf = reuse_plan(model, model.reuse_faces)
    e0, z0, q0, b0 = model._blocks
    h0 = b0 + len(model.rack_vars)
    hc0 = h0 + len(sets)
    st0 = hc0 + len(kcols)
    sp0 = st0 + len(zf)
    first_copy = {t: b0 + k for k, (t, copy) in enumerate(model.rack_vars) if copy == 1}
    joker_copies = [b0 + k for k, (t, _) in enumerate(model.rack_vars) if t == JOKER_TYPE]
    z_of = {int(f): z0 + k for k, f in enumerate(model.joker_faces)}
    put = rows.put
    sub = cat.matrix[:, model.sets]
    h_of: dict[int, int] = {}
    for k, j in enumerate(sets):
        j = int(j)
        h_of[j] = h0 + k
        r = rows.new(-np.inf, 0.0)
        put(h0 + k, r, 1.0)
        put(j, r, -1.0)
        r = rows.new(-np.inf, 0.0)
        put(h0 + k, r, 1.0)
        for f in np.flatnonzero(sub[:, j]):
            if int(f) in first_copy:
                put(first_copy[int(f)], r, -2.0)
    hc_of: dict[int, int] = {}
    for k, c in enumerate(kcols):
        c = int(c)
        hc_of[c] = hc0 + k
        r = rows.new(-np.inf, 0.0)
        put(hc0 + k, r, 1.0)
        put(e0 + c, r, -1.0)
        r = rows.new(-np.inf, 0.0)
        put(hc0 + k, r, 1.0)
        for f in np.flatnonzero(keep[c].counts[:N_FACES]):
            if int(f) in first_copy:
                put(first_copy[int(f)], r, -1.0)
    stood: dict[int, int] = {}
    stay_sets: dict[int, np.ndarray] = {}
    for tj in _table_jokers(model.written, rules):
        for f in {type_index(x) for x, _ in tj.options}:
            stood[f] = stood.get(f, 0) + 1
        for x, anchors in tj.options:
            f = type_index(x)
            stay_sets[f] = stay_sets.get(f, np.zeros(len(model.sets), dtype=bool)) | _anchored(sub, x, anchors)
    spare = rows.new(-np.inf, 0.0)
    for idx in joker_copies:
        put(idx, spare, -1.0)
    for k, f in enumerate(zf):
        f = int(f)
        # st_f <= stay sets, st_f <= table jokers that stood for f
        r = rows.new(-np.inf, 0.0)
        put(st0 + k, r, 1.0)
        for j in np.flatnonzero(stay_sets.get(f, np.zeros(len(model.sets), dtype=bool))):
            put(int(j), r, -1.0)
        r = rows.new(-np.inf, float(stood.get(f, 0)))
        put(st0 + k, r, 1.0)
        put(sp0 + k, spare, 1.0)
        # z_f <= h over sets with f + h over keep columns adding f + st_f + sp_f
        r = rows.new(-np.inf, 0.0)
        put(z_of[f], r, 1.0)
        for j in np.flatnonzero(sub[f]):
            put(h_of[int(j)], r, -1.0)
        face = TYPE_TILES[f]
        for c, col in enumerate(keep):
            if face in col.added:
                put(hc_of[c], r, -1.0)
        put(st0 + k, r, -1.0)
        put(sp0 + k, r, -1.0)
