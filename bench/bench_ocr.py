"""The number recogniser alone on the labelled tiles of a set: how many numbers it reads.

Reads every numbered tile at its labelled box (the detector is not measured here) with the recogniser
alone (``vision.ocr``, as the reader runs it), and counts a number read where the most probable answer
is the tile's number at p >= 0.5. On rendered sets, whose photos carry a meta file
(``datasets/synth/writer.py``), the count is also split by digit size (small: under half the face,
big: half or more), ink shade, view, circle and Okey-style marker. A change to how the recogniser cuts or turns a tile is
measured here on the calibration renders, the racks in the held-out styles and the real training
series (a real edition it never learnt from): renders alone fit their renderer's layout.

    .venv/bin/python bench/bench_ocr.py DATASET [--split SPLIT] [--limit N]

e.g. ``RUN/synth --split calib``, ``RUN/synth --split unseen_racks``, ``RUN/real --split train``.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from datasets.synth.writer import is_rack_scene, read_meta  # noqa: E402
from vision.evaluate import open_dataset  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.ocr import NO_NUMBER, load_number_reader  # noqa: E402
from vision.yolo_format import read_labels  # noqa: E402

SURE_ENOUGH = 0.5


def groups_of(meta: dict | None, code: str) -> list[str]:
    """The groups a tile is counted in: all, and on renders its digit size, ink shade, view, the circle
    round the number and the Okey-style marker under it."""
    out = ["all"]
    if meta:
        edition = meta.get("edition", {})
        if "size" in edition:
            out.append("size: " + ("big" if edition["size"] >= 0.5 else "small"))
        shade = edition.get("shades", {}).get(code[0])
        if shade:
            out.append("shade: " + shade)
        if meta.get("view"):
            out.append("view: " + meta["view"])
        if "circle" in edition:
            out.append("circle: " + ("yes" if edition["circle"] else "no"))
        out.append("marker under the number: " + (edition.get("okey") or "none"))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--split", default="val")
    ap.add_argument("--limit", type=int, default=None, help="read only the first N photos")
    args = ap.parse_args()

    data = open_dataset(args.dataset, args.split)
    reader = load_number_reader()
    counts: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    for image_path, label_path in tqdm(data.photos[: args.limit], desc="reading", unit="photo"):
        image = load_image(image_path)
        tiles = [t for t in read_labels(label_path, data.names, image.width, image.height) if not t.code.startswith("J")]
        if not tiles:
            continue
        meta = read_meta(data.root, args.split, image_path)
        # a rendered rack scene is read as a rack, as the app reads a rack photo
        probs = reader.read(image.rgb, np.array([t.box for t in tiles]), upright=is_rack_scene(meta))
        for tile, row in zip(tiles, probs):
            best = int(np.argmax(row))
            right = best != NO_NUMBER and best + 1 == int(tile.code[1:]) and row[best] >= SURE_ENOUGH
            for group in groups_of(meta, tile.code):
                counts[group][0] += right
                counts[group][1] += 1
    print(f"{args.dataset} ({args.split}): numbers read by the recogniser alone at the labelled boxes")
    for group in sorted(counts, key=lambda g: (g != "all", g)):
        right, total = counts[group]
        print(f"  {group:28s} {right / total:6.1%} of {total}")


if __name__ == "__main__":
    main()
