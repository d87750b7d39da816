"""How far the recogniser's measured tilt of each tile lies from the tilt it was drawn at, on a set of renders.

The number recogniser cuts each tile along its tilt (``vision.ocr.box_tilt``: the tile's edges, modulo a quarter
turn); on a rack a tile tilted apart from the tiles around it takes their median (``vision.ocr.tilts_together``).
This measures both on the labelled boxes of rendered photos (no detector, no reader) against the tilt of each tile's
drawn top edge (the render's sidecar), and prints the share of tiles off by more than 5 and 8 degrees. On a table seen
at a slant a face is drawn as a parallelogram, whose top edge is only one of its tilts: read the table sets' shares as
an upper bound.

    .venv/bin/python bench/bench_tilt.py DATASET [--split SPLIT] [--limit N]

e.g. ``RUN/synth --split unseen_racks``, ``RUN/synth --split phone_racks``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from datasets.synth.writer import is_rack_scene, read_meta  # noqa: E402
from vision.evaluate import open_dataset  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.ocr import DEFAULT_SETTINGS, box_tilt, tilts_apart, tilts_together  # noqa: E402

MIN_VISIBLE = 0.6  # a tile mostly hidden (under a hand, behind the tier in front) has no edges to measure


def off_by(a: np.ndarray | Sequence[float], b: np.ndarray | Sequence[float]) -> np.ndarray:
    """How many degrees apart two tilts are, modulo a quarter turn (0 to 45), as the reader measures it."""
    return np.asarray(tilts_apart(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)))


def drawn_tilt(corners: Sequence[Sequence[float]]) -> float:
    """The tilt of a drawn tile's top edge (its first two corners), degrees clockwise."""
    (x0, y0), (x1, y1) = corners[0], corners[1]
    return math.degrees(math.atan2(y1 - y0, x1 - x0))


def measure(rgb: np.ndarray, tiles: Sequence[dict], rack: bool) -> tuple[np.ndarray, np.ndarray]:
    """How far each drawn tile's (a sidecar's ``box`` and ``corners``) measured tilt lies from its drawn one: its own
    tilt, and the tilt the reader takes (on a rack, ``tilts_together``)."""
    s = DEFAULT_SETTINGS
    boxes = np.array([t["box"] for t in tiles], dtype=np.float64).reshape(-1, 4)
    drawn = [drawn_tilt(t["corners"]) for t in tiles]
    own = [box_tilt(rgb, box, s)[0] for box in boxes]
    together = tilts_together(own, boxes, s.rack_tilt_reach, s.rack_tilt_off) if rack else own
    return off_by(own, drawn), off_by(together, drawn)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--split", default="unseen_racks")
    ap.add_argument("--limit", type=int, default=None, help="only the first N photos")
    args = ap.parse_args()
    data = open_dataset(args.dataset, args.split)
    own_off: list[float] = []
    together_off: list[float] = []
    racks = 0
    for image_path, _ in tqdm(data.photos[: args.limit], desc="measuring", unit="photo"):
        meta = read_meta(data.root, args.split, image_path)
        if meta is None:
            continue
        tiles = [t for t in meta.get("tiles", []) if t.get("visible", 1.0) >= MIN_VISIBLE and not t.get("face_down")]
        if not tiles:
            continue
        rack = is_rack_scene(meta)
        racks += rack
        own, together = measure(load_image(image_path).rgb, tiles, rack)
        own_off.extend(own)
        together_off.extend(together)
    if not own_off:
        print(f"{args.dataset} ({args.split}): no rendered photo with a sidecar")
        return
    own_a, together_a = np.array(own_off), np.array(together_off)
    print(f"{args.dataset} ({args.split}): {len(own_a)} tiles, {racks} rack photos")
    for name, off in (("each tile's own tilt", own_a), ("as the reader takes it", together_a)):
        print(f"  {name:24s} off by more than 5 degrees {np.mean(off > 5):6.1%}, more than 8 {np.mean(off > 8):6.1%}, "
              f"median {np.median(off):.2f}")


if __name__ == "__main__":
    main()
