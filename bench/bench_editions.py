"""The reader on real photos of our edition, its tiles recoloured as other editions print them, or turned over.

The renders stand for editions we have never seen, but with the renders' own camera and light. Here the photos
are real (their camera, their light, their glare and blur) and only the tiles' inks change: in each labelled tile's
box, its ink is turned to another edition's shade, and every pixel keeps its own brightness detail, so the photo's
noise, shading and blur stay as they were.

- ``teal``: blue ink turned teal (an edition whose blue is teal);
- ``yellow``: orange ink turned yellow;
- ``crimson``: red ink turned crimson, a little darker;
- ``grey``: black ink lightened to a dark grey;
- ``edition``: teal, yellow, crimson and grey inks at once;
- ``upside``: every tile standing apart from the others turned half round in place (not an edition: a player's
  tile laid upside down, which other photos show far more often than ours).

Only a labelled tile's own ink is changed: the pixels of its box whose hue lies near the ink's (its most saturated
pixels' median hue), or for black ink the dark, unsaturated ones, weighted by how clearly they are ink, as
``vision.ocr.ink_map`` weighs them. The plastic is left as it is: a box holds the table round a tilted tile too, and
a light table beside a white tile cannot be told from it by colour alone, so a body recoloured by its box shows the
box. The reader is the committed one, used exactly as ``rummi evaluate`` uses it.

    .venv/bin/python bench/bench_editions.py DATASET [--split SPLIT] [--rack] [--limit N] [--only teal,yellow] [--models DIR]

e.g. ``RUN/real --split heldout`` (measure only: never choose by the held-out photos).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Iterator, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from bench_phones import TilesChange, as_taken, bench_args, changed_copy, run_bench  # noqa: E402

from vision.evaluate import EvalReport  # noqa: E402
from vision.metrics import box_iou  # noqa: E402
from vision.yolo_format import LabelledTile  # noqa: E402

# OpenCV's hues (0-180) each ink is turned to; None: the ink keeps its hue
TEAL_HUE = 89.0  # 178 degrees
YELLOW_HUE = 27.0  # 54 degrees
CRIMSON_HUE = 172.0  # 344 degrees
HUE_NEAR = 18.0  # pixels within this of the ink's own hue are its ink
GREY_INK = 90.0  # the value (0-255) a black ink is lightened to


def _hue_distance(h: np.ndarray, to: float) -> np.ndarray:
    d = np.abs(h - to) % 180.0
    return np.minimum(d, 180.0 - d)


def _regions(rgb: np.ndarray, tiles: Sequence[LabelledTile], colour: str) -> Iterator[tuple[tuple[slice, slice], np.ndarray]]:
    """For each labelled number tile of ``colour`` (K, R, B or O) whose box, clipped to the photo, is 4 px or more
    each way: the box's slice of the photo and that part in HSV (float)."""
    h, w = rgb.shape[:2]
    for tile in tiles:
        if tile.code[:1] != colour or not tile.code[1:].isdigit():
            continue
        x1, y1, x2, y2 = (int(round(v)) for v in tile.box)
        x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
        if x2 - x1 < 4 or y2 - y1 < 4:
            continue
        region = (slice(y1, y2), slice(x1, x2))
        yield region, cv2.cvtColor(rgb[region], cv2.COLOR_RGB2HSV).astype(np.float32)


def _coloured_ink(hsv: np.ndarray) -> tuple[np.ndarray, float] | None:
    """How clearly each pixel is a coloured ink (0-1), and the ink's hue; None where the box holds no coloured ink."""
    s, v = hsv[..., 1], hsv[..., 2]
    # a dark pixel's saturation is its noise: black ink is no coloured ink
    weight = np.clip((s - np.median(s) - 40.0) / 60.0, 0.0, 1.0) * np.clip((v - 45.0) / 30.0, 0.0, 1.0)
    if float(weight.sum()) < 4.0:
        return None
    strong = weight >= 0.5
    hues = hsv[..., 0][strong] if strong.any() else hsv[..., 0][weight > 0]
    # the median on the circle of hues: reds straddle 0
    angle = np.deg2rad(hues * 2.0)
    hue = float(np.rad2deg(np.arctan2(np.sin(angle).mean(), np.cos(angle).mean())) / 2.0) % 180.0
    return weight * (_hue_distance(hsv[..., 0], hue) <= HUE_NEAR), hue


