"""The solver against an exhaustive search on small positions (table <= 9 tiles, rack <= 5).

The reference tries every multiset of rack tiles, largest first, and every way to split the
table's tiles plus those into valid sets (each set written in every reading's play order), and
asks ``validate_turn`` - the rules, jokers included - whether that is a legal turn. The solver
must place exactly as many tiles, and its play must be legal too.
"""

from __future__ import annotations

import random
from collections import Counter
from functools import lru_cache
from itertools import combinations, product
from typing import Iterator

import pytest

from engine.initial import check_initial_meld
from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import interpretations, is_valid_set
from engine.solver import best_play
from engine.tiles import JOKER, Tile, format_melds, format_tiles
from positions import full_set, random_set, take
from engine.turns import validate_turn

Melds = list[list[Tile]]
ANYWHERE = DEFAULT_RULES.with_(joker_reuse="anywhere")


def _key(t: Tile) -> tuple:
    return (1, "", 0) if t.is_joker else (0, t.colour, t.number)


@lru_cache(maxsize=None)
def _partitions(tiles: tuple[Tile, ...], rules: HouseRules) -> tuple[tuple[tuple[Tile, ...], ...], ...]:
    """Every split of ``tiles`` (sorted, jokers last) into valid sets (as sorted tuples)."""
    if not tiles:
        return ((),)
    first, rest = tiles[0], tiles[1:]
    if first.is_joker:  # only jokers left: no set
        return ()
    mates = [i for i, t in enumerate(rest) if t.is_joker or t.colour == first.colour or t.number == first.number]
    out: set[tuple[tuple[Tile, ...], ...]] = set()
    for size in range(2, len(mates) + 1):
        for pick in combinations(mates, size):
            chosen = (first,) + tuple(rest[i] for i in pick)
            if not is_valid_set(chosen, rules):
                continue
            left = tuple(t for i, t in enumerate(rest) if i not in pick)
            for tail in _partitions(left, rules):
                out.add(tuple(sorted((chosen,) + tail)))
    return tuple(out)


def _orders(s: tuple[Tile, ...], rules: HouseRules) -> list[tuple[Tile, ...]]:
    """The set written in the play order of each of its readings (jokers in their places)."""
    out: list[tuple[Tile, ...]] = []
    for r in interpretations(s, rules):
        jokers = {x for _, x in r.joker_tiles}
        order = tuple(JOKER if t in jokers else t for t in r.resolved)
        if order not in out:
            out.append(order)
    return out


def _sub_multisets(rack: list[Tile]) -> Iterator[tuple[Tile, ...]]:
    """Distinct sub-multisets of the rack, largest first."""
    seen: set[tuple[Tile, ...]] = set()
    for size in range(len(rack), 0, -1):
        for pick in combinations(range(len(rack)), size):
            sub = tuple(sorted((rack[i] for i in pick), key=_key))
            if sub not in seen:
                seen.add(sub)
                yield sub


def reference(table: Melds, rack: list[Tile], rules: HouseRules, opened: bool) -> int:
    """Most rack tiles a legal turn can place (0: draw)."""
    table_tiles = [t for s in table for t in s]
    for sub in _sub_multisets(rack):
        if opened:
            pool = tuple(sorted(table_tiles + list(sub), key=_key))
            for split in _partitions(pool, rules):
                for written in product(*(_orders(s, rules) for s in split)):
                    if validate_turn(table, rack, [list(s) for s in written], rules, True).ok:
                        return len(sub)
        else:  # new sets from the rack only, worth the threshold
            for split in _partitions(sub, rules):
                best = sum(max(check_initial_meld([o], rules).total for o in _orders(s, rules)) for s in split)
                if best >= rules.initial_meld:
                    return len(sub)
    return 0


