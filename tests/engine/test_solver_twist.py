"""The hint solver with Rummikub Twist special jokers (JD, JM, JC; ``rules.twist``).

* An exhaustive search on small positions (table <= 7 tiles, rack <= 4, a special joker on the
  table or the rack in every position): every sub-multiset of the rack, most tiles then most
  rack points first, and every split of the placed tiles plus the table's into sets that
  ``engine.sets.analyse_set`` accepts, written in each reading's play order, judged by
  ``validate_turn``. The solver must reach the same objective (tiles placed, then rack points
  shed), and every set it proposes must pass ``analyse_set``.
* Properties (hypothesis): a rack holding a valid special set places at least that set.
* The Twist sheet's examples as hints.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import combinations, product
from typing import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.initial import check_initial_meld
from engine.reasons import RuleError
from engine.rules import DEFAULT_RULES, HouseRules
from engine.scoring import rack_value
from engine.sets import analyse_set, interpretations
from engine.solver import best_play
from engine.solver.catalogue import catalogue
from engine.solver.twist import twist_shapes
from engine.tiles import (
    ALL_FACES,
    COLOUR_JOKER,
    COLOURS,
    DOUBLE_JOKER,
    JOKER,
    MIRROR_JOKER,
    SPECIAL_JOKERS,
    Tile,
    format_melds,
    format_tiles,
    parse_melds,
    parse_tiles,
)
from engine.turns import validate_turn

Melds = list[list[Tile]]
TWIST = HouseRules(twist=True)


def _key(t: Tile) -> tuple:
    return (1, t.sort_key[1], 0) if t.colour is None else (0, t.colour, t.number)


# --------------------------------------------------------------------------- exhaustive search


@lru_cache(maxsize=None)
def _partitions(tiles: tuple[Tile, ...], rules: HouseRules) -> tuple[tuple[tuple[Tile, ...], ...], ...]:
    """Every split of ``tiles`` (sorted, jokers last) into sets ``analyse_set`` accepts."""
    if not tiles:
        return ((),)
    first, rest = tiles[0], tiles[1:]
    if first.colour is None:  # only jokers left: a set needs a numbered tile
        return ()
    out: set[tuple[tuple[Tile, ...], ...]] = set()
    for size in range(2, len(rest) + 1):
        for pick in combinations(range(len(rest)), size):
            chosen = (first,) + tuple(rest[i] for i in pick)
            if not analyse_set(chosen, rules).valid:
                continue
            left = tuple(t for i, t in enumerate(rest) if i not in pick)
            for tail in _partitions(left, rules):
                out.add(tuple(sorted((chosen,) + tail, key=lambda s: [_key(t) for t in s])))
    return tuple(out)


def _orders(s: tuple[Tile, ...], rules: HouseRules) -> list[tuple[Tile, ...]]:
    """The set written in the play order of each of its readings (every joker at its place: a
    double at the first of its two numbers, a mirror as side, JM, mirrored side)."""
    out: list[tuple[Tile, ...]] = []
    for r in interpretations(s, rules):
        if r.kind == "mirror":
            half = len(r.resolved) // 2
            have = Counter(t for t in s if t.colour is not None)
            placed = []
            for t in r.resolved:
                placed.append(t if have[t] > 0 else JOKER)
                have[t] -= 1
            order = tuple(placed[:half]) + (MIRROR_JOKER,) + tuple(placed[half:])
        elif r.kind == "group":
            order = s
        else:
            first: dict[int, Tile] = {}
            for i, t in r.joker_tiles:
                first.setdefault(i, t)
            slot = {t: k for k, t in enumerate(r.resolved)}
            order = tuple(s[i] for i in sorted(range(len(s)), key=lambda i: slot[first.get(i, s[i])]))
        if order not in out:
            out.append(order)
    return out


def _sub_multisets(rack: list[Tile], rules: HouseRules) -> Iterator[tuple[Tile, ...]]:
    """Distinct sub-multisets of the rack: most tiles first, then most rack points."""
    seen: set[tuple[Tile, ...]] = set()
    subs = []
    for size in range(len(rack), 0, -1):
        for pick in combinations(range(len(rack)), size):
            sub = tuple(sorted((rack[i] for i in pick), key=_key))
            if sub not in seen:
                seen.add(sub)
                subs.append(sub)
    yield from sorted(subs, key=lambda sub: (-len(sub), -rack_value(sub, rules)))


def reference(table: Melds, rack: list[Tile], rules: HouseRules, opened: bool) -> tuple[int, int]:
    """The best (tiles placed, rack points shed) a legal turn reaches ((0, 0): draw)."""
    table_tiles = [t for s in table for t in s]
    for sub in _sub_multisets(rack, rules):
        if opened:
            pool = tuple(sorted(table_tiles + list(sub), key=_key))
            for split in _partitions(pool, rules):
                for written in product(*(_orders(s, rules) for s in split)):
                    if validate_turn(table, rack, [list(s) for s in written], rules, True).ok:
                        return len(sub), rack_value(sub, rules)
        else:  # new sets from the rack only, worth the threshold
            for split in _partitions(sub, rules):
                best = sum(max(check_initial_meld([o], rules).total for o in _orders(s, rules)) for s in split)
                if best >= rules.initial_meld:
                    return len(sub), rack_value(sub, rules)
    return 0, 0


# --------------------------------------------------------------------------- random positions


def _special_set(rng: random.Random, special: Tile) -> list[Tile]:
    """A random valid set with ``special`` (a few shapes of each kind)."""
    while True:
        colour = rng.choice(COLOURS)
        if special == DOUBLE_JOKER:
            if rng.random() < 0.7:
                start = rng.randint(1, 10)
                at = rng.randint(0, 2)
                run = [Tile(colour, start + k) for k in range(4)]
                s = run[:at] + [DOUBLE_JOKER] + run[at + 2 :]
            else:
                number = rng.randint(1, 13)
                s = [Tile(c, number) for c in rng.sample(COLOURS, 2)] + [DOUBLE_JOKER]
        elif special == MIRROR_JOKER:
            start = rng.randint(1, 12)
            side = [Tile(colour, start + k) for k in range(rng.randint(1, 2))]
            if rng.random() < 0.3:
                number = rng.randint(1, 13)
                side = [Tile(c, number) for c in rng.sample(COLOURS, 2)]
            s = side + [MIRROR_JOKER] + side[::-1]
        else:
            other = rng.choice([c for c in COLOURS if c != colour])
            before, after = rng.randint(1, 2), rng.randint(1, 2)
            start = rng.randint(1, 13 - before - after)
            s = [Tile(colour, start + k) for k in range(before)] + [COLOUR_JOKER]
            s += [Tile(other, start + before + 1 + k) for k in range(after)]
        if analyse_set(s, TWIST).valid:
            return s


def _take(pool: Counter, tiles: list[Tile]) -> bool:
    need = Counter(tiles)
    if any(pool[t] < k for t, k in need.items()):
        return False
    pool.subtract(need)
    return True


def twist_position(rng: random.Random, jokers: bool = False) -> tuple[Melds, list[Tile]]:
    """1-2 sets (<= 7 tiles, a special joker in one of them half the time) and a rack of 2-4
    tiles near them, with a special joker on the rack when the table has none; ``jokers``: both
    regular jokers in play (on the rack, or one in the table's special set)."""
    pool: Counter[Tile] = Counter({t: 2 for t in ALL_FACES})
    pool[JOKER] = 2
    for sp in SPECIAL_JOKERS:
        pool[sp] = 1
    table: Melds = []
    specials = list(SPECIAL_JOKERS)
    rng.shuffle(specials)
    if rng.random() < 0.5:
        s = _special_set(rng, specials.pop())
        if rng.random() < (0.5 if jokers else 0.2):  # a regular joker in it, where the set stays valid
            i = rng.randrange(len(s))
            if not s[i].is_special and analyse_set(s[:i] + [JOKER] + s[i + 1 :], TWIST).valid:
                s[i] = JOKER
        _take(pool, s)
        table.append(s)
    if rng.random() < 0.6:
        colour, number = rng.choice(COLOURS), rng.randint(1, 11)
        s = [Tile(colour, number + k) for k in range(3)] if rng.random() < 0.5 else [
            Tile(c, number) for c in rng.sample(COLOURS, 3)
        ]
        if sum(map(len, table)) + len(s) <= 7 and _take(pool, s):
            table.append(s)
    near = [
        t for t in pool.elements()
        if t.colour is not None
        and any(u.colour is not None and (u.colour == t.colour and abs(u.number - t.number) <= 3 or u.number == t.number)
                for s in table for u in s)
    ]
    rack: list[Tile] = []
    if not any(t.is_special for s in table for t in s) or rng.random() < 0.4:
        sp = specials.pop()
        _take(pool, [sp])
        rack.append(sp)
    while len(rack) < rng.randint(2, 4):
        source = near if near and rng.random() < 0.75 else [t for t in pool.elements() if t.colour is not None]
        t = rng.choice(source)
        if _take(pool, [t]):
            rack.append(t)
    if rng.random() < 0.2 and _take(pool, [JOKER]):
        rack.append(JOKER)
    while jokers and _take(pool, [JOKER]):
        rack.append(JOKER)
    return table, rack


def _check(table: Melds, rack: list[Tile], rules: HouseRules, opened: bool) -> None:
    want = reference(table, rack, rules, opened)
    hint = best_play(table, rack, rules, opened=opened)
    where = f"table {format_melds(table)!r}, rack {format_tiles(rack)!r}, opened={opened}"
    assert hint.optimal and hint.cuts == 0, where
    got = (hint.tiles_placed, hint.rack_points_shed)
    assert got == want, f"{where}: solver {got}, exhaustive search {want}"
    for s in hint.table:  # every set the solver proposes is valid by engine.sets
        assert analyse_set(s, rules).valid, f"{where}: {format_tiles(s)}"
    if want[0]:
        assert validate_turn(table, rack, hint.table, rules, opened).ok, where
    else:
        assert hint.draw, where


@pytest.mark.parametrize("seed", range(10))
def test_twist_agrees_with_exhaustive_search(seed: int) -> None:
    rng = random.Random(500 + seed)
    for _ in range(15):
        table, rack = twist_position(rng)
        _check(table, rack, TWIST, opened=True)


@pytest.mark.parametrize("seed", range(3))
def test_twist_agrees_with_exhaustive_search_with_both_jokers_in_play(seed: int) -> None:
    rng = random.Random(800 + seed)
    for _ in range(12):
        table, rack = twist_position(rng, jokers=True)
        _check(table, rack, TWIST, opened=True)


@pytest.mark.parametrize("seed", range(2))
def test_twist_agrees_with_exhaustive_search_with_wrap_around(seed: int) -> None:
    rng = random.Random(600 + seed)
    rules = TWIST.with_(wrap_around=True)
    for _ in range(12):
        table, rack = twist_position(rng)
        _check(table, rack, rules, opened=True)


@pytest.mark.parametrize("threshold", [10, 30])
def test_twist_agrees_with_exhaustive_search_on_the_opening(threshold: int) -> None:
    rng = random.Random(700 + threshold)
    rules = TWIST.with_(initial_meld=threshold)
    for _ in range(15):
        table, rack = twist_position(rng)
        rack = (rack + [t for s in table for t in s])[:6]  # a rack that can hold sets
        _check([], rack, rules, opened=False)


def test_reference_itself_on_twist_positions() -> None:
    T = lambda text: parse_tiles(text, twist=True)  # noqa: E731
    M = lambda text: parse_melds(text, twist=True)  # noqa: E731
    assert reference([], T("R2 R5 JD"), TWIST, True) == (3, 37)
    assert reference([], T("J J JD"), TWIST, True) == (0, 0)  # a set needs a numbered tile
    assert reference(M("R5 R6 R7"), T("J J JD"), TWIST, True)[0] == 3
    assert reference(M("R2 JD R5 | K3 B3 O3"), T("R3 R4"), TWIST, True)[0] == 2
    assert reference([], T("K7 K7 JM"), TWIST.with_(initial_meld=15), False) == (0, 0)  # 14 points
    assert reference([], T("K7 K7 JM"), TWIST.with_(initial_meld=14), False) == (3, 44)


# --------------------------------------------------------------------------- properties


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    special=st.sampled_from(SPECIAL_JOKERS),
    extra=st.lists(st.sampled_from(ALL_FACES), max_size=4),
)
def test_a_rack_with_a_special_set_places_at_least_that_set(seed, special, extra):
    s = _special_set(random.Random(seed), special)
    rack = s + [t for t in extra if Counter(s + extra)[t] <= 2]
    hint = best_play([], rack, TWIST)
    assert hint.optimal and not hint.draw and hint.tiles_placed >= len(s)
    assert validate_turn([], rack, hint.table, TWIST, True).ok
    assert all(analyse_set(t, TWIST).valid for t in hint.table)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), special=st.sampled_from(SPECIAL_JOKERS))
