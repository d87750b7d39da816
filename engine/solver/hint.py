"""``best_play``: the provably best play from a rack, with the table rearranged at will.

"Best", in order: the most rack tiles played; then the most rack points shed (face values, a
joker counting ``rules.joker_penalty``: what the tiles would cost if someone else went out - the
objective's measure, reported as ``rack_points_shed``); then the fewest table sets disturbed (a
kept set may have grown at its ends); then the fewest jokers left exposed (a joker that could be
lifted off its set with the set staying valid, like the one in ``K3 K4 K5 J``). Before the
initial meld (``opened=False``) only new sets from the rack count, and they must reach
``rules.initial_meld``; the table is left alone (with the ``opening_additions`` house rule, its
sets may also be grown with rack tiles).

Rummikub Twist (``rules.twist``): the special jokers JD, JM and JC on the rack and the table are
placed by the same integer program (``engine.solver.twist``: one column per set shape holding
one); every set proposed passes ``engine.sets.analyse_set``. Without the house rule a special
joker is a ``RuleError`` (``twist_off``).

Values shown to a player follow the rules: ``value_placed`` counts a joker as the tile it stands
for in its set (``TurnCheck.placed_value``), ``meld_points`` is what ``engine.initial`` counts.

Every play returned has passed ``engine.turns.validate_turn``. The joker rules are modelled; a
solution of the integer program that still fails ``validate_turn`` is cut off and the program
solved again (``cuts`` counts them: such a cut may remove legal plays too, so a play found after
one is the best found, not proven best - no known position needs one). ``optimal`` means one
thing: the search ran to the end; it is False only when the time limit stopped it, and then the
best play found so far is returned.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from engine.errors import InputError
from engine.initial import check_initial_meld, invalid_set
from engine.reasons import Reason, RuleError, reason_json, render
from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set
from engine.solver.catalogue import JOKER_TYPE, N_FACES, N_TYPES, count_vector, exposed_jokers, type_index
from engine.solver.greedy import greedy_play
from engine.solver.keep import play_order
from engine.solver.layout import LaidSet, layouts
from engine.solver.model import Model, Solution, build_model, tile_values
from engine.solver.moves import describe_moves
from engine.supply import ensure_supply
from engine.tiles import COPIES_PER_TILE, JOKERS_IN_SET, SPECIALS_IN_SET, Tile, canonical_tiles
from engine.turns import JOKER_NOT_REUSED, validate_turn

__all__ = ["Hint", "Play", "best_play", "best_meld_points"]

_MAX_CUTS = 25  # solutions cut off for failing validate_turn before giving up on more


@dataclass(frozen=True)
class Play:
    """One legal play (or, for a draw, the position left as it was).

    tiles_placed, value_placed (the rules' value of the tiles played: a joker counts as the tile
    it stands for), placed (rack tiles played, in table order), table (every set afterwards, in
    play order, jokers in place), rack_left, steps (to follow, as ``step_*`` reasons; ``moves``
    says them in English), sets_disturbed (table sets
    not kept), exposed_jokers, meld_points (before the initial meld: the points of the new sets;
    else None), optimal (the search for it ran to the end; for an alternative: best among plays
    of other rack tiles than those listed before it), rack_points_shed (the solver's measure: face
    values, a joker ``rules.joker_penalty``).
    """

    tiles_placed: int
    value_placed: int
    placed: tuple[Tile, ...]
    table: tuple[tuple[Tile, ...], ...]
    rack_left: tuple[Tile, ...]
    steps: tuple[Reason, ...]
    sets_disturbed: int
    exposed_jokers: int
    meld_points: int | None
    optimal: bool
    rack_points_shed: int = 0

    @property
    def moves(self) -> tuple[str, ...]:
        """The steps in English (what the command line prints)."""
        return tuple(render(s) for s in self.steps)

    def as_dict(self) -> dict[str, Any]:
        return {
            "tiles_placed": self.tiles_placed,
            "value_placed": self.value_placed,
            "placed": [t.code for t in self.placed],
            "table": [[t.code for t in s] for s in self.table],
            "rack_left": [t.code for t in self.rack_left],
            "moves": list(self.moves),
            "steps": [reason_json(s) for s in self.steps],
            "sets_disturbed": self.sets_disturbed,
            "exposed_jokers": self.exposed_jokers,
            "meld_points": self.meld_points,
            "optimal": self.optimal,
            "rack_points_shed": self.rack_points_shed,
        }


@dataclass(frozen=True)
class Hint:
    """The answer to "what should I play?".

    ``best``: the best play (with ``draw=True``, when nothing can be played, the position as it
    was: no tiles placed, ``table`` the table, ``rack_left`` the whole rack); its fields read
    through (``hint.tiles_placed`` ...). ``optimal`` (False only when the time limit stopped the
    search), ``solve_ms``, ``alternatives`` (the next best plays, each placing a different
    multiset of rack tiles; at most ``top_k - 1``), ``opened``, ``threshold`` (the initial meld),
    ``best_meld`` (before the initial meld: the most points the rack can lay down in new sets),
    ``shortfall`` (points missing to open: ``threshold - best_meld`` when that is positive, else
    0) and ``cuts`` (answers of the integer program cut off for failing ``validate_turn``; when
    more than 0 the play is the best found, not proven best).
    """

    best: Play
    optimal: bool
    solve_ms: float
    draw: bool
    alternatives: tuple[Play, ...] = ()
    opened: bool = True
    threshold: int = 0
    best_meld: int | None = None
    shortfall: int = 0
    cuts: int = 0

    @property
    def play(self) -> Play | None:
        return None if self.draw else self.best

    @property
    def tiles_placed(self) -> int:
        return self.best.tiles_placed

    @property
    def value_placed(self) -> int:
        return self.best.value_placed

    @property
    def placed(self) -> tuple[Tile, ...]:
        return self.best.placed

    @property
    def table(self) -> tuple[tuple[Tile, ...], ...]:
        return self.best.table

    @property
    def rack_left(self) -> tuple[Tile, ...]:
        return self.best.rack_left

    @property
    def moves(self) -> tuple[str, ...]:
        return self.best.moves

    @property
    def steps(self) -> tuple[Reason, ...]:
        return self.best.steps

    @property
    def sets_disturbed(self) -> int:
        return self.best.sets_disturbed

    @property
    def exposed_jokers(self) -> int:
        return self.best.exposed_jokers

    @property
    def meld_points(self) -> int | None:
        return self.best.meld_points

    @property
    def rack_points_shed(self) -> int:
        return self.best.rack_points_shed

    def as_dict(self) -> dict[str, Any]:
        play = self.best.as_dict()
        del play["optimal"]
        shed = play.pop("rack_points_shed")
        return {
            "draw": self.draw,
            "optimal": self.optimal,
            "solve_ms": round(self.solve_ms, 3),
            "opened": self.opened,
            **play,
            "threshold": self.threshold,
            "best_meld": self.best_meld,
            "shortfall": self.shortfall,
            "alternatives": [p.as_dict() for p in self.alternatives],
            "rack_points_shed": shed,
            "cuts": self.cuts,
        }


_SUPPLY = np.array([COPIES_PER_TILE] * N_FACES + [JOKERS_IN_SET] + [SPECIALS_IN_SET] * (N_TYPES - N_FACES - 1))


def _check_position(table: Sequence[Sequence[Tile]], rack: Sequence[Tile], rules: HouseRules) -> None:
    counts = count_vector([*rack, *(t for s in table for t in s)])
    if counts[JOKER_TYPE + 1 :].any() and not rules.twist:  # the Twist jokers need the house rule
        special = next(t for t in [*rack, *(t for s in table for t in s)] if t.is_special)
        raise RuleError(Reason("twist_off", {"tile": special.code}))
    for k, s in enumerate(table, start=1):
        check = analyse_set(s, rules)
        if not check.valid:
            raise RuleError(invalid_set(k, check, "table_set_invalid"))
    if (counts > _SUPPLY).any():  # (the message from engine.supply)
        ensure_supply([list(s) for s in table], list(rack))


def _make_play(
    model: Model,
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    laid: list[LaidSet],
    optimal: bool,
) -> tuple[Play | None, tuple[str, ...]]:
    """The play for this layout, or None with the rules validate_turn says it breaks."""
    after = [s.tiles for s in laid]
    check = validate_turn(table, rack, after, model.rules, model.opened)
    if not check.ok:
        return None, check.codes
    values = tile_values(model.rules)
    shed = int(values[[type_index(t) for t in check.placed]].sum())
    kept = {s.owner for s in laid if s.owner is not None}
    meld = None
    if not model.opened:
        meld = check_initial_meld([s.tiles for s in laid if s.owner is None], model.rules).total
    return Play(
        tiles_placed=len(check.placed),
        value_placed=check.placed_value,
        placed=check.placed,
        table=tuple(after),
        rack_left=check.rack_after,
        steps=tuple(describe_moves(model.table, laid)),
        sets_disturbed=len(table) - len(kept),
        exposed_jokers=sum(exposed_jokers(s, model.rules) for s in after),
        meld_points=meld,
        optimal=optimal,
        rack_points_shed=shed,
    ), ()


def _play_for(model: Model, sol: Solution, table, rack, optimal: bool) -> tuple[Play | None, set[str]]:
    """The first layout of ``sol`` that validate_turn accepts, as a play; else None and every
    rule the layouts broke."""
    broken: set[str] = set()
    for laid in layouts(model, sol):
        play, codes = _make_play(model, table, rack, laid, optimal)
        if play is not None:
            return play, set()
        broken.update(codes)
    return None, broken


def _rank(play: Play) -> tuple[int, int, int, int]:
    return (play.tiles_placed, play.rack_points_shed, -play.sets_disturbed, -play.exposed_jokers)


def best_meld_points(rack: Sequence[Tile], rules: HouseRules = DEFAULT_RULES, time_limit: float = 1.0) -> int:
    """The most points new sets from ``rack`` alone can reach (jokers count as the tile they stand
    for): what "you have 24 of 30" reports before the initial meld."""
    model = build_model([], rack, rules.with_(initial_meld=0), opened=False, exposure=False)
    assert model.ilp is not None
    cost = np.zeros(model.n_cols)  # points instead of tiles: only the new sets' points count
    cost[: len(model.sets)] = model.cat.points[model.sets]
    model.ilp.set_costs(cost)
    res = model.solve(time_limit)
    if res.values is None:
        return 0
    sol = model.decode(res.values)
    return int(sum(model.cat.points[s] for s in sol.sets))


@dataclass(frozen=True)
class _Found:
    """What ``_search`` found: the model last solved, the plays (best first), whether the time
    limit stopped it, and how many answers were cut off for failing ``validate_turn``."""

    model: Model
    plays: list[Play]
    timed_out: bool
    cuts: int


def _search(
    table: list[tuple[Tile, ...]],
    ordered: list[tuple[Tile, ...]],
    rack: list[Tile],
    rules: HouseRules,
    opened: bool,
    top_k: int,
    deadline: float,
) -> _Found:
    """Solve, check, cut, solve again: up to ``top_k`` plays, best first.

    The first program leaves out the rows for exposed jokers standing in for faces, and the joker
    reuse rows. When an answer leaves such a joker exposed, the program is rebuilt with those rows
    and the first three criteria fixed at the answer's (the *exposure pass*); when an answer breaks
    the reuse rule, it is rebuilt with reuse rows for those jokers; for any other broken rule the
    same program is solved again by HiGHS's MIP solver (``Ilp.solve``: its optimum is often
    another one), and an answer rejected then is cut off. Every play kept has passed
    ``validate_turn``.
    """
    reuse: frozenset[int] = frozenset()
    exposure = False
    plays: list[Play] = []
    excluded: list[np.ndarray] = []  # rack multisets already answered
    floor: tuple[int, int, int] | None = None  # criteria fixed during the exposure pass
    pending: tuple[Play, np.ndarray] | None = None  # the answer the exposure pass may better
    timed_out = False
    cuts = 0

    def rebuild() -> Model:
        m = build_model(ordered, rack, rules, opened, reuse=reuse, exposure=exposure, written=table)
        for played in excluded:
            m.exclude_played(played)
        if floor is not None:
            m.require_prefix(floor)
        return m

    def accept(play: Play, played: np.ndarray) -> None:
        plays.append(play)
        excluded.append(played)

    model = rebuild()
    second_look = False  # an answer of this program was rejected: HiGHS's MIP solver answers now
    while len(plays) < top_k:
        res = model.solve(deadline - time.perf_counter(), quick=not second_look)
        stopped = not res.optimal and not res.infeasible  # HiGHS ran out of time
        timed_out |= stopped
        sol = model.decode(res.values) if res.values is not None else None
        if sol is None or sol.tiles_played == 0:
            if pending is not None:  # the pass found nothing better: keep the answer
                accept(replace(pending[0], optimal=pending[0].optimal and not stopped), pending[1])
            break
        play, broken = _play_for(model, sol, table, rack, res.optimal)
        if play is None:
            faces = frozenset(int(f) for f in np.flatnonzero(sol.jokers))
            if time.perf_counter() >= deadline:
                timed_out = True
                if pending is not None:
                    accept(replace(pending[0], optimal=False), pending[1])
                break
            if JOKER_NOT_REUSED in broken and model.table_counts[JOKER_TYPE] and not faces <= reuse:
                # rows for "played again in a new set with a rack tile" for these jokers (all, the
                # second time)
                reuse = reuse | faces if not reuse else frozenset(int(f) for f in model.joker_faces)
                model, second_look = rebuild(), False
                continue
            if not second_look:
                # another optimum of the same program may pass (a cut could cut off legal plays)
                second_look = True
                continue
            cuts += 1
            if cuts > _MAX_CUTS:
                break
            model.exclude_support(res.values)
            continue
        own = sum(c.exposed for c in sol.kept)  # counted by the first program already
        if pending is None and not exposure and play.exposed_jokers > own:
            # can another arrangement, as good on the first three criteria, cover the joker?
            pending = (play, sol.played)
            exposure = True
            floor = model.prefix(res.values)
            model, second_look = rebuild(), False
            continue
        if pending is not None:
            if _rank(play) < _rank(pending[0]):  # cannot happen; be safe
                play = pending[0]
            pending, floor = None, None
            accept(play, sol.played)
            if len(plays) < top_k:
                model, second_look = rebuild(), False  # without the fixed criteria: the alternatives are worse
            continue
        accept(play, sol.played)
        if len(plays) >= top_k:
            break
        model.exclude_played(sol.played)
        second_look = False
        if time.perf_counter() >= deadline:
            timed_out = True
            break
    return _Found(model, plays, timed_out, cuts)


def _draw(table: list[tuple[Tile, ...]], ordered: list[tuple[Tile, ...]], rack: list[Tile], rules: HouseRules) -> Play:
    """The position left as it was: what a draw shows."""
    return Play(
        tiles_placed=0,
        value_placed=0,
        placed=(),
        table=tuple(table),
        rack_left=tuple(rack),
        steps=(),
        sets_disturbed=0,
        exposed_jokers=sum(exposed_jokers(s, rules) for s in ordered),
        meld_points=None,
        optimal=True,
    )


def best_play(
    table: Sequence[Sequence[Tile]],
    rack: Sequence[Tile],
    rules: HouseRules = DEFAULT_RULES,
    opened: bool = True,
    top_k: int = 1,
    time_limit: float = 5.0,
) -> Hint:
    """The best play (see the module docstring), with up to ``top_k - 1`` alternatives.

    Raises ``RuleError`` (a ValueError; reason ``table_set_invalid``) for an invalid table set or
    (``twist_off``) a Twist special joker without ``rules.twist``, and ``OverSupply`` (a
    ValueError) for more copies of a tile than a full set has.
    """
    t0 = time.perf_counter()
    deadline = t0 + max(time_limit, 0.0)
    if top_k < 1:
        raise InputError(f"top_k must be at least 1, got {top_k}")
    # the shared tile objects: the solver's many dict and set lookups then stop at the identity check
    table = [canonical_tiles(s) for s in table if len(s)]
    rack = list(canonical_tiles(rack))
    _check_position(table, rack, rules)
    ordered = [play_order(s, rules) for s in table]
    found = _search(table, ordered, rack, rules, opened, top_k, deadline)
    plays = found.plays
    timed_out = found.timed_out or any(not p.optimal for p in plays[:1])
    if timed_out or found.cuts:  # the search did not run to the end: is the quick play better?
        start = greedy_play(found.model)
        quick = None
        if start is not None:
            model = found.model
            quick, _ = _play_for(model, model.decode(np.rint(start).astype(np.int64)), table, rack, not timed_out)
        if quick is not None and (not plays or _rank(quick) > _rank(plays[0])):
            same = Counter(quick.placed)
            plays = [quick] + [p for p in plays if Counter(p.placed) != same]

    threshold = rules.initial_meld
    best_meld = None
    shortfall = 0
    if not opened:
        best_meld = best_meld_points(rack, rules, max(0.05, deadline - time.perf_counter()))
        if not plays:
            shortfall = max(0, threshold - best_meld)
    return Hint(
        best=plays[0] if plays else _draw(table, ordered, rack, rules),
        optimal=not timed_out,
        solve_ms=(time.perf_counter() - t0) * 1000.0,
        draw=not plays,
        alternatives=tuple(plays[1:]),
        opened=opened,
        threshold=threshold,
        best_meld=best_meld,
        shortfall=shortfall,
        cuts=found.cuts,
    )
