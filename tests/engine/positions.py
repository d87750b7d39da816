"""Random positions for the solver's tests and its bench (``bench/bench_solver.py``): a full set to
deal from, dealing tiles out of it, and one random legal set (a run or a group, now and then with a
joker)."""

from __future__ import annotations

import random

from engine.tiles import ALL_FACES, COLOURS, JOKER, Tile


def full_set() -> list[Tile]:
    return [t for t in ALL_FACES for _ in range(2)] + [JOKER, JOKER]


def take(pool: list[Tile], tiles: list[Tile]) -> bool:
    """Take ``tiles`` out of ``pool`` if it holds them all (else leave it as it is)."""
    left = list(pool)
    for t in tiles:
        if t not in left:
            return False
        left.remove(t)
    pool[:] = left
    return True


def random_set(rng: random.Random, p_run: float, longest_run: int, p_joker: float) -> list[Tile]:
    """A run of 3..``longest_run`` (with chance ``p_run``) or a group of 3-4, one tile of it a joker
    with chance ``p_joker`` (no draw at all when that is 0, so a caller's random sequence stays)."""
    if rng.random() < p_run:
        colour, length = rng.choice(COLOURS), rng.randint(3, longest_run)
        start = rng.randint(1, 14 - length)
        tiles = [Tile(colour, n) for n in range(start, start + length)]
    else:
        number = rng.randint(1, 13)
        tiles = [Tile(c, number) for c in rng.sample(COLOURS, rng.randint(3, 4))]
    if p_joker and rng.random() < p_joker:
        tiles[rng.randrange(len(tiles))] = JOKER
    return tiles