def test_a_special_set_on_the_table_stays_valid_and_on_the_table(seed, special):
    rng = random.Random(seed)
    s = _special_set(rng, special)
    rack = list(dict.fromkeys(t for t in (rng.choice(ALL_FACES) for _ in range(3)) if s.count(t) == 0))
    hint = best_play([s], rack, TWIST)
    assert hint.optimal
    after = Counter(t for t in (x for set_ in hint.table for x in set_))
    assert after[special] == 1  # table tiles stay on the table
    assert all(analyse_set(t, TWIST).valid for t in hint.table)


# --------------------------------------------------------------------------- the columns


@pytest.mark.parametrize("wrap, min_faces", [(False, 3), (False, 1), (True, 3)])
def test_every_twist_column_is_a_valid_set(wrap, min_faces):
    rules = TWIST.with_(wrap_around=wrap)
    shapes = twist_shapes(rules, min_faces)
    sample = shapes if not wrap else shapes[::5]
    bad = [format_tiles(sh.tiles) for sh in sample if not analyse_set(sh.tiles, rules).valid]
    assert bad == []
    for sh in sample[::7]:  # the points are what the set counts toward the initial meld
        assert analyse_set(sh.tiles, rules).meld_value >= sh.points


def test_twist_columns_exist_only_under_twist():
    base = catalogue(DEFAULT_RULES)
    assert base.n_base == len(base) and base.specials is None
    twist = catalogue(TWIST)
    assert twist.n_base == len(base) and len(twist) > len(base)
    assert not any(t.is_special for s in base.sets for t in s.written)


