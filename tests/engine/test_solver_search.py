"""The solver's search: the quick branch and bound agrees with HiGHS's MIP solver, and the
shortcuts that keep the program small leave it the same problem."""

from __future__ import annotations

import random
from itertools import combinations

import numpy as np
import pytest

from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import analyse_set
from engine.solver import best_play
from engine.solver.catalogue import count_vector, exposed_jokers
from engine.solver.joker_rows import joker_freedom, table_held
from engine.solver.keep import _growths, _grown_exposed, play_order
from engine.solver.model import build_model
from engine.tiles import ALL_FACES, COLOURS, JOKER, Tile, parse_melds, parse_tiles

BIG_TABLE = (
    "B5 K5 R5 O5 | R13 B13 O13 K13 | K3 K4 K5 K6 | O10 O11 J | B8 O8 R8 K8 | B1 B2 B3 B4 | O3 O4 O5 | "
    "R1 R2 R3 R4 | B13 K13 O13 | R6 J R8 R9 R10 R11 | R2 R3 R4 R5 R6 R7 | O6 O7 O8 O9 O10 O11 | "
    "K12 O12 R12 B12 | B12 O12 K12 | B2 B3 B4 B5 B6 B7 | K7 B7 O7 R7 | R1 B1 K1 | B10 K10 R10 | "
    "R9 K9 B9 O9 | K6 K7 K8 K9 | K1 K2 K3 | R11 R12 R13"
)


def _position(rng: random.Random, table_tiles: int, rack_tiles: int) -> tuple[list[list[Tile]], list[Tile]]:
    """Random legal sets (now and then with a joker) dealt from a full set, and a rack of the rest."""
    pool = [t for t in ALL_FACES for _ in range(2)] + [JOKER, JOKER]
    rng.shuffle(pool)
    table: list[list[Tile]] = []
    while sum(map(len, table)) < table_tiles:
        if rng.random() < 0.5:
            colour, length = rng.choice(COLOURS), rng.randint(3, 5)
            start = rng.randint(1, 14 - length)
            tiles = [Tile(colour, n) for n in range(start, start + length)]
        else:
            number = rng.randint(1, 13)
            tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
        if rng.random() < 0.15:
            tiles[rng.randrange(len(tiles))] = JOKER
        left = list(pool)
        try:
            for t in tiles:
                left.remove(t)
        except ValueError:
            continue
        pool = left
        table.append(tiles)
    return table, pool[:rack_tiles]


def _programs() -> list[tuple[list[list[Tile]], list[Tile], bool]]:
    rng = random.Random(2024)
    out = [(parse_melds(BIG_TABLE), parse_tiles("K11 O2 O4 B8 K4 K2 O2 O1 K11 B6 O6 B11 B9 O1 K10 B11"), True)]
    for size, rack in ((0, 14), (12, 10), (30, 14), (45, 16)):
        for _ in range(6):
            table, tiles = _position(rng, size, rack)
            out.append((table, tiles, True))
    return out


@pytest.mark.parametrize("exposure", [False, True])
def test_branch_and_bound_agrees_with_the_mip_solver(exposure: bool):
    for table, rack, opened in _programs():
        ordered = [play_order(s, DEFAULT_RULES) for s in table]
        written = [tuple(s) for s in table]
        quick = build_model(ordered, rack, DEFAULT_RULES, opened, exposure=exposure, written=written).solve(10.0)
        model = build_model(ordered, rack, DEFAULT_RULES, opened, exposure=exposure, written=written)
        mip = model.solve(10.0, quick=False)
        assert quick.optimal and mip.optimal
        assert quick.objective == pytest.approx(mip.objective)
        assert quick.values is not None
        # the quick answer is a point of the program: its objective is what it reports
        assert model.ilp is not None and float(model.ilp._cost @ quick.values) == pytest.approx(quick.objective)


def test_a_rack_without_a_set_is_a_proven_draw():
    h = best_play([], parse_tiles("K1 R5 B9 O13"), DEFAULT_RULES)  # a program without a column
    assert h.draw and h.optimal and h.cuts == 0


@pytest.mark.parametrize(
    "table, rack, freeable, bound",
    [
        ("R4 R5 J", "K1 B9", 0, {"R6"}),  # it stands for R6, which is not on the rack
        ("R4 R5 J", "R6 B9", 1, set()),
        ("R4 R5 J | K9 J B9", "O9", 1, {"R6"}),  # the group's joker is freed with O9
    ],
)
def test_a_table_joker_without_its_tile_on_the_rack_stays_what_it_was(table, rack, freeable, bound):
    held = table_held([tuple(s) for s in parse_melds(table)], DEFAULT_RULES)
    free, faces = joker_freedom(held, count_vector(parse_tiles(rack)))
    assert free == freeable
    assert {ALL_FACES[f].code for f in np.flatnonzero(faces)} == bound


def _sets_with_jokers(rules: HouseRules) -> set[tuple[Tile, ...]]:
    out = set()
    for colour in COLOURS:
        for length in range(3, 7):
            for start in range(1, 14 - length + 1):
                run = tuple(Tile(colour, n) for n in range(start, start + length))
                for k in (1, 2):
                    for where in combinations(range(length), k):
                        tiles = tuple(JOKER if i in where else t for i, t in enumerate(run))
                        if analyse_set(tiles, rules).valid:
                            out.add(play_order(tiles, rules))
    for number in (1, 7, 13):
        for size in (3, 4):
            for colours in combinations(COLOURS, size):
                group = tuple(Tile(c, number) for c in colours)
                for k in (1, 2):
                    for where in combinations(range(size), k):
                        tiles = tuple(JOKER if i in where else t for i, t in enumerate(group))
                        if analyse_set(tiles, rules).valid:
                            out.add(play_order(tiles, rules))
    return out


def test_grown_sets_expose_the_jokers_engine_sets_says():
    for ordered in _sets_with_jokers(DEFAULT_RULES):
        grown = _growths(ordered, DEFAULT_RULES, True)
        for tiles, _, _, _ in grown.ways:
            assert _grown_exposed(tiles, grown.group, DEFAULT_RULES) == exposed_jokers(tiles, DEFAULT_RULES), tiles