def _turn_ink(rgb: np.ndarray, tiles: Sequence[LabelledTile], colour: str, to_hue: float, value: float) -> np.ndarray:
    """The ``colour`` tiles' inks turned to ``to_hue``, their brightness times ``value``."""
    out = rgb.copy()
    for region, hsv in _regions(rgb, tiles, colour):
        ink = _coloured_ink(hsv)
        if ink is None:
            continue
        weight, hue = ink
        turn = ((to_hue - hue + 90.0) % 180.0) - 90.0  # the shorter way round
        new = hsv.copy()
        new[..., 0] = (hsv[..., 0] + weight * turn) % 180.0
        new[..., 2] = np.clip(hsv[..., 2] * (1.0 + weight * (value - 1.0)), 0, 255)
        turned = cv2.cvtColor(np.round(new).clip(0, [179, 255, 255]).astype(np.uint8), cv2.COLOR_HSV2RGB)
        # only the ink: HSV and back moves other pixels by a level
        out[region] = np.where(weight[..., None] > 0, turned, rgb[region])
    return out


def _grey_ink(rgb: np.ndarray, tiles: Sequence[LabelledTile]) -> np.ndarray:
    """The black tiles' inks lightened to a dark grey: each ink pixel's value raised toward ``GREY_INK``."""
    out = rgb.copy()
    for region, hsv in _regions(rgb, tiles, "K"):
        v, s = hsv[..., 2], hsv[..., 1]
        weight = np.clip((np.median(v) - v - 25.0) / 60.0, 0.0, 1.0) * (s < np.median(s) + 60.0)
        lift = weight * np.clip(GREY_INK - v, 0.0, None) * 0.8
        part = out[region].astype(np.float32) + lift[..., None]
        out[region] = np.clip(part, 0, 255).astype(np.uint8)
    return out


def _all(rgb: np.ndarray, tiles: Sequence[LabelledTile]) -> np.ndarray:
    out = _turn_ink(rgb, tiles, "B", TEAL_HUE, 1.05)
    out = _turn_ink(out, tiles, "O", YELLOW_HUE, 1.15)
    out = _turn_ink(out, tiles, "R", CRIMSON_HUE, 0.85)
    return _grey_ink(out, tiles)


def _upside_down(rgb: np.ndarray, tiles: Sequence[LabelledTile]) -> np.ndarray:
    """Every labelled tile whose box no other box overlaps turned half round in place, as a player lays a tile upside
    down: a box turned half round about its centre is the same box, so the tile stays where its label says. Boxes
    that overlap (a meld laid at a slant) are left, since turning one would turn part of its neighbour."""
    out = rgb.copy()
    boxes = [tuple(int(round(v)) for v in t.box) for t in tiles]
    overlaps = box_iou(np.asarray(boxes), np.asarray(boxes)) > 0
    np.fill_diagonal(overlaps, False)
    h, w = rgb.shape[:2]
    for k, (x1, y1, x2, y2) in enumerate(boxes):
        if x1 < 0 or y1 < 0 or x2 > w or y2 > h or x2 - x1 < 4 or y2 - y1 < 4 or overlaps[k].any():
            continue
        out[y1:y2, x1:x2] = rgb[y1:y2, x1:x2][::-1, ::-1]
    return out


EDITIONS: dict[str, TilesChange] = {
    "teal": lambda rgb, tiles: _turn_ink(rgb, tiles, "B", TEAL_HUE, 1.05),
    "yellow": lambda rgb, tiles: _turn_ink(rgb, tiles, "O", YELLOW_HUE, 1.15),
    "crimson": lambda rgb, tiles: _turn_ink(rgb, tiles, "R", CRIMSON_HUE, 0.85),
    "grey": _grey_ink,
    "edition": _all,
    "upside": _upside_down,
}


def row(name: str, r: EvalReport, base: EvalReport | None) -> str:
    """One line: tiles found, read exactly, number and colour right, sure, sure but wrong, errors flagged."""
    def share(part: int, whole: int) -> float:
        return part / whole if whole else 0.0

    cells = [f"{name:<8}", f"{100 * share(r.matched, r.labelled):6.1f}%", f"{100 * share(r.exact, r.labelled):6.1f}%",
             f"{100 * r.number_accuracy:6.1f}%", f"{100 * r.colour_accuracy:6.1f}%", f"{100 * share(r.sure, r.matched):6.1f}%",
             f"{r.sure_wrong:5d} ({100 * share(r.sure_wrong, r.sure):4.1f}%)",
             f"{100 * (share(r.wrong_flagged, r.wrong) if r.wrong else 1.0):6.1f}%"]
    if base is not None:
        cells.append(f"{share(r.exact, r.labelled) / share(base.exact, base.labelled) if base.exact else 0:5.2f}")
    return "  ".join(cells)


def main() -> None:
    args, wanted = bench_args(__doc__.splitlines()[0], list(EDITIONS), "edition")

    def copy(name: str, folder: Path) -> Path:
        return changed_copy(args.dataset, args.split, as_taken, folder, args.limit, tiles_change=EDITIONS[name])

    header = (f"{'':<8}  {'found':>7}  {'exact':>7}  {'number':>7}  {'colour':>7}  {'sure':>7}  {'sure, wrong':>12}"
              f"  {'flagged':>7}  exact ratio")
    run_bench(args, wanted, header, row, copy)


if __name__ == "__main__":
    main()