# --------------------------------------------------------------------------- the sheet's examples


def _hint(table: str, rack: str, rules: HouseRules = TWIST, opened: bool = True):
    return best_play(parse_melds(table, twist=True), parse_tiles(rack, twist=True), rules, opened=opened)


def test_sheet_double_joker_in_a_run():
    h = _hint("", "R2 R5 JD B9 B10 B11", opened=False)  # 2 - Double - 5 = 14, B9-B11 = 30
    assert h.tiles_placed == 6 and h.meld_points == 44 and h.rack_left == ()
    assert sorted(map(format_tiles, h.table)) == ["B9 B10 B11", "R2 JD R5"]


def test_sheet_double_joker_in_a_group():
    h = _hint("", "B3 R3 JD K9")
    assert h.tiles_placed == 3 and [format_tiles(s) for s in h.table] == ["R3 B3 JD"]
    assert h.value_placed == 12  # the JD counts the other two 3s


def test_double_joker_freed_by_its_two_tiles_or_grown():
    h = _hint("R2 JD R5 | K3 B3 O3", "R3 R4")
    assert h.tiles_placed == 2 and validate_turn(*[parse_melds("R2 JD R5 | K3 B3 O3", twist=True)],
                                                 parse_tiles("R3 R4"), h.table, TWIST, True).ok
    h = _hint("R2 JD R5", "R6 K1")
    assert h.tiles_placed == 1 and h.sets_disturbed == 0 and h.moves == (
        "add R6 from your rack to R2 JD R5, making R2 JD R5 R6",
    )


