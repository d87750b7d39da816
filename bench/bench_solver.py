"""Benchmark the hint solver (``engine.solver.best_play``) against ``rummikub-solver`` (PyPI).

    .venv/bin/pip install rummikub-solver     # the ``bench`` extra; optional
    .venv/bin/python bench/bench_solver.py [--seeds 7] [--no-reference]

Positions are random but legal: sets (runs of 3-6, groups of 3-4, now and then a joker in
place of a tile) are dealt from a shuffled full 106-tile set until the table holds about the
target number of tiles; the rack is drawn from what is left. For each size the median solve
time is printed for both solvers (ours: the whole ``best_play`` call - model, HiGHS, layout,
moves and the ``validate_turn`` check; theirs: ``RuleSet.solve``), their ratio, and every
position where the two place a different number of tiles.

Why counts may differ: rummikub-solver leaves out sets with a joker that is not needed (a
group of four with a joker, a run longer than three with a joker at an end), so with a joker
on the table or the rack it can place fewer tiles. And it treats a joker on the table as free
to move anywhere, while the rules (``engine.turns``) let a player take a joker only by putting
the tile it stood for from the rack in its place and playing the joker again in a new set with
rack tiles: there it may
place more tiles than a legal turn can. Each such position is listed with what
``validate_turn`` says about rummikub-solver's answer; a position where ours places fewer and
theirs is legal would be a bug ("OURS FEWER - a bug").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Sequence

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
# the positions are dealt as the solver's tests deal them (one helper for both)
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "engine"))

from engine.rules import DEFAULT_RULES  # noqa: E402
from engine.solver import best_play  # noqa: E402
from engine.tiles import JOKER, Tile, format_melds, format_tiles, parse_melds, parse_tiles  # noqa: E402
from engine.turns import validate_turn  # noqa: E402
from positions import full_set, random_set, take  # noqa: E402

try:
    from tqdm import tqdm
except ImportError:  # pragma: no cover
    def tqdm(it, **_):  # type: ignore[no-redef]
        return it

# Positions with a joker that is "not needed" where it ends up (the known trap), as
# (table, rack): each places one more tile than rummikub-solver finds.
TRAPS: tuple[tuple[str, str], ...] = (
    ("K3 K4 K5", "J"),
    ("K5 R5 B5", "J"),
    ("R4 R5 R6 J", "B1 B2 B3"),
    ("K5 R5 B5 J", "K1 K2 K3"),
    ("", "K1 K2 K3 K4 J"),
)

SIZES: tuple[tuple[str, int, int], ...] = (
    ("empty table + 14 rack", 0, 14),
    ("~30 table + 14 rack", 30, 14),
    ("~60 table + 20 rack", 60, 20),
    ("~90 table + 16 rack", 90, 16),
)


def random_position(rng: random.Random, table_tiles: int, rack_tiles: int) -> tuple[list[list[Tile]], list[Tile]]:
    """A legal table of about ``table_tiles`` tiles and a rack of ``rack_tiles`` from the rest."""
    pool = full_set()
    rng.shuffle(pool)
    table: list[list[Tile]] = []
    placed = 0
    misses = 0
    while placed < table_tiles - 2 and misses < 2000:
        tiles = random_set(rng, p_run=0.5, longest_run=6, p_joker=0.08)
        if placed + len(tiles) > table_tiles + 3 or not take(pool, tiles):
            misses += 1
            continue
        table.append(tiles)
        placed += len(tiles)
    rack = pool[:rack_tiles]
    return table, rack


# --------------------------------------------------------------------------- rummikub-solver


class Reference:
    """rummikub-solver with the standard rules, tiles mapped from our notation."""

    def __init__(self) -> None:
        from rummikub_solver import Colour, RuleSet

        self.ruleset = RuleSet()
        tiles = self.ruleset.tiles
        order = {Colour.BLACK: "K", Colour.BLUE: "B", Colour.ORANGE: "O", Colour.RED: "R"}
        self.map: dict[Tile, object] = {}
        for t in tiles:
            if hasattr(t, "colour"):
                self.map[Tile(order[t.colour], t.value)] = t
            else:
                self.map[JOKER] = t

    def solve(self, table: Sequence[Sequence[Tile]], rack: Sequence[Tile]) -> tuple[int, list[list[Tile]]]:
        """Tiles placed and the sets of its answer (in our tiles)."""
        state = self.ruleset.new_game()
        state.initial = False
        flat = [self.map[t] for s in table for t in s]
        if flat:
            state.add_table(*flat)
        if rack:
            state.add_rack(*[self.map[t] for t in rack])
        sol = self.ruleset.solve(state)
        if sol is None:
            return 0, []
        back = {v: k for k, v in self.map.items()}
        return len(sol.tiles), [[back[t] for t in s] for s in sol.sets]


def _median_ms(xs: list[float]) -> float:
    return statistics.median(xs) * 1000 if xs else float("nan")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=7, help="positions per size (default 7)")
    parser.add_argument("--no-reference", action="store_true", help="skip rummikub-solver")
    args = parser.parse_args(argv)

    reference = None
    if not args.no_reference:
        try:
            reference = Reference()
        except ImportError:
            print("rummikub-solver is not installed (pip install rummikub-solver): ours only\n")
    # warm both up (catalogue build, cvxpy compile) outside the timings
    best_play([], [Tile("K", 1), Tile("K", 2), Tile("K", 3)], DEFAULT_RULES)
    if reference is not None:
        reference.solve([], [Tile("K", 1), Tile("K", 2), Tile("K", 3)])

    rows = []
    differences = []
    not_optimal = 0
    for name, table_n, rack_n in SIZES:
        ours_t, ours_cpu, theirs_t, table_sizes = [], [], [], []
        for seed in tqdm(range(args.seeds), desc=name, leave=False):
            rng = random.Random(1000 * table_n + seed)
            table, rack = random_position(rng, table_n, rack_n)
            table_sizes.append(sum(map(len, table)))
            t0, c0 = time.perf_counter(), time.process_time()
            hint = best_play(table, rack, DEFAULT_RULES, time_limit=10.0)
            ours_t.append(time.perf_counter() - t0)
            ours_cpu.append(time.process_time() - c0)
            not_optimal += not hint.optimal
            if reference is not None:
                t0 = time.perf_counter()
                theirs, their_sets = reference.solve(table, rack)
                theirs_t.append(time.perf_counter() - t0)
                if theirs != hint.tiles_placed:
                    check = validate_turn(table, rack, their_sets, DEFAULT_RULES) if theirs else None
                    why = "" if check is None or check.ok else "; ".join(v.message for v in check.violations)
                    differences.append((name, seed, table, rack, hint.tiles_placed, theirs, why))
        ours_ms, theirs_ms = _median_ms(ours_t), _median_ms(theirs_t)
        ratio = theirs_ms / ours_ms if theirs_t else float("nan")
        rows.append(
            (name, statistics.median(table_sizes), len(ours_t), ours_ms, _median_ms(ours_cpu), max(ours_t) * 1000,
             theirs_ms, ratio)
        )

    print(
        f"{'position':<24}{'table':>6}{'n':>4}{'ours med ms':>13}{'(cpu ms)':>10}{'ours max ms':>13}"
        f"{'ref med ms':>12}{'ref/ours':>10}"
    )
    for name, tsize, n, ours_ms, ours_cpu_ms, ours_max, theirs_ms, ratio in rows:
        print(
            f"{name:<24}{tsize:>6.0f}{n:>4}{ours_ms:>13.1f}{ours_cpu_ms:>10.1f}{ours_max:>13.1f}"
            f"{theirs_ms:>12.1f}{ratio:>10.1f}"
        )
    print("(medians of wall time per position; cpu ms: process time, less sensitive to a busy machine)")
    print(f"\nplays not proven optimal: {not_optimal}")
    if reference is not None:
        print(f"positions where the tile counts differ: {len(differences)}")
        for name, seed, table, rack, ours, theirs, why in differences:
            if ours > theirs:
                tag = "ours more"
            elif why:
                tag = "theirs breaks the rules"
            else:
                tag = "OURS FEWER - a bug"
            print(f"  [{tag}] {name} seed {seed}: ours {ours}, rummikub-solver {theirs}")
            print(f"     table: {format_melds(table)}")
            print(f"     rack:  {format_tiles(rack)}")
            if why:
                print(f"     rummikub-solver's play: {why}")
        if differences:
            print(
                "  rummikub-solver leaves out sets whose joker is not needed (a group of four with a joker, a\n"
                "  run over 3 with a joker at an end), so it can place fewer; and it moves jokers on the table\n"
                "  freely, so it can place more than a legal turn allows (a joker may only be taken by putting\n"
                "  the tile it stood for in its place - engine.turns)."
            )
    if reference is not None:
        print("\nknown traps (a joker that is not needed where it ends up):")
        for table_text, rack_text in TRAPS:
            table, rack = parse_melds(table_text), parse_tiles(rack_text)
            ours = best_play(table, rack, DEFAULT_RULES).tiles_placed
            theirs, _ = reference.solve(table, rack)
            print(f"  table {table_text or '(empty)'!r:24} rack {rack_text!r:18} ours {ours}  rummikub-solver {theirs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
