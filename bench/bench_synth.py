"""Renders per second of the synthetic generator (the issue's target: >= 10 photos/s at 1024 px on
2 cores, using both). Prints the rate per process count, the ratio to the target, the CPU milliseconds
per photo (this process and its workers: the fair measure on a shared machine) and the load average.

    .venv/bin/python bench/bench_synth.py [--n 200] [--size 1024] [--styles train|heldout] [--workers 2]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from datasets.synth.writer import write_dataset  # noqa: E402

TARGET = 10.0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--size", type=int, default=1024)
    ap.add_argument("--crops", action="store_true", help="also cut classifier crops")
    ap.add_argument("--styles", default="train", choices=["train", "heldout"], help="side of the style split")
    ap.add_argument("--workers", type=int, default=None, help="only this process count (default: 1 and all cores)")
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    for workers in [args.workers] if args.workers else sorted({1, cores}):
        with tempfile.TemporaryDirectory() as tmp:
            load = os.getloadavg()[0]
            c0, t = os.times(), time.perf_counter()
            write_dataset(tmp, args.n, seed=123, size=args.size, workers=workers, crops=args.crops, progress=False,
                          styles=args.styles)
            wall = time.perf_counter() - t
            c1 = os.times()
            cpu = sum(getattr(c1, k) - getattr(c0, k) for k in ("user", "system", "children_user", "children_system"))
            rate = args.n / wall
        print(f"{workers} process(es), {args.size} px, {args.styles} styles: {rate:5.1f} photos/s  ({rate / TARGET:.2f}x the "
              f"10/s target), {1000 * cpu / args.n:.0f} CPU ms/photo (incl. worker start-up), load {load:.2f} before")


if __name__ == "__main__":
    main()