def test_sheet_mirror_joker():
    h = _hint("", "K7 K8 K8 K7 JM R1")
    assert h.tiles_placed == 5 and [format_tiles(s) for s in h.table] == ["K7 K8 JM K8 K7"]
    h = _hint("K7 K8 JM K8 K7", "K6 K6 K9")  # a tile added on one side goes on the other too
    assert h.tiles_placed == 2 and h.sets_disturbed == 0
    assert [format_tiles(s) for s in h.table] == ["K6 K7 K8 JM K8 K7 K6"]
    # the mirror counts 0 toward the initial meld: 2 x 7 = 14
    assert _hint("", "K7 K7 JM", TWIST.with_(initial_meld=15), opened=False).draw
    assert _hint("", "K7 K7 JM", TWIST.with_(initial_meld=14), opened=False).meld_points == 14


def test_colour_change_joker():
    h = _hint("", "R6 R7 JC B9 B10")
    assert h.tiles_placed == 5 and [format_tiles(s) for s in h.table] == ["R6 R7 JC B9 B10"]
    assert h.value_placed == 40
    assert _hint("", "R6 R7 JC R9 R10").draw  # no change of colour: no set at all
    assert reference([], parse_tiles("R6 R7 JC R9 R10", twist=True), TWIST, True) == (0, 0)
    h = _hint("", "R6 R7 JC R9 R10 O9")  # the change of colour is to orange
    assert h.tiles_placed == 4 and [format_tiles(s) for s in h.table] == ["R6 R7 JC O9"]


