"""One box per tile: the detector's boxes that are a tile again, or that straddle two tiles, dropped.

The detector's boxes are upright rectangles, and so is its own suppression of overlapping boxes. The
upright boxes of tiles laid at a slant (a meld running diagonally across the photo) overlap their
neighbours' by a fifth or more (IoU), so that suppression must let boxes overlap that much to keep every tile;
and so it also keeps a box over the joint of two tiles (half of each) and a second, shifted box on one
tile. Each reads as a tile that is not there: a run 2-3-4-5 comes back 2-3-3-4-5, a meld that fails.

The tile in a box is a turned rectangle: its tilt is measured on the photo and its size follows from the
box (``vision.ocr.box_geometry``). Tiles lying side by side barely overlap as turned rectangles (a little
more near 45 degrees, where a box cannot tell the tile's shape); a second box on a tile overlaps it by half
or more, and a box over a joint overlaps each tile it straddles by a fifth or more. So, only ever dropping a
box weaker (by the detector's score) than the ones that outweigh it, so that each tile's best box stays:

- a box whose outline overlaps a stronger box's outline by ``DUPLICATE`` (IoU) or more is that tile again;
- a box whose outline overlaps the outlines of two stronger boxes by ``STRADDLE`` or more each, where those
  two lie apart (their outlines overlap less than ``APART``), straddles them.

A box kept that still overlaps another's outline by ``SUSPECT`` or more (``overlapped``) is no surer for it: one of
the two may be the same tile again, or lie across two tiles, and which one the boxes cannot say. Both are shown as
doubtful (``vision.types.OVERLAPPING``); their readings are left as they are. So are the two where the rules have
set one of them aside from its meld (``vision.regroup``): the rules keep whichever box leaves the meld most evenly
laid, and that is now and then the box on no tile.

The bounds were chosen by the tiles found and the boxes on no tile of the calibration renders, the unseen
styles and the synthetic test (``models/HISTORY.md``): lower bounds also drop the better of two poor boxes on a
crowded tile, and a straddling box stronger than a tile it lies across is as often the tile's only good box.
"""

from __future__ import annotations

import cv2
import numpy as np

from .metrics import box_iou
from .ocr import box_geometry, outline

DUPLICATE = 0.5
# a box kept that still overlaps another's outline this much may be the same tile again or lie across two: doubtful
SUSPECT = 0.3
STRADDLE = 0.2
APART = 0.2
# pairs of upright boxes overlapping less than this are not measured: an upright box holds its turned tile, and
# holds at most twice its area, so such a pair's outlines hardly reach the bounds above
NEAR = 0.1


def outline_iou(p: np.ndarray, q: np.ndarray) -> float:
    """The IoU of two convex outlines, (4, 2) float32 each."""
    inter, _ = cv2.intersectConvexConvex(p, q)
    union = cv2.contourArea(p) + cv2.contourArea(q) - inter
    return float(inter / union) if union > 0 else 0.0


def overlaps(rgb: np.ndarray, boxes: np.ndarray) -> dict[tuple[int, int], float]:
    """The outline IoU of each pair (i, j), both ways, of boxes whose upright boxes overlap at least ``NEAR``."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    upright = box_iou(boxes, boxes)
    np.fill_diagonal(upright, 0.0)
    near = np.argwhere(np.triu(upright >= NEAR))
    outlines: dict[int, np.ndarray] = {}
    out: dict[tuple[int, int], float] = {}
    for i, j in near:
        for k in (i, j):
            if k not in outlines:
                outlines[k] = outline(box_geometry(rgb, boxes[k]))
        out[(i, j)] = out[(j, i)] = outline_iou(outlines[i], outlines[j])
    return out


def one_per_tile(rgb: np.ndarray, boxes: np.ndarray, scores: np.ndarray) -> np.ndarray:
    """The indices of the boxes to keep, in their order: not those that are another's tile again or straddle two
    tiles. boxes: (N, 4) x1y1x2y2 on ``rgb``; scores: (N,) the detector's."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    score = [float(v) for v in np.asarray(scores, dtype=np.float64).reshape(-1)]
    n = len(boxes)
    if len(score) != n:
        raise ValueError(f"{n} boxes but {len(score)} scores")
    ov = overlaps(rgb, boxes) if n > 1 else {}
    if not ov:
        return np.arange(n)
    neighbours: dict[int, list[int]] = {}
    for i, j in ov:  # both ways round: each box's measured neighbours
        neighbours.setdefault(i, []).append(j)
    order = sorted(range(n), key=lambda k: -score[k])  # strongest first; ties keep the given order
    dropped: set[int] = set()
    for i in order:
        if i in dropped:
            continue
        for j in neighbours.get(i, ()):
            if j not in dropped and score[j] <= score[i] and ov[(i, j)] >= DUPLICATE:
                dropped.add(j)
    for j in reversed(order):  # weakest first: a straddling box is weaker than the tiles it lies across
        if j in dropped:
            continue
        stronger = [i for i in neighbours.get(j, ())
                    if i not in dropped and score[i] > score[j] and ov[(i, j)] >= STRADDLE]
        if any(ov.get((a, b), 0.0) < APART for a in stronger for b in stronger if a < b):
            dropped.add(j)
    return np.array([k for k in range(n) if k not in dropped], dtype=int)


def overlapped(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(N,) bool: does the box's outline overlap another box's by ``SUSPECT`` (IoU) or more?"""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    out = np.zeros(len(boxes), dtype=bool)
    for (i, _), iou in (overlaps(rgb, boxes) if len(boxes) > 1 else {}).items():
        out[i] |= iou >= SUSPECT
    return out
