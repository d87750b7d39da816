"""The integer program (den Hertog & Hulshof 2006, with jokers as stand-ins): which sets make the
table afterwards.

Variables (all integer):

* ``x_s`` in 0..2 - copies of face set ``s`` (``engine.solver.catalogue``) on the table afterwards;
* ``e_c`` in 0..1 - keep column ``c`` (a table set kept as it is, or grown at its ends) is used;
* ``z_f`` in 0..J - jokers standing in for face ``f`` (J = jokers on the table and the rack);
  a table joker the rack cannot free (none of the tiles it stood for is there) stands for one of
  those again, so with no other joker only those faces get a ``z`` and the sets and keep columns
  that would need a joker elsewhere are left out (``joker_rows.joker_freedom``);
* ``q_f`` in 0..J - of those, jokers left exposed (more than the safe places for one; only with
  the exposure rows);
* ``b_{t,k}`` in 0..1 - the k-th copy of tile type ``t`` on the rack is played
  (``b_{t,1} >= b_{t,2}``: "a different set of rack tiles" is then a linear cut); only for the
  tiles some column can take (a rack tile no set holds stays on the rack).

Rows:

* face balance, per face: faces in the chosen sets = on the table + played from the rack + jokers
  standing in (every table tile stays on the table; a rack tile is played at most as often as held);
* Rummikub Twist (``rules.twist``; none of this exists without it): one balance row per special
  joker (JD, JM, JC: the Twist columns holding it = on the table + played from the rack; one of
  each in the box, so such a column is used at most once) and, for a Twist column with no more
  faces than regular jokers in play, a row that keeps a numbered tile in it (``_numbered_rows``);
  a special joker counts ``rules.joker_penalty`` in the objective (what it costs on a rack);
* joker balance: jokers standing in + jokers kept in their table sets = table jokers + rack jokers
  played;
* per table set: at most one of its keep columns (exactly one before the initial meld, when the
  table may not be touched; face sets can then take faces from the rack only);
* initial meld: the points of the new sets reach ``rules.initial_meld`` (a joker counts as the
  face it stands for, which is what ``engine.initial`` counts);
* exposure: ``q_f >= z_f - (safe places for a joker for f in the chosen sets)`` - only when
  ``exposure=True``: the first program leaves these rows out (the exposed jokers of kept table
  sets still count) and ``engine.solver.hint`` solves again with them only when its answer
  leaves a joker that stands in for a face exposed;
* jokers on the table (the ``engine.turns`` rules): each must end in a set that holds the tiles it
  was anchored to (one of them suffices) and the face it stood for (as a face: replaced; or as a
  joker: it stayed), and a replaced joker's face is played from the rack, a copy per joker.
  With the default ``joker_reuse`` a joker taken from a set must be played again in a new set
  with a rack tile: the layout tries every placement of the jokers and ``validate_turn`` judges;
  only when no placement passes is the model rebuilt with rows for this rule
  (``joker_rows.reuse_rows``) for the faces whose jokers broke it, which most positions never need.

Objective: one weighted sum whose weights keep the criteria strictly in order (lexicographic):
tiles played, then their value (face value, a joker counts ``rules.joker_penalty``: the points the
play saves at the end of a round), then table sets kept, then fewest exposed jokers. With
``E`` = jokers in play, ``K`` = table sets and ``V`` = rack value: ``w_exposed = 1``,
``w_kept = E + 1``, ``w_value = w_kept * (K + 1)``, ``w_tiles = w_value * (V + 1)``; each weight
exceeds the most the criteria after it can add up to, so no amount of a later criterion outweighs
one unit of an earlier one. All coefficients are integers, so HiGHS proves optimality once the
gap is below 1. One solve instead of four sequential ones keeps a position in the tens of
milliseconds.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

from engine.rules import HouseRules
from engine.sets import analyse_set
from engine.solver.catalogue import JOKER_TYPE, N_FACES, N_TYPES, TYPE_TILES, catalogue, count_vector
from engine.solver.ilp import Ilp, Rows
from engine.solver.joker_rows import joker_cover_rows, joker_freedom, reuse_plan, reuse_rows, stay_columns, table_held
from engine.solver.keep import keep_columns
from engine.solver.program import Model, Solution, tile_values
from engine.tiles import Tile
from engine.turns import TableJoker

__all__ = ["Model", "Solution", "build_model", "tile_values"]


def build_model(
    table: list[tuple[Tile, ...]],
    rack: Sequence[Tile],
    rules: HouseRules,
    opened: bool,
    with_ilp: bool = True,
    reuse: frozenset[int] = frozenset(),
    exposure: bool = True,
    written: list[tuple[Tile, ...]] | None = None,
) -> Model:
    """The model for one position; ``table`` holds valid sets in play order. ``reuse`` (faces) adds
    the rows for "a joker taken from the table is played again with a rack tile" for jokers that
    stand in for those faces (only when there are jokers on the table; the caller adds them for
    the faces whose jokers broke that rule in an answer)."""
    rack_counts = count_vector(rack)
    table_counts = count_vector(t for s in table for t in s)
    cat = catalogue(rules, int(rack_counts[JOKER_TYPE] + table_counts[JOKER_TYPE]))
    # before the initial meld new sets come from the rack alone
    fill = table_counts + rack_counts if opened else rack_counts
    jokers = int(fill[JOKER_TYPE])
    written = list(written) if written is not None else list(table)
    # jokers that may stand for any face: the rack's, and the table's that the rack can free
    free, bound = int(rack_counts[JOKER_TYPE]), np.zeros(N_FACES, dtype=bool)
    held: tuple[tuple[int, TableJoker], ...] = ()
    if opened and table_counts[JOKER_TYPE] > 0:
        held = table_held(written, rules)
        freeable, bound = joker_freedom(held, rack_counts)
        free += freeable
    sets = cat.fitting(fill, jokers, free, bound)
    if len(sets) and sets[-1] >= cat.n_base:  # Twist columns: engine.sets has the last word
        sets = np.array([j for j in sets if j < cat.n_base or analyse_set(cat.sets[j].tiles, rules).valid], dtype=np.int64)
    extend = opened or rules.opening_additions
    keep = keep_columns(table, table_counts + rack_counts, jokers, rules, extend, free, bound)
    has_face = cat.holds(sets)
    grown = [c.counts[:N_FACES] for c in keep if c.added]
    if grown:
        has_face |= np.sum(grown, axis=0) > 0
    joker_faces = (has_face & (bound | (free > 0))).nonzero()[0]
    # binaries only for rack tiles some column can take (a joker: one standing in for a face)
    playable = np.ones(N_TYPES, dtype=bool)
    playable[:N_FACES] = has_face
    playable[JOKER_TYPE] = len(joker_faces) > 0
    copies = rack_counts.tolist()
    rack_vars = [(t, k) for t in (rack_counts * playable).nonzero()[0].tolist() for k in range(1, copies[t] + 1)]
    model = Model(rules, opened, table, rack_counts, table_counts, cat, sets, keep, joker_faces, rack_vars,
                  written=written, held=held)
    model.exposure = exposure
    if held:
        model.stays = stay_columns(model)
    if reuse and opened and table_counts[JOKER_TYPE] > 0 and len(joker_faces) > 0:
        model.reuse_faces = frozenset(int(f) for f in reuse)
        r_sets, r_faces = reuse_plan(model, model.reuse_faces)
        model.n_extra = len(r_sets) + len(r_faces)
    if with_ilp:
        model.ilp = _ilp(model)
    return model


def _ilp(model: Model) -> Ilp:
    cat, rules = model.cat, model.rules
    sets, keep, zf, rack_vars = model.sets, model.keep, model.joker_faces, model.rack_vars
    table_counts, rack_counts = model.table_counts, model.rack_counts
    ns, nk, nz, nb = len(sets), len(keep), len(zf), len(rack_vars)
    e0, z0, q0, b0 = model._blocks

    values = tile_values(rules)
    jokers_total = int(table_counts[JOKER_TYPE] + rack_counts[JOKER_TYPE])
    w_kept = jokers_total + 1
    w_value = w_kept * (len(model.table) + 1)
    w_tiles = w_value * (int((values * rack_counts).sum()) + 1)
    model.weights = (w_tiles, w_value, w_kept)
    types = np.array([t for t, _ in rack_vars], dtype=np.int64)
    x0 = b0 + nb  # the reuse columns, then the stay columns
    cost = np.zeros(model.n_cols)
    cost[e0:z0] = [w_kept - c.exposed for c in keep]
    cost[q0:b0] = -1.0
    cost[b0:x0] = w_tiles + w_value * values[types]
    # copies of a face set: 2 unless the faces (with the jokers) are there for one copy only
    fill = table_counts + rack_counts if model.opened else rack_counts
    twist_cols = (sets >= cat.n_base).nonzero()[0]
    faces = cat.face_rows[sets[: ns - len(twist_cols)]]  # (the Twist columns come last)
    short = np.add.reduce(np.append(np.maximum(2 - fill[:N_FACES], 0), 0)[faces], axis=1)
    upper = np.ones(model.n_cols)  # a Twist column: one of each special joker in the box
    upper[: len(faces)] = np.where(short <= fill[JOKER_TYPE], 2.0, 1.0)
    # q: finite, though q_f <= z_f anyway: HiGHS's reduced-cost fixing walks every value up to
    # the bound of an unbounded integer column, which can dominate the solve
    upper[z0:b0] = jokers_total
    upper[x0 : x0 + model.n_extra] = max(jokers_total, 2)
    upper[x0 + model.n_extra :] = [need for _, _, need in model.stays]

    # rows: 52 face balances, joker balance (under Twist: 3 special joker balances; row = type),
    # one per table set, rack copy order, meld, exposure
    rows = Rows()
    twist = cat.specials is not None
    rows.new(table_counts[: N_TYPES if twist else N_FACES + 1].astype(np.float64))
    joker_row = N_FACES
    sj, k = (faces < N_FACES).nonzero()
    rows.add(faces[sj, k], sj, 1.0)
    if len(twist_cols):
        sub = cat.matrix[:, sets[twist_cols]]
        fi, kj = np.nonzero(sub)
        rows.add(fi, twist_cols[kj], sub[fi, kj].astype(np.float64))
        spec = cat.specials[:, sets[twist_cols] - cat.n_base]
        ki, kj = np.nonzero(spec)
        rows.add(JOKER_TYPE + 1 + ki, twist_cols[kj], spec[ki, kj].astype(np.float64))
    if nk:
        kc = np.array([c.counts for c in keep])  # (nk, 56)
        cj, ti = kc.nonzero()
        rows.add(np.where(ti == JOKER_TYPE, joker_row, ti), e0 + cj, kc[cj, ti].astype(np.float64))
    if nk:  # at most one keep column per table set (exactly one before the initial meld)
        set_row = rows.new(np.full(len(model.table), 0.0 if model.opened else 1.0), 1.0)
        rows.add(set_row + np.array([c.owner for c in keep]), e0 + np.arange(nk), 1.0)
    if nz:
        rows.add(zf, z0 + np.arange(nz), -1.0)
        rows.add(np.full(nz, joker_row), z0 + np.arange(nz), 1.0)
    if nb:
        rows.add(np.where(types == JOKER_TYPE, joker_row, types), b0 + np.arange(nb), -1.0)
        seconds = np.array([k for k, (_, copy) in enumerate(rack_vars) if copy == 2], dtype=np.int64)
        if len(seconds):  # b_{t,1} - b_{t,2} >= 0
            first = rows.new(np.zeros(len(seconds)), np.inf)
            order = first + np.arange(len(seconds))
            rows.add(order, b0 + seconds - 1, 1.0)
            rows.add(order, b0 + seconds, -1.0)
    if len(twist_cols) and jokers_total:
        _numbered_rows(model, rows, twist_cols, jokers_total)
    if not model.opened:  # the new sets reach the initial meld
        meld = rows.new(float(rules.initial_meld), np.inf)
        rows.add(np.full(ns, meld), np.arange(ns), cat.points[sets].astype(np.float64))
    if nz and model.exposure:  # z_f - q_f - (safe places for a joker for f) <= 0
        first = rows.new(np.full(nz, -np.inf), 0.0)
        rows.add(first + np.arange(nz), z0 + np.arange(nz), 1.0)
        rows.add(first + np.arange(nz), q0 + np.arange(nz), -1.0)
        safe = cat.safe[zf][:, sets]
        r, j = np.nonzero(safe)
        rows.add(first + r, j, -1.0)
        if nk:
            faces = [TYPE_TILES[int(f)] for f in zf]
            pairs = [(k, c) for c, col in enumerate(keep) if col.safe for k, f in enumerate(faces) if f in col.safe]
            if pairs:
                r, c = np.array(pairs).T
                rows.add(first + r, e0 + c, -1.0)
    if model.n_extra:
        reuse_rows(model, rows)
    if model.held:
        for idx, vals, lo, hi in joker_cover_rows(model, rules):
            rows.row(idx, vals, lo, hi)

    return Ilp(cost, np.zeros(model.n_cols), upper, *rows.matrix(model.n_cols))


def _numbered_rows(model: Model, rows: Rows, twist_cols: np.ndarray, jokers: int) -> None:
    """A set with a special joker holds a numbered tile (``engine.sets``). Only a Twist column with
    no more faces than there are regular jokers in play (two in the box) could end up all jokers:
    such a column is used only if one of its faces is there as a tile that no kept table set holds in its
    own tiles (a table tile or one from the rack: copies of a face can't be told apart, so the
    layout puts that copy in this set and the joker elsewhere). Before the initial meld new sets
    take rack tiles only, so only the rack's copies count."""
    cat, e0, b0 = model.cat, model._blocks[0], model._blocks[3]
    copies: dict[int, list[int]] = {}
    for k, (t, _) in enumerate(model.rack_vars):
        copies.setdefault(int(t), []).append(b0 + k)
    own = [count_vector(s)[:N_FACES] for s in model.table]  # each table set's own faces
    for j in twist_cols:
        column = cat.matrix[:, model.sets[j]]
        if int(column.sum()) > jokers:
            continue
        faces = [int(f) for f in np.flatnonzero(column)]
        r = rows.new(-np.inf, float(sum(model.table_counts[f] for f in faces)) if model.opened else 0.0)
        rows.put(int(j), r, 1.0)
        for f in faces:
            for col in copies.get(f, []):
                rows.put(col, r, -1.0)
        if model.opened:
            for c, keep in enumerate(model.keep):
                held = int(sum(own[keep.owner][f] for f in faces))
                if held:
                    rows.put(e0 + c, r, float(held))