def small_position(rng: random.Random, table_jokers: bool) -> tuple[Melds, list[Tile]]:
    """2-3 random sets (<= 9 tiles) and a rack of 3-5 tiles, most of them near the table's."""
    pool = full_set()
    rng.shuffle(pool)
    table: Melds = []
    size = 0
    for _ in range(rng.randint(1, 3)):
        s = random_set(rng, p_run=0.55, longest_run=4, p_joker=0.5 if table_jokers else 0.0)
        if size + len(s) > 9 or not take(pool, s):
            continue
        table.append(s)
        size += len(s)
    near = [
        t
        for t in pool
        if not t.is_joker
        and any(
            not u.is_joker and (t.colour == u.colour and abs(t.number - u.number) <= 2 or t.number == u.number)
            for s in table
            for u in s
        )
    ]
    rack: list[Tile] = []
    for _ in range(rng.randint(3, 5)):
        source = near if near and rng.random() < 0.7 else pool
        t = rng.choice(source)
        if take(pool, [t]):
            rack.append(t)
            if t in near:
                near.remove(t)
    if rng.random() < 0.25 and take(pool, [JOKER]):
        rack[rng.randrange(len(rack))] = JOKER
    return table, rack


def _check(table: Melds, rack: list[Tile], rules: HouseRules, opened: bool) -> None:
    want = reference(table, rack, rules, opened)
    hint = best_play(table, rack, rules, opened=opened)
    where = f"table {format_melds(table)!r}, rack {format_tiles(rack)!r}, opened={opened}"
    assert hint.optimal and hint.cuts == 0, where
    assert hint.tiles_placed == want, f"{where}: solver {hint.tiles_placed}, exhaustive search {want}"
    if want:
        assert validate_turn(table, rack, hint.table, rules, opened).ok, where
    else:
        assert hint.draw, where


@pytest.mark.parametrize("seed", range(8))
def test_agrees_with_exhaustive_search_without_table_jokers(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(25):
        table, rack = small_position(rng, table_jokers=False)
        _check(table, rack, DEFAULT_RULES, opened=True)


@pytest.mark.parametrize("seed", range(4))
def test_agrees_with_exhaustive_search_with_table_jokers(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(20):
        table, rack = small_position(rng, table_jokers=True)
        _check(table, rack, DEFAULT_RULES, opened=True)


@pytest.mark.parametrize("seed", range(2))
def test_agrees_with_exhaustive_search_when_freed_jokers_go_anywhere(seed: int) -> None:
    rng = random.Random(400 + seed)
    for _ in range(20):
        table, rack = small_position(rng, table_jokers=True)
        _check(table, rack, ANYWHERE, opened=True)


@pytest.mark.parametrize("seed", range(2))
def test_agrees_with_exhaustive_search_with_wrap_around(seed: int) -> None:
    rng = random.Random(200 + seed)
    rules = DEFAULT_RULES.with_(wrap_around=True)
    for _ in range(20):
        table, rack = small_position(rng, table_jokers=seed == 1)
        _check(table, rack, rules, opened=True)


@pytest.mark.parametrize("threshold", [20, 30])
def test_agrees_with_exhaustive_search_on_the_opening(threshold: int) -> None:
    rng = random.Random(300 + threshold)
    rules = DEFAULT_RULES.with_(initial_meld=threshold)
    for _ in range(30):
        table, _ = small_position(rng, table_jokers=False)
        rack = [t for s in table for t in s][:6]  # a rack that can hold sets
        rng.shuffle(rack)
        if rng.random() < 0.3:
            rack[0] = JOKER
        _check([], rack, rules, opened=False)


def test_reference_itself_on_known_positions() -> None:
    t = lambda text: [Tile(text[0], int(text[1:])) if text != "J" else JOKER for text in text.split()]  # noqa: E731
    assert reference([t("R4 R5 R6 J")], t("B1 B2 B3"), DEFAULT_RULES, True) == 3
    # the freed joker needs a new set with rack tiles (the rulebook) ...
    assert reference([t("K5 K6 J"), t("R9 B9 O9")], t("K7"), DEFAULT_RULES, True) == 0
    # ... or may go anywhere (the encyclopedia text, a house rule)
    assert reference([t("K5 K6 J"), t("R9 B9 O9")], t("K7"), ANYWHERE, True) == 1
    # a joker is freed only with its tile from the rack, not one moved from the table
    assert reference([t("B1 B2 J"), t("R3 O3 K3 B3")], t("R9 K9"), DEFAULT_RULES, True) == 0
    assert reference([t("R4 J R6")], t("K8 K9"), DEFAULT_RULES, True) == 0
    assert reference([], t("K10 B10 J"), DEFAULT_RULES, False) == 3
    assert reference([], t("K7 K8 K9 R1"), DEFAULT_RULES, False) == 0
    assert Counter(t("K1 K1")) == Counter({Tile("K", 1): 2})
