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
                                 in its place from the rack
``joker_not_reused``             a taken joker was not played again in a new set with a tile from
                                 the rack (house rule ``joker_reuse``)
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
place, and come from the player's rack (the rulebook: you free a joker by putting in its place the
tile it stands for *from your rack*; copies of one face can't be told apart, so each taken joker
needs its own copy of its tile among the tiles played from the rack - two jokers that stood for
B3 need two B3 from the rack). The joker must then be played again this turn: with the default
``joker_reuse="new_meld_with_rack"`` (the rulebook) in a *new* set that holds at least one tile
from the rack - not in a set that continues one of the table before (one that holds every face of
a table set, so ``K3 K4 K5`` grown into ``K3 K4 K5 J K7`` is not new, nor ``B9 B10 J B12`` with
the joker moved to its end); with ``joker_reuse="anywhere"`` (the encyclopedia text) anywhere on
the table. Jokers are interchangeable, so the engine picks the matching of jokers before and after
that breaks the fewest rules. Jokers in sets that were already invalid before the turn are not
checked. A set holds "a tile from the rack" when it holds a face of which there are more copies
on the table after than before, or a joker when the rack's joker was played.

Rummikub Twist special jokers (``rules.twist``) are freed by rearranging their set (the Twist
sheet: a Double Joker "by putting in both tiles it stands for or by rearranging the set"; the
Mirror and Colour-change jokers have no tile that could take their place), so they follow the
rules of any table tile: they stay on the table, in valid sets.

Empty sets in either table are ignored. ``placed`` lists the rack tiles that went to the table
(in table order); ``rack_after`` is the rack without them (in rack order).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, product
from typing import Iterator, Sequence

from engine.initial import check_initial_meld, invalid_set
from engine.reasons import Reason, render
from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set, interpretations
from engine.tiles import COLOURS, JOKER, JOKERS_IN_SET, Tile, format_tiles, over_supply_counted

__all__ = ["TurnCheck", "Violation", "table_jokers", "validate_turn", "CODES", "TableJoker", "holds_faces"]

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
    """One broken rule: a stable ``code`` (see the module docstring), a message for people and
    ``why``, the message as a ``Reason`` (``engine.reasons``: its code is ``code``, and
    ``message == render(why)``)."""

    code: str
    message: str
    why: Reason | None = None


def _violation(why: Reason) -> Violation:
    return Violation(why.code, render(why), why)


@dataclass(frozen=True)
class TurnCheck:
    """ok, violations, placed (rack tiles played, in table order), rack_after, placed_value (what
    the placed tiles are worth by the rules: face values, a joker the tile it stands for in its
    set's chosen reading - the jokers in ``placed`` are the first jokers in table order that are
    new on the table; 0 for a joker in an invalid set)."""

    ok: bool
    violations: tuple[Violation, ...]
    placed: tuple[Tile, ...]
    rack_after: tuple[Tile, ...]
    placed_value: int = 0

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(v.code for v in self.violations)


def _order(tile: Tile) -> tuple[int, int, int]:
    """Sort key: by colour K R B O, then number; jokers last (Tile's own order fails on jokers)."""
    if tile.colour is None:  # the joker, then the Twist jokers
        return (1, tile.sort_key[1], 0)
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
            out.append(_violation(Reason(INITIAL_MELD_TOUCHED_TABLE, {"set": _set(b)})))
            continue
        j = min(grown, key=lambda k: len(after_sets[k]))
        free.remove(j)
        if not rules.opening_additions:
            extra = after_counts[j] - cb
            out.append(
                _violation(
                    Reason(INITIAL_MELD_ADDED_TO_TABLE, {"tiles": _list(extra), "set": _set(b), "now": _set(after_sets[j])})
                )
            )
    new_sets = [after_sets[j] for j in free]
    meld = check_initial_meld(new_sets, rules)
    if meld.total < meld.threshold:
        parts = ", ".join(f"{_set(c.tiles)} = {c.meld_value}" for c in meld.sets) if new_sets else ""
        out.append(
            _violation(Reason(INITIAL_MELD_TOO_LOW, {"total": meld.total, "threshold": meld.threshold, "sets": parts}))
        )
    return out


# --------------------------------------------------------------------------- jokers


@dataclass(frozen=True)
class TableJoker:
    """A joker on the table before the turn: its set and what it may stand for, with neighbours."""

    set_tiles: tuple[Tile, ...]
    options: tuple[tuple[Tile, Counter[Tile]], ...]  # (tile it stands for, neighbours that anchor it)

    def meanings(self) -> list[str]:
        return list(dict.fromkeys(x.code for x, _ in self.options))


