"""Rows for the joker rules of ``engine.turns`` (jokers on the table before the turn).

A joker on the table stood for a face ``x`` next to some *anchors* (its neighbours in a run, the
other tiles of a group). Afterwards it must *stay* (a joker still standing for ``x`` in a set with
one of its anchors) or be *replaced* (``x`` as a face in a set with one of its anchors) - and a
replaced joker must be played again in a set with a tile from the rack.

``joker_cover_rows``: each table joker has a place (``x`` with an anchor) in the sets chosen, and
jokers that all stood for one face have that many places; and each either stays (a joker stands
for ``x``, or its set is kept) or ``x`` is played from the rack, one copy per joker (a joker is
freed only with its tile from the rack). These are necessary conditions of the rules, so they
cut off no legal play. ``reuse_rows``: the jokers standing in for given faces sit where a table
joker stays, or in a new set with a rack tile (not a kept table set, nor a set holding every face
of one), or are among the jokers played from the rack; added only for the faces whose jokers
broke that rule in an answer (``engine.solver.hint``), and never with ``joker_reuse="anywhere"``.
``joker_freedom``: a table joker whose tiles are not on the rack can't be freed, so it only ever
stands for what it stood for (the model leaves out sets and columns only such a joker could fill).
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from engine.rules import HouseRules
from engine.sets import interpretations
from engine.solver.catalogue import JOKER_TYPE, N_FACES, N_TYPES, type_index
from engine.solver.ilp import Rows
from engine.solver.keep import KeepColumn
from engine.solver.program import Model
from engine.tiles import JOKER, Tile
from engine.turns import TableJoker, table_jokers

__all__ = ["joker_cover_rows", "joker_freedom", "reuse_plan", "reuse_rows", "stay_columns", "table_held"]


def table_held(written: list[tuple[Tile, ...]], rules: HouseRules) -> tuple[tuple[int, TableJoker], ...]:
    """Each joker on the table (the sets as written), with the index of its set."""
    return tuple(
        (owner, tj) for owner, s in enumerate(written) if any(t.is_joker for t in s) for tj in table_jokers([s], rules)
    )


def joker_freedom(held: tuple[tuple[int, TableJoker], ...], rack_counts: np.ndarray) -> tuple[int, np.ndarray]:
    """The table jokers the rack can free (it holds a tile one stood for), and (52 bools) the faces
    the others may stand for: a joker is freed only with its tile from the rack, so those stay
    what they were (``engine.turns``)."""
    freeable = 0
    bound = np.zeros(N_FACES, dtype=bool)
    for _, tj in held:
        faces = [type_index(x) for x, _ in tj.options]
        if any(rack_counts[f] for f in faces):
            freeable += 1
        else:
            bound[faces] = True
    return freeable, bound


def _means(tiles: tuple[Tile, ...], x: Tile, rules: HouseRules) -> bool:
    """Can a regular joker of ``tiles`` stand for ``x`` (not a Twist special joker: it never
    takes a regular joker's place; ``engine.turns``)?"""
    return any(x == t for r in interpretations(tiles, rules) for i, t in r.joker_tiles if tiles[i].is_joker)


def _anchored(faces: np.ndarray, x: Tile, anchors: Counter[Tile]) -> np.ndarray:
    """Which columns of ``faces`` (56 x n type counts) hold face ``x`` and at least one of ``anchors``: where
    a table joker that stood for ``x`` next to ``anchors`` can stay (``x`` a joker there) or be
    replaced (``x`` a face there), as ``engine.turns`` rules it."""
    near = [type_index(t) for t in anchors]
    return (faces[type_index(x)] > 0) & (faces[near].sum(axis=0) > 0)


def _anchored_sets(model: Model, x: Tile, anchors: Counter[Tile]) -> np.ndarray:
    """``_anchored`` over the model's face-set columns (``_set_types``), with only the rows it
    reads worked out."""
    types = np.array([type_index(x)] + [type_index(t) for t in anchors], dtype=np.int64)
    cat, sets = model.cat, model.sets
    rows = np.zeros((len(types), len(sets)), dtype=np.int64)
    face = types < N_FACES
    rows[face] = cat.matrix[types[face]][:, sets]
    special = types > JOKER_TYPE
    if cat.specials is not None and special.any():
        twist = sets >= cat.n_base
        rows[np.ix_(special, twist)] = cat.specials[types[special] - JOKER_TYPE - 1][:, sets[twist] - cat.n_base]
    return (rows[0] > 0) & (rows[1:].sum(axis=0) > 0)


def _set_types(model: Model) -> np.ndarray:
    """(56, face sets) counts of each tile type in the model's face-set columns (jokers 0): the
    faces, and under Twist the special jokers (a special joker is an anchor like a face)."""
    cat = model.cat
    m = np.zeros((N_TYPES, len(model.sets)), dtype=np.int64)
    m[:N_FACES] = cat.matrix[:, model.sets]
    if cat.specials is not None:
        twist = model.sets >= cat.n_base
        m[JOKER_TYPE + 1 :, twist] = cat.specials[:, model.sets[twist] - cat.n_base]
    return m


def _keep_anchored(col: KeepColumn, x: Tile, anchors: Counter[Tile], rules: HouseRules) -> bool:
    held = {t for t in col.tiles if not t.is_joker}
    return bool(held & set(anchors)) and (x in held or (JOKER in col.tiles and _means(col.tiles, x, rules)))


def _table_joker_keys(
    model: Model,
) -> tuple[Counter[tuple], dict[tuple, list[tuple[Tile, Counter[Tile]]]], dict[tuple, set[int]]]:
    """The table's jokers, those with the same meanings and anchors under one key: how many, their
    (face, anchors) options and the table sets they sit in."""
    demand: Counter[tuple] = Counter()
    options_of: dict[tuple, list[tuple[Tile, Counter[Tile]]]] = {}
    owners_of: dict[tuple, set[int]] = {}
    for owner, tj in model.held:
        key = tuple((x, tuple(sorted(a.elements(), key=lambda t: t.code))) for x, a in tj.options)
        demand[key] += 1
        options_of[key] = list(tj.options)
        owners_of.setdefault(key, set()).add(owner)
    return demand, options_of, owners_of


def stay_columns(model: Model) -> tuple[tuple[tuple, Tile, int], ...]:
    """One column per table joker key and face it stood for: how many of those jokers stay as that
    face (at most the key's jokers)."""
    demand, options_of, _ = _table_joker_keys(model)
    return tuple(
        (key, x, need) for key, need in demand.items() for x in dict.fromkeys(x for x, _ in options_of[key])
    )


def joker_cover_rows(model: Model, rules: HouseRules) -> list[tuple[list[int], list[float], float, float]]:
    """Each joker on the table ends in a set with one of its anchors and the face it stood for,
    and stays there as a joker or was freed with that face from the rack (necessary conditions of
    the ``engine.turns`` joker rules, so no legal play is cut off)."""
    e0 = model._blocks[0]
    demand, options_of, owners_of = _table_joker_keys(model)
    keep_faces = (
        np.stack([c.counts for c in model.keep], axis=1) if model.keep else np.zeros((N_TYPES, 0), dtype=np.int64)
    )
    keep_faces[JOKER_TYPE] = 0  # a joker is no anchor
    keep_owner = np.array([c.owner for c in model.keep], dtype=np.int64)
    # per key: the keep columns of the table sets its jokers sit in
    owned = {key: (keep_owner[:, None] == np.array(sorted(owners))).any(axis=1) for key, owners in owners_of.items()}
    # per key, each (face, anchors) option with the face sets and keep columns holding the face
    # next to an anchor (worked out once: the rows below ask for them again and again)
    placed_by = {
        key: [
            (x, anchors, _anchored_sets(model, x, anchors), _anchored(keep_faces, x, anchors)) for x, anchors in options
        ]
        for key, options in options_of.items()
    }
    added_to: dict[Tile, np.ndarray] = {}  # face -> the keep columns that add it

    def cover(keys: list[tuple], face: Tile | None = None, own_place: bool = True) -> list[int]:
        covers = np.zeros(len(model.sets), dtype=bool)
        keep_cover = np.zeros(len(model.keep), dtype=bool)
        for key in keys:
            # a kept set's own joker stays there (one slot can't hold two jokers: not another set's)
            own = np.flatnonzero(owned[key]) if own_place else ()
            for x, anchors, set_places, keep_places in placed_by[key]:
                if face is not None and x != face:
                    continue
                covers |= set_places
                placed = keep_places
                if not own_place:  # its own kept set keeps it in its old place, not an added one
                    if x not in added_to:
                        added_to[x] = np.array([x in col.added for col in model.keep], dtype=bool)
                    # and a joker stands in a kept set only where tiles were added (its own tiles
                    # stay where they were)
                    placed = placed & ~owned[key] & added_to[x]
                keep_cover |= placed
                for c in own:
                    keep_cover[c] |= _keep_anchored(model.keep[c], x, anchors, rules)
        return np.flatnonzero(covers).tolist() + (e0 + np.flatnonzero(keep_cover)).tolist()

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

    # Stays or is freed with its tile from the rack. A stay column s (key, x) counts the key's
    # jokers that stay as x somewhere else than in their own kept set: no more than the jokers
    # standing in for x (all keys together), nor than the sets that hold x next to one of its
    # anchors. Each key's jokers: stays + copies of
    # its faces played from the rack + its own set kept >= the jokers (two jokers for B3 need two
    # B3 from the rack when neither stays).
    z_of = {int(f): model._blocks[1] + k for k, f in enumerate(model.joker_faces)}
    b0 = model._blocks[3]
    s0 = b0 + len(model.rack_vars) + model.n_extra
    col_of = {(key, x): s0 + k for k, (key, x, _) in enumerate(model.stays)}
    by_x: dict[Tile, list[int]] = {}
    for (key, x), col in col_of.items():
        by_x.setdefault(x, []).append(col)
        idx = cover([key], x, own_place=False)  # staying in its own kept set: the keep column
        rows.append(([col] + idx, [1.0] + [-1.0] * len(idx), -np.inf, 0.0))
    by_key: dict[tuple, list[int]] = {}
    for (key, _), col in col_of.items():
        by_key.setdefault(key, []).append(col)
    for key, cols in by_key.items():  # a joker stays as one face, not as each it stood for
        rows.append((cols, [1.0] * len(cols), -np.inf, float(demand[key])))
    for x, cols in by_x.items():
        f = type_index(x)
        idx = cols + ([z_of[f]] if f in z_of else [])
        rows.append((idx, [1.0] * len(cols) + [-1.0] * (len(idx) - len(cols)), -np.inf, 0.0))

    copies: dict[int, list[int]] = {}  # tile type -> its rack binaries
    for k, (t, _) in enumerate(model.rack_vars):
        copies.setdefault(t, []).append(b0 + k)

    def stay_or_rack(keys: list[tuple]) -> tuple[list[int], list[float]]:
        coef: Counter[int] = Counter()
        for key in keys:
            for x in {x for x, _ in options_of[key]}:
                coef[col_of[(key, x)]] = 1
                for b in copies.get(type_index(x), ()):
                    coef[b] = 1
            for c in np.flatnonzero(owned[key]):
                coef[e0 + int(c)] = max(coef[e0 + int(c)], demand[key])
        return list(coef), [float(v) for v in coef.values()]

    for key, need in demand.items():
        idx, vals = stay_or_rack([key])
        rows.append((idx, vals, float(need), np.inf))
    for keys in by_face.values():
        if len(keys) > 1:
            idx, vals = stay_or_rack(keys)
            rows.append((idx, vals, float(sum(demand[k] for k in keys)), np.inf))
    return rows


def _new_for(model: Model, zf: np.ndarray) -> np.ndarray:
    """(len(zf), face sets) bool: face set j holds face zf[k] and, with a joker in that face's
    place, is a new set - it does not hold every face of a table set, which would make it that
    set's continuation in ``validate_turn``."""
    sub = _set_types(model)
    out = sub[zf] > 0
    for written in model.written:
        need = np.zeros(N_TYPES, dtype=np.int64)
        for t in written:
            if not t.is_joker:
                need[type_index(t)] += 1
        if not need.any():
            continue
        for k, f in enumerate(zf):
            faces = sub.copy()
            faces[int(f)] = 0  # the joker stands there, not the face
            out[k] &= ~(faces >= need[:, None]).all(axis=0)
    return out


def reuse_plan(model: Model, faces: frozenset[int]) -> tuple[np.ndarray, np.ndarray]:
    """Which face sets and joker faces the reuse rows for ``faces`` need: the face sets that are
    a new set with a joker for one of those faces (``_new_for``)."""
    zf = np.array([f for f in model.joker_faces if int(f) in faces], dtype=np.int64)
    if not len(zf):
        return np.zeros(0, dtype=np.int64), zf
    return np.flatnonzero(_new_for(model, zf).any(axis=0)), zf


def reuse_rows(model: Model, rows: Rows) -> None:
    """A joker that stands in for face f must sit where a table joker stays (with one of its
    anchors, standing for f), or in a new set with a tile played from the rack, or be one of the
    jokers played from the rack (what ``validate_turn`` asks of a joker taken from a set with the
    default ``joker_reuse``). Only for the faces in ``model.reuse_faces`` (those whose jokers broke
    the rule in an answer).

    Columns after the rack binaries: h_s <= x_s and h_s <= 2 * (faces of s played from the
    rack) - copies of s with a rack tile - for the new face sets holding such a face; sp_f spare
    slots, together at most the rack jokers played; and z_f <= sum h over those sets + the table
    jokers staying as f (the stay columns of ``joker_cover_rows``, one joker staying as one face
    only) + sp_f.
    A kept table set is never new, so its added faces give a freed joker no place.
    """
    cat, rules = model.cat, model.rules
    sets, zf = reuse_plan(model, model.reuse_faces)
    new_for = _new_for(model, zf) if len(zf) else np.zeros((0, len(model.sets)), dtype=bool)
    e0, z0, q0, b0 = model._blocks
    h0 = b0 + len(model.rack_vars)
    sp0 = h0 + len(sets)
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
        twist = int(model.sets[j]) - cat.n_base  # a special joker from the rack is a rack tile too
        if twist >= 0 and cat.specials is not None:
            for kind in np.flatnonzero(cat.specials[:, twist]):
                if JOKER_TYPE + 1 + int(kind) in first_copy:
                    put(first_copy[JOKER_TYPE + 1 + int(kind)], r, -2.0)
    stay_cols: dict[int, list[int]] = {}  # face -> the stay columns of the table jokers for it
    s0 = b0 + len(model.rack_vars) + model.n_extra
    for k, (_, x, _) in enumerate(model.stays):
        stay_cols.setdefault(type_index(x), []).append(s0 + k)
    spare = rows.new(-np.inf, 0.0)
    for idx in joker_copies:
        put(idx, spare, -1.0)
    for k, f in enumerate(zf):
        f = int(f)
        put(sp0 + k, spare, 1.0)
        # z_f <= h over the new sets with f + table jokers staying as f + sp_f
        r = rows.new(-np.inf, 0.0)
        put(z_of[f], r, 1.0)
        for j in np.flatnonzero(new_for[k]):
            put(h_of[int(j)], r, -1.0)
        for col in stay_cols.get(f, []):
            put(col, r, -1.0)
        put(sp0 + k, r, -1.0)
