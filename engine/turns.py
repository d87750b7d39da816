"""Was this turn legal? Compare the table before and after a turn, with the player's rack.

``validate_turn`` reports every broken rule as a ``Violation`` with a stable ``code``:

``invalid_set``                  a set on the table after the turn is not a run or a group
``no_tile_played``               no tile went from the rack to the table (a turn plays or draws)
``table_tile_taken``             a tile on the table before is not on the table after (tiles never
                                 go back to a rack); compared as multisets
``not_from_rack``                a tile on the table after was neither on the table before nor on
                                 the rack
``initial_meld_too_low``         opening turn: the new sets are worth less than ``rules.initial_meld``
``initial_meld_touched_table``   opening turn: a set already on the table was broken up or rearranged
``initial_meld_added_to_table``  opening turn: rack tiles added to a set already on the table while
                                 the ``opening_additions`` house rule is off
``joker_not_replaced``           a joker was taken from a set without the tile it stood for put
                                 in its place
``joker_not_reused``             a taken joker was not played again in a set with a tile from the rack
``over_supply``                  more copies of a tile (or jokers) than a full 106-tile set has,
                                 across the table and the rack

The opening turn (``opened=False``): every set of the table before must still be on the table,
unchanged (as a multiset of tiles); the other sets are new and must come from the rack and reach
the threshold. With ``opening_additions=True`` the opening turn may also extend sets already on
the table with rack tiles, but only the new sets count toward the threshold.

Jokers. A joker on the table stands for the tiles it can represent in its set's readings that best
fit the written order (``engine.sets``): K9 in ``K7 K8 J``, B5 or O5 in the group of three
``K5 R5 J``, only O5 in the group of four ``K5 R5 B5 J``. It *stays* if after the turn a joker sits
in a set that still holds at least one of its neighbours (the other tiles of a group; the tiles
next to it in a run) and can still stand for a tile it stood for (so tiles may be moved around
it: runs extended or split, and ``K5 R5 J`` + B5 keeps the joker as O5). Otherwise it was
*taken*: the tile it stood for must now be in a set with at least one of those neighbours, in its
place, and the joker must be played again in a set
that holds at least one tile from the rack. Jokers are interchangeable, so the engine picks the
matching of jokers before and after that breaks the fewest rules. Jokers in sets that were
already invalid before the turn are not checked. A set holds "a tile from the rack" when it holds
a face of which there are more copies on the table after than before (copies of one face can't be
told apart).

Empty sets in either table are ignored. ``placed`` lists the rack tiles that went to the table
(in table order); ``rack_after`` is the rack without them (in rack order).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain
from typing import Iterator, Sequence

from engine.initial import check_initial_meld
from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set, interpretations
from engine.supply import check_supply
from engine.tiles import COLOURS, JOKER, JOKERS_IN_SET, Tile, format_tiles

__all__ = ["TurnCheck", "Violation", "validate_turn", "CODES"]

INVALID_SET = "invalid_set"
NO_TILE_PLAYED = "no_tile_played"
TABLE_TILE_TAKEN = "table_tile_taken"
NOT_FROM_RACK = "not_from_rack"
INITIAL_MELD_TOO_LOW = "initial_meld_too_low"
INITIAL_MELD_TOUCHED_TABLE = "initial_meld_touched_table"
INITIAL_MELD_ADDED_TO_TABLE = "initial_meld_added_to_table"
JOKER_NOT_REPLACED = "joker_not_replaced"
JOKER_NOT_REUSED = "joker_not_reused"
OVER_SUPPLY = "over_supply"

CODES: tuple[str, ...] = (
    INVALID_SET,
    NO_TILE_PLAYED,
    TABLE_TILE_TAKEN,
    NOT_FROM_RACK,
    INITIAL_MELD_TOO_LOW,
    INITIAL_MELD_TOUCHED_TABLE,
    INITIAL_MELD_ADDED_TO_TABLE,
    JOKER_NOT_REPLACED,
    JOKER_NOT_REUSED,
    OVER_SUPPLY,
)

# More jokers than this on the table is an over-supply anyway; the joker matching is skipped.
_MAX_TRACKED_JOKERS = 2 * JOKERS_IN_SET


@dataclass(frozen=True)
class Violation:
    """One broken rule: a stable ``code`` (see the module docstring) and a message for people."""

    code: str
    message: str


@dataclass(frozen=True)
class TurnCheck:
    ok: bool
    violations: tuple[Violation, ...]
    placed: tuple[Tile, ...]
    rack_after: tuple[Tile, ...]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(v.code for v in self.violations)


def _order(tile: Tile) -> tuple[int, int, int]:
    """Sort key: by colour K R B O, then number; jokers last (Tile's own order fails on jokers)."""
    if tile.is_joker:
        return (1, 0, 0)
    return (0, COLOURS.index(tile.colour), tile.number)


def _list(tiles: Counter[Tile] | Sequence[Tile]) -> str:
    items = sorted(tiles.elements(), key=_order) if isinstance(tiles, Counter) else list(tiles)
    return ", ".join(t.code for t in items)


def _set(tiles: Sequence[Tile]) -> str:
    return format_tiles(tiles)


# --------------------------------------------------------------------------- opening turn


def _opening_violations(
    before_sets: list[tuple[Tile, ...]],
    after_sets: list[tuple[Tile, ...]],
    rules: HouseRules,
) -> list[Violation]:
    after_counts = [Counter(s) for s in after_sets]
    free = list(range(len(after_sets)))
    changed: list[tuple[Tile, ...]] = []
    for b in before_sets:  # sets left exactly as they were
        cb = Counter(b)
        j = next((j for j in free if after_counts[j] == cb), None)
        if j is None:
            changed.append(b)
        else:
            free.remove(j)
    out: list[Violation] = []
    for b in changed:  # sets that were extended, or broken up
        cb = Counter(b)
        grown = [j for j in free if not cb - after_counts[j]]
        if not grown:
            out.append(
                Violation(
                    INITIAL_MELD_TOUCHED_TABLE,
                    f"the set {_set(b)} was broken up or rearranged: before your initial meld "
                    "you may not touch the sets on the table",
                )
            )
            continue
        j = min(grown, key=lambda k: len(after_sets[k]))
        free.remove(j)
        if not rules.opening_additions:
            extra = after_counts[j] - cb
            out.append(
                Violation(
                    INITIAL_MELD_ADDED_TO_TABLE,
                    f"{_list(extra)} added to the set {_set(b)} (now {_set(after_sets[j])}): before "
                    "your initial meld you may only put down new sets (house rule opening_additions is off)",
                )
            )
    new_sets = [after_sets[j] for j in free]
    meld = check_initial_meld(new_sets, rules)
    if meld.total < meld.threshold:
        parts = ", ".join(f"{_set(c.tiles)} = {c.value}" for c in meld.sets)
        worth = f"the new sets are worth {meld.total} points ({parts})" if new_sets else "there are no new sets"
        out.append(
            Violation(INITIAL_MELD_TOO_LOW, f"{worth}; the initial meld needs at least {meld.threshold}")
        )
    return out


# --------------------------------------------------------------------------- jokers


@dataclass(frozen=True)
class _TableJoker:
    """A joker on the table before the turn: its set and what it may stand for, with neighbours."""

    set_tiles: tuple[Tile, ...]
    options: tuple[tuple[Tile, Counter[Tile]], ...]  # (tile it stands for, neighbours that anchor it)

    def meanings(self) -> list[str]:
        return list(dict.fromkeys(x.code for x, _ in self.options))


def _table_jokers(before_sets: list[tuple[Tile, ...]], rules: HouseRules) -> list[_TableJoker]:
    found: list[_TableJoker] = []
    for s in before_sets:
        if JOKER not in s:
            continue
        readings = interpretations(s, rules)
        if not readings:
            continue
        best = [r for r in readings if r.inversions == readings[0].inversions]
        faces = Counter(t for t in s if not t.is_joker)
        for pos in (i for i, t in enumerate(s) if t.is_joker):
            options: list[tuple[Tile, Counter[Tile]]] = []
            for r in best:
                stands = dict(r.joker_tiles)
                x = stands[pos]
                if r.kind == "group":
                    anchors = faces
                else:
                    k = r.resolved.index(x)
                    jokers_as = set(stands.values())
                    near = [r.resolved[i] for i in (k - 1, k + 1) if 0 <= i < len(r.resolved)]
                    anchors = Counter(t for t in near if t not in jokers_as) or faces
                options.append((x, anchors))
            found.append(_TableJoker(s, tuple(options)))
    return found


def _joker_meanings(tiles: tuple[Tile, ...], rules: HouseRules) -> set[Tile] | None:
    """Every tile a joker in this set can stand for; None if the set is invalid (unknown)."""
    readings = interpretations(tiles, rules)
    if not readings:
        return None
    return {x for r in readings for _, x in r.joker_tiles}


def _assignments(n: int, slots: list[int]) -> Iterator[tuple[int | None, ...]]:
    """Every way to give each of ``n`` table jokers one distinct slot, or none (taken)."""
    if n == 0:
        yield ()
        return
    for rest in _assignments(n - 1, slots):
        yield rest + (None,)
        for s in slots:
            if s not in rest:
                yield rest + (s,)


def _joker_violations(
    before_sets: list[tuple[Tile, ...]],
    after_sets: list[tuple[Tile, ...]],
    before: Counter[Tile],
    after: Counter[Tile],
    rules: HouseRules,
) -> list[Violation]:
    table_jokers = _table_jokers(before_sets, rules)
    if not table_jokers or after[JOKER] > _MAX_TRACKED_JOKERS or len(table_jokers) > _MAX_TRACKED_JOKERS:
        return []
    grew = {t for t in after if not t.is_joker and after[t] > before[t]}
    rack_jokers = after[JOKER] > before[JOKER]
    # one slot per joker on the table after, with its set's index
    slot_set = [j for j, s in enumerate(after_sets) for t in s if t.is_joker]
    meanings = [_joker_meanings(s, rules) for s in after_sets]
    faces = [Counter(t for t in s if not t.is_joker) for s in after_sets]
    with_rack_tile = [
        bool(grew & set(s)) or (rack_jokers and s.count(JOKER) > 1) for s in after_sets
    ]

    def stays(tj: _TableJoker, slot: int) -> bool:
        j = slot_set[slot]
        return any(
            (meanings[j] is None or x in meanings[j]) and bool(anchors & faces[j]) for x, anchors in tj.options
        )

    def replaced(tj: _TableJoker) -> bool:
        return any(
            x in faces[j] and bool(anchors & faces[j]) for x, anchors in tj.options for j in range(len(after_sets))
        )

    def judge(assignment: tuple[int | None, ...]) -> list[Violation]:
        out: list[Violation] = []
        taken = [tj for tj, slot in zip(table_jokers, assignment) if slot is None]
        for tj in taken:
            if not replaced(tj):
                stood = " or ".join(tj.meanings())
                out.append(
                    Violation(
                        JOKER_NOT_REPLACED,
                        f"the joker in {_set(tj.set_tiles)} stood for {stood}; it was taken without "
                        f"putting {stood} in its place",
                    )
                )
        used = set(assignment)
        free_ok = sum(1 for slot in range(len(slot_set)) if slot not in used and with_rack_tile[slot_set[slot]])
        on_table = len(taken) - max(0, before[JOKER] - after[JOKER])  # gone jokers: table_tile_taken
        if free_ok < on_table:
            sets = "; ".join(_set(tj.set_tiles) for tj in taken)
            out.append(
                Violation(
                    JOKER_NOT_REUSED,
                    f"a joker taken from {sets} must be played again this turn in a set with at least "
                    "one tile from your rack",
                )
            )
        return out

    best: list[Violation] | None = None
    for assignment in _assignments(len(table_jokers), list(range(len(slot_set)))):
        if any(slot is not None and not stays(tj, slot) for tj, slot in zip(table_jokers, assignment)):
            continue
        verdict = judge(assignment)
        if best is None or len(verdict) < len(best):
            best = verdict
    assert best is not None  # the all-taken assignment is always allowed
    return best


# --------------------------------------------------------------------------- the turn


def validate_turn(
    table_before: Sequence[Sequence[Tile]],
    rack_before: Sequence[Tile],
    table_after: Sequence[Sequence[Tile]],
    rules: HouseRules = DEFAULT_RULES,
    opened: bool = True,
) -> TurnCheck:
    """Check one turn against the rules; ``opened`` is False for a player's initial meld."""
    before_sets = [tuple(s) for s in table_before if len(s)]
    after_sets = [tuple(s) for s in table_after if len(s)]
    before = Counter(chain.from_iterable(before_sets))
    after = Counter(chain.from_iterable(after_sets))
    rack = Counter(rack_before)
    added = after - before
    from_rack = added & rack
    not_from_rack = added - rack
    taken = before - after

    placed: list[Tile] = []
    left = Counter(from_rack)
    for t in chain.from_iterable(after_sets):
        if left[t] > 0:
            left[t] -= 1
            placed.append(t)
    rack_after: list[Tile] = []
    left = Counter(from_rack)
    for t in rack_before:
        if left[t] > 0:
            left[t] -= 1
        else:
            rack_after.append(t)

    violations: list[Violation] = []
    for k, s in enumerate(after_sets, start=1):
        check = analyse_set(s, rules)
        if not check.valid:
            violations.append(Violation(INVALID_SET, f"set {k} ({_set(s)}) is not valid: {check.reason}"))
    if not from_rack:
        violations.append(
            Violation(NO_TILE_PLAYED, "no tile came from the rack: a turn must play at least one tile (or draw)")
        )
    if taken:
        violations.append(
            Violation(
                TABLE_TILE_TAKEN,
                f"{_list(taken)} left the table: tiles on the table may be moved but never taken back",
            )
        )
    if not_from_rack:
        violations.append(
            Violation(
                NOT_FROM_RACK,
                f"{_list(not_from_rack)} appeared on the table but was neither on the table before nor on the rack",
            )
        )
    if not opened and from_rack:
        violations.extend(_opening_violations(before_sets, after_sets, rules))
    violations.extend(_joker_violations(before_sets, after_sets, before, after, rules))
    supply = list(dict.fromkeys(check_supply(before_sets, rack_before) + check_supply(after_sets, rack_after)))
    violations.extend(Violation(OVER_SUPPLY, m) for m in supply)
    return TurnCheck(
        ok=not violations, violations=tuple(violations), placed=tuple(placed), rack_after=tuple(rack_after)
    )