def test_a_set_needs_a_numbered_tile():
    assert _hint("", "J J JD").draw
    h = _hint("R5 R6 R7", "J J JD")
    assert h.tiles_placed == 3 and h.cuts == 0
    assert all(analyse_set(s, TWIST).valid for s in h.table)


def test_special_jokers_need_the_twist_rule():
    with pytest.raises(RuleError) as exc:
        best_play([], [DOUBLE_JOKER, Tile("R", 2), Tile("R", 5)], DEFAULT_RULES)
    assert exc.value.reason.code == "twist_off"


@pytest.mark.parametrize(
    "table, rack",
    [
        ("O9 J JD | R8 R9 R10", "O8 R6 O12"),  # the JD must not take the regular joker's place
        ("J JD K13 | O6 K6 R6", "K12 R5 K3 K4 J"),  # a joker's neighbour may be the JD
        ("R3 J JD", "JC B3 K3"),  # J JC JD would hold no numbered tile
        ("R5 R6 R7", "J J JD"),  # J J JD + R5 R6 R7 is one run, not two sets
        ("J R11 JD | R8 R9 R10", "K8 R8 R9 R13 J"),  # the joker's neighbour R11 is covered by the JD
        ("JD J O10", "JM B10 O9 B10 J"),  # a kept set keeps its joker where it stood
        ("J JC K11 K12 | B1 K1 R1", "B11 O9 J"),  # a joker before the JC: any colour but black
    ],
)
def test_twist_positions_found_by_the_exhaustive_search(table, rack):
    _check(parse_melds(table, twist=True), parse_tiles(rack, twist=True), TWIST, opened=True)


def test_a_run_joins_a_colour_change_run_at_its_start() -> None:
    # the layout joins runs that meet end to end; a run whose colour changes at a JC is still a run
    from engine.solver.layout import LaidSet, join_runs

    sets = [LaidSet(parse_tiles("K1 K2 K3")), LaidSet(parse_tiles("K4 K5 JC R7 R8", twist=True))]
    assert [format_tiles(s.tiles) for s in join_runs(sets, TWIST)] == ["K1 K2 K3 K4 K5 JC R7 R8"]
