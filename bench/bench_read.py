"""Reading time per photo with the committed model, after it is loaded (median of several runs),
for 1000x750 photos and for 4000x3000 phone photos, with every reader switched on (detector,
classifier and the number recogniser where it is installed) and, with ``--both``, also with the
classifier alone. Prints the ratio to the targets (400 ms for 1000x750, 1 s for 4000x3000) and the
machine's load, since the timings depend on it.

    .venv/bin/python bench/bench_read.py [--photos DIR] [--n 10] [--both]
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
from vision.yolo_format import list_images  # noqa: E402

TARGET_MS = {"1000x750": 400.0, "4000x3000": 1000.0}
DEFAULT_PHOTOS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "real" / "images"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", default=str(DEFAULT_PHOTOS))
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--both", action="store_true", help="also time the classifier alone (no recogniser)")
    args = ap.parse_args()
    files = list_images(Path(args.photos))[: args.n]
    if not files:
        sys.exit(f"no photos in {args.photos}")
    model = load_model()
    modes = [None, False] if args.both else [None]
    for ocr in modes:
        reader = Reader(model, ocr=ocr)
        reader.read(Image(cv2.cvtColor(cv2.imread(str(files[0])), cv2.COLOR_BGR2RGB)))  # warm-up (loads the recogniser)
        name = "every reader" if reader.uses_ocr else "classifier alone"
        for label, size in (("1000x750", (1000, 750)), ("4000x3000", (4000, 3000))):
            times, tiles = [], []
            for f in files:
                rgb = cv2.cvtColor(cv2.imread(str(f)), cv2.COLOR_BGR2RGB)
                h, w = rgb.shape[:2]
                target = size if w >= h else size[::-1]
                rgb = cv2.resize(rgb, target, interpolation=cv2.INTER_CUBIC)
                t = time.perf_counter()
                reading = reader.read(Image(np.ascontiguousarray(rgb)))
                times.append((time.perf_counter() - t) * 1000)
                tiles.append(len(reading.tiles))
            med, target_ms = statistics.median(times), TARGET_MS[label]
            print(
                f"{name:<16} {label:>9}: median {med:6.0f} ms over {len(times)} photos, {statistics.median(tiles):.0f} tiles "
                f"each  ({med / target_ms:.2f}x the {target_ms:.0f} ms target)  load {os.getloadavg()[0]:.1f}"
            )


if __name__ == "__main__":
    main()
