"""Renders per second of the synthetic generator (the issue's target: >= 10 photos/s at 1024 px on
2 cores, using both). Prints the rate per process count and the ratio to the target.

    .venv/bin/python bench/bench_synth.py [--n 200] [--size 1024]
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
    args = ap.parse_args()
    cores = os.cpu_count() or 1
    for workers in sorted({1, cores}):
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            write_dataset(tmp, args.n, seed=123, size=args.size, workers=workers, crops=args.crops, progress=False)
            rate = args.n / (time.perf_counter() - t)
        print(f"{workers} process(es), {args.size} px: {rate:5.1f} photos/s  ({rate / TARGET:.2f}x the 10/s target)")


if __name__ == "__main__":
    main()
