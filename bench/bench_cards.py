"""Declare + redeal check time for random 15-card closed-rummy hands holding both jokers (the
hardest case for the exact search). Prints the median and the slowest, and their ratio to 1 s.

    .venv/bin/python bench/bench_cards.py [--hands 50]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engine.cards import JOKER, declare_check, full_deck, redeal_check  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=50)
    args = ap.parse_args()
    rnd = random.Random(7)
    deck = full_deck(2, 0)
    times = []
    for _ in range(args.hands):
        hand = rnd.sample(deck, 13) + [JOKER, JOKER]
        t = time.perf_counter()
        declare_check(hand)
        redeal_check(hand)
        times.append((time.perf_counter() - t) * 1000)
    med, worst = statistics.median(times), max(times)
    print(f"{args.hands} hands: median {med:.1f} ms, slowest {worst:.1f} ms ({worst / 1000:.3f}x one second)")


if __name__ == "__main__":
    main()