def table_jokers(before_sets: list[tuple[Tile, ...]], rules: HouseRules) -> list[TableJoker]:
    """Each joker of the (valid) sets before the turn, with what it stood for and its neighbours."""
    found: list[TableJoker] = []
    for s in before_sets:
        if JOKER in s:
            found += _set_jokers(tuple(s), rules)
    return found


@lru_cache(maxsize=1 << 12)
def _set_jokers(s: tuple[Tile, ...], rules: HouseRules) -> tuple[TableJoker, ...]:
    """``table_jokers`` of one set (memoised: a turn is checked against the same table sets
    again and again; the result is shared, so read-only)."""
    found: list[TableJoker] = []
    readings = interpretations(s, rules)
    if readings:
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
                    jokers_as = {t for _, t in r.joker_tiles}  # (a Twist double stands for two)
                    near = [r.resolved[i] for i in (k - 1, k + 1) if 0 <= i < len(r.resolved)]
                    anchors = Counter(t for t in near if t not in jokers_as) or faces
                options.append((x, anchors))
            found.append(TableJoker(s, tuple(options)))
    return tuple(found)


def _joker_meanings(tiles: tuple[Tile, ...], rules: HouseRules) -> set[Tile] | None:
    """Every tile a (regular) joker in this set can stand for; None if the set is invalid
    (unknown). What a Twist special joker stands for does not count: it never takes the place
    of a regular joker."""
    readings = interpretations(tiles, rules)
    if not readings:
        return None
    return {x for r in readings for i, x in r.joker_tiles if tiles[i].is_joker}


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


def holds_faces(have: Counter[Tile], faces: Counter[Tile]) -> bool:
    """Whether ``have`` holds every one of ``faces`` (each as often), and ``faces`` is not empty: a
    set that does continues the table set those are the faces of."""
    return bool(faces) and all(have.get(t, 0) >= n for t, n in faces.items())


def _old_sets(
    before_sets: list[tuple[Tile, ...]], after_sets: list[tuple[Tile, ...]], faces_after: list[Counter[Tile]]
) -> set[int]:
    """The sets after the turn that continue a set of the table before: each holds every face of
    one (kept, grown, or with its joker swapped). Copies of a face can't be told apart, so when
    several sets hold a table set's faces the smallest of them is its continuation.
    ``faces_after``: the faces of each set after (jokers left out)."""
    holding: dict[Tile, set[int]] = {}  # face -> the sets after that hold it
    for j, have in enumerate(faces_after):
        for t in have:
            holding.setdefault(t, set()).add(j)
    old: set[int] = set()
    for b in before_sets:
        faces = Counter(t for t in b if not t.is_joker)
        if not faces:
            continue
        # only the sets that hold each face at all can hold them all (then counted, with copies)
        candidates = set.intersection(*(holding.get(t, set()) for t in faces))
        holders = [j for j in candidates if holds_faces(faces_after[j], faces)]
        if holders:
            old.add(min(holders, key=lambda j: (len(after_sets[j]), j)))
    return old


def _unfreed(
    taken: list[TableJoker],
    faces: list[Counter[Tile]],
    from_rack: Counter[Tile],
) -> list[tuple[TableJoker, bool]]:
    """The taken jokers whose tile was not put in their place from the rack, with whether that
    tile is there at all (False: missing; True: only copies from the table). Each joker needs its
    own copy from the rack; the reading of each joker that frees the most of them is used."""
    best: list[tuple[TableJoker, bool]] | None = None
    for choice in product(*(tj.options for tj in taken)):
        failed: list[tuple[TableJoker, bool]] = []
        used: Counter[Tile] = Counter()
        for tj, (x, anchors) in zip(taken, choice):
            if not any(x in have and anchors & have for have in faces):
                failed.append((tj, False))
            elif used[x] >= from_rack[x]:
                failed.append((tj, True))
            else:
                used[x] += 1
        if best is None or len(failed) < len(best):
            best = failed
    return best or []


