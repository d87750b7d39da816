"""How many of the clear colours (red, orange, blue) each labelled tile's ink shows, by kind of tile.

The colour-change joker is read from its ink where the Twist rule is on (``vision.ink.held_to_colour_change``): a
tile whose face's clear ink shows all three clear colours, each on at least ``EVERY_COLOUR_SHARE`` of it. This counts,
on the labelled boxes of a set (no detector, no reader), how many clear colours each kind of tile shows at that share
and at half and one and a half times it: the numbered tiles and the other jokers must show fewer than three, the
colour-change jokers three.

    .venv/bin/python bench/bench_ink_shares.py DATASET [--split SPLIT] [--limit N]

e.g. ``RUN/synth --split calib`` (the styles the bound was chosen on), ``RUN/synth --split unseen``.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from typing import Iterable, Iterator, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision.evaluate import open_dataset  # noqa: E402
from vision.ink import EVERY_COLOUR_SHARE, ink_shares  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.yolo_format import LabelledTile, read_labels  # noqa: E402


def kind(code: str) -> str:
    return code if code.startswith("J") else "numbered"


BOUNDS = (0.5 * EVERY_COLOUR_SHARE, EVERY_COLOUR_SHARE, 1.5 * EVERY_COLOUR_SHARE)


def count(photos: Iterable[tuple[np.ndarray, Sequence[LabelledTile]]],
          bounds: Sequence[float] = BOUNDS) -> dict[tuple[str, float], collections.Counter]:
    """For each kind of tile and bound, how many labelled tiles show 0, 1, 2 and 3 clear colours (RGB photos and their
    labelled tiles)."""
    counts: dict[tuple[str, float], collections.Counter] = collections.defaultdict(collections.Counter)
    for rgb, tiles in photos:
        for tile in tiles:
            shares = ink_shares(rgb, tile.box)
            for bound in bounds:
                shown = 0 if shares is None else sum(share >= bound for share in shares.values())
                counts[(kind(tile.code), bound)][shown] += 1
    return counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dataset")
    ap.add_argument("--split", default="test")
    ap.add_argument("--limit", type=int, default=None, help="only the first N photos")
    args = ap.parse_args()
    data = open_dataset(args.dataset, args.split)

    def photos() -> Iterator[tuple[np.ndarray, list[LabelledTile]]]:
        for image_path, label_path in tqdm(data.photos[: args.limit], desc="photos", unit="photo"):
            image = load_image(image_path)
            yield image.rgb, read_labels(label_path, data.names, image.width, image.height)

    print(f"{args.dataset} ({args.split}): labelled tiles by the clear colours their ink shows (0-3)")
    for (name, bound), shown in sorted(count(photos()).items()):
        total = sum(shown.values())
        row = "  ".join(f"{k}: {shown[k]:5d}" for k in range(4))
        print(f"  {name:9s} at {bound:.2f}{' (the bound)' if bound == EVERY_COLOUR_SHARE else '            '}  {row}"
              f"   three: {shown[3] / total:6.1%} of {total}")


if __name__ == "__main__":
    main()
