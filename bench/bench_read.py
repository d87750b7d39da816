"""Reading time per photo with the committed model, after it is loaded (median of several runs),
for 1000x750 photos and for 4000x3000 phone photos. Prints the ratio to the 400 ms target.

    .venv/bin/python bench/bench_read.py [--photos DIR] [--n 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.model import load_model  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.types import Image  # noqa: E402

TARGET_MS = 400.0
DEFAULT_PHOTOS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "real" / "images"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", default=str(DEFAULT_PHOTOS))
    ap.add_argument("--n", type=int, default=10)
    args = ap.parse_args()
    files = sorted(p for p in Path(args.photos).rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))[: args.n]
    if not files:
        sys.exit(f"no photos in {args.photos}")
    reader = Reader(load_model())
    reader.read(Image(cv2.cvtColor(cv2.imread(str(files[0])), cv2.COLOR_BGR2RGB)))  # warm-up
    for label, size in (("1000x750", (1000, 750)), ("4000x3000", (4000, 3000))):
        times = []
        for f in files:
            rgb = cv2.cvtColor(cv2.imread(str(f)), cv2.COLOR_BGR2RGB)
            h, w = rgb.shape[:2]
            target = size if w >= h else size[::-1]
            rgb = cv2.resize(rgb, target, interpolation=cv2.INTER_CUBIC)
            t = time.perf_counter()
            reader.read(Image(np.ascontiguousarray(rgb)))
            times.append((time.perf_counter() - t) * 1000)
        med = statistics.median(times)
        print(f"{label}: median {med:6.0f} ms over {len(times)} photos  ({med / TARGET_MS:.2f}x the 400 ms target)")


if __name__ == "__main__":
    main()
