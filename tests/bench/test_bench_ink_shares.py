"""bench/bench_ink_shares.py: a colour-change joker's ink shows the three clear colours, no numbered tile's does (the
real photos' tiles included)."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_ink_shares import BOUNDS, count  # noqa: E402

from vision.evaluate import open_dataset  # noqa: E402
from vision.ink import EVERY_COLOUR_SHARE  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.yolo_format import LabelledTile, read_labels  # noqa: E402

INKS = {"red": (205, 32, 45), "orange": (240, 138, 38), "blue": (22, 88, 185), "black": (22, 22, 28)}


def _tiles() -> tuple[np.ndarray, list[LabelledTile]]:
    """A colour-change joker marked with four coloured arcs beside a red 8, on a green table."""
    rgb = np.full((120, 200, 3), (40, 110, 60), np.uint8)
    rgb[20:90, 20:72] = (236, 229, 206)
    rgb[20:90, 110:162] = (236, 229, 206)
    for k, name in enumerate(INKS):
        cv2.ellipse(rgb, (46, 55), (17, 17), 0, k * 90 + 8, (k + 1) * 90 - 8, INKS[name], 7, cv2.LINE_AA)
    cv2.putText(rgb, "8", (120, 65), cv2.FONT_HERSHEY_SIMPLEX, 1.5, INKS["red"], 5, cv2.LINE_AA)
    return rgb, [LabelledTile(box=(20, 20, 72, 90), code="JC"), LabelledTile(box=(110, 20, 162, 90), code="R8")]


def test_the_joker_shows_three_colours_the_numbered_tile_one() -> None:
    counts = count([_tiles()])
    assert counts[("JC", EVERY_COLOUR_SHARE)][3] == 1
    assert counts[("numbered", EVERY_COLOUR_SHARE)][1] == 1
    assert set(bound for _, bound in counts) == set(BOUNDS)


def test_no_tile_of_the_real_photos_shows_three_colours() -> None:
    data = open_dataset(ROOT / "tests" / "fixtures" / "real", "val")
    photos = []
    for image_path, label_path in data.photos:
        image = load_image(image_path)
        photos.append((image.rgb, read_labels(label_path, data.names, image.width, image.height)))
    counts = count(photos, (EVERY_COLOUR_SHARE,))
    numbered = counts[("numbered", EVERY_COLOUR_SHARE)]
    assert sum(numbered.values()) >= 20 and numbered[3] == 0
    assert all(shown[3] == 0 for (name, _), shown in counts.items() if name != "JC")