def _joker_violations(
    before_sets: list[tuple[Tile, ...]],
    after_sets: list[tuple[Tile, ...]],
    before: Counter[Tile],
    after: Counter[Tile],
    from_rack: Counter[Tile],
    rules: HouseRules,
) -> list[Violation]:
    held = table_jokers(before_sets, rules)
    if not held or after[JOKER] > _MAX_TRACKED_JOKERS or len(held) > _MAX_TRACKED_JOKERS:
        return []
    grew = {t for t, n in after.items() if not t.is_joker and n > before.get(t, 0)}
    rack_jokers = after[JOKER] > before[JOKER]
    # one slot per joker on the table after, with its set's index
    slot_set = [j for j, s in enumerate(after_sets) for t in s if t.is_joker]
    # (what the jokers may stand for matters only in the sets that hold one)
    meanings = {j: _joker_meanings(after_sets[j], rules) for j in dict.fromkeys(slot_set)}
    faces = [Counter(t for t in s if not t.is_joker) for s in after_sets]
    old = _old_sets(before_sets, after_sets, faces)
    anywhere = rules.joker_reuse == "anywhere"
    reusable = [
        anywhere or (j not in old and (bool(grew & set(s)) or (rack_jokers and s.count(JOKER) > 1)))
        for j, s in enumerate(after_sets)
    ]

    def stays(tj: TableJoker, slot: int) -> bool:
        j = slot_set[slot]
        return any(
            (meanings[j] is None or x in meanings[j]) and bool(anchors & faces[j]) for x, anchors in tj.options
        )

    def judge(assignment: tuple[int | None, ...]) -> list[Violation]:
        out: list[Violation] = []
        taken = [tj for tj, slot in zip(held, assignment) if slot is None]
        for tj, on_table in _unfreed(taken, faces, from_rack):
            stood = " or ".join(tj.meanings())
            why = Reason(JOKER_NOT_REPLACED, {"set": _set(tj.set_tiles), "stood": stood, "moved": int(on_table)})
            out.append(_violation(why))
        used = set(assignment)
        free_ok = sum(1 for slot in range(len(slot_set)) if slot not in used and reusable[slot_set[slot]])
        on_table = len(taken) - max(0, before[JOKER] - after[JOKER])  # gone jokers: table_tile_taken
        if free_ok < on_table:
            sets = "; ".join(_set(tj.set_tiles) for tj in taken)
            out.append(_violation(Reason(JOKER_NOT_REUSED, {"sets": sets})))
        return out

    best: list[Violation] | None = None
    for assignment in _assignments(len(held), list(range(len(slot_set)))):
        if any(slot is not None and not stays(tj, slot) for tj, slot in zip(held, assignment)):
            continue
        verdict = judge(assignment)
        if best is None or len(verdict) < len(best):
            best = verdict
            if not best:  # none broken: no later matching does better
                break
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
    # multiset differences as Counter's operators make them (same order), without a Python call
    # for every tile one side lacks
    added = Counter({t: n - before.get(t, 0) for t, n in after.items() if n > before.get(t, 0)})
    from_rack = Counter({t: min(n, rack.get(t, 0)) for t, n in added.items() if rack.get(t, 0) > 0})
    not_from_rack = Counter({t: n - rack.get(t, 0) for t, n in added.items() if n > rack.get(t, 0)})
    taken = Counter({t: n - after.get(t, 0) for t, n in before.items() if n > after.get(t, 0)})

    placed: list[Tile] = []
    placed_value = 0
    left = dict(from_rack)  # (a plain dict: a Counter's missing key costs a Python call)
    checks = [analyse_set(s, rules) for s in after_sets]
    for s, check in zip(after_sets, checks):
        stands = check.stands
        for i, t in enumerate(s):
            if left.get(t, 0) > 0:
                left[t] -= 1
                placed.append(t)
                # a joker counts what it stands for (a Twist double joker both its numbers)
                placed_value += sum(x.value for x in stands[i][0]) if i in stands else t.value
    rack_after: list[Tile] = []
    left = dict(from_rack)
    for t in rack_before:
        if left.get(t, 0) > 0:
            left[t] -= 1
        else:
            rack_after.append(t)

    violations: list[Violation] = []
    for k, check in enumerate(checks, start=1):
        if not check.valid:
            violations.append(_violation(invalid_set(k, check)))
    if not from_rack:
        violations.append(_violation(Reason(NO_TILE_PLAYED)))
    if taken:
        violations.append(_violation(Reason(TABLE_TILE_TAKEN, {"tiles": _list(taken)})))
    if not_from_rack:
        violations.append(_violation(Reason(NOT_FROM_RACK, {"tiles": _list(not_from_rack)})))
    if not opened and from_rack:
        violations.extend(_opening_violations(before_sets, after_sets, rules))
    if before[JOKER]:  # (only jokers in the sets before are checked)
        violations.extend(_joker_violations(before_sets, after_sets, before, after, from_rack, rules))
    over_before = over_supply_counted(Counter(chain(chain.from_iterable(before_sets), rack_before)))
    if taken or not_from_rack:
        over_after = over_supply_counted(Counter(chain(chain.from_iterable(after_sets), rack_after)))
    else:  # tiles only went from the rack to the table: the same tiles as before
        over_after = over_before
    supply = list(dict.fromkeys(over_before + over_after))
    violations.extend(_violation(Reason(OVER_SUPPLY, parts=(r,))) for r in supply)
    return TurnCheck(
        ok=not violations,
        violations=tuple(violations),
        placed=tuple(placed),
        rack_after=tuple(rack_after),
        placed_value=placed_value,
    )
