"""A box on part of a tile grown to the tile's face.

On a close-up (a rack photographed from a hand's width, its tiles far larger than most the detector learnt
from), and on editions whose big digit sits on a plain face, the detector can box a tile's digit, not the
tile. Such a box is no tile for the layout, and the readers cut their windows from it as if it were the face:
the recogniser reads half a digit, the classifier a crop it never saw.

A tile's face is plastic of one colour around its ink, ending at the tile's edge. So, for each box: its
colour is the median of the pixels inside it (the plastic outnumbers the ink even in a box drawn round the
digit). Only a box whose colour goes on past its top or its foot, and one side (``continues``), is looked at
further: a box on a whole tile has the table or the rack above and below it (tiles side by side in a row share
their colour across the joints, not across the row's edges), while a box drawn from a standing tile's top edge
down to its digit's foot, short of the maker's mark, has the plastic below it only. Around such a box, the
pixels of about that colour, cut apart where the photo has an edge (the line between two tiles side by side),
are joined into regions; the region holding most of the box's own pixels is its face. The box grows to that
region's bounds only where the region is plainly one tile's face:

- it is at least ``GROW_MIN`` and at most ``GROW_MAX`` times the box's area (a box already on its tile stays
  as it is), and holds nearly all of the box (``KEEP_IN``);
- it ends inside the window looked at (a face that runs on to the window's edge is the table or a row of
  tiles of the same colour, not a tile);
- it fills its turned bounding rectangle (``FILL``), whose shape is a tile's, upright or foreshortened
  (``ASPECT``);
- it takes in no other box's tile (``OTHER`` of that box), other than a box lying inside the one grown (a
  second box on the same digit).

A grown box that is another box's tile again is then dropped by ``vision.outline.one_per_tile``.
"""

from __future__ import annotations

import cv2
import numpy as np

from .metrics import box_within

SPREAD = 2.0  # a pixel is of the face's colour within this many times the box's median colour difference ...
MIN_TOLERANCE = 8.0  # ... and never less than this (CIELAB units, 0-255 scale)
# continues: a coarse look, about LOOK pixels along the median box's longer side; the strips just outside a box
# are BAND of its width or height deep, and the colour goes on past a side where NEAR_SHARE of its strip has it
LOOK = 16
BAND = 0.15
NEAR_SHARE = 0.5
# face_box: the window looked at is the box and MARGIN of its longer side around it, at SIDE pixels along the
# box's longer side (a fixed size keeps the cost flat)
MARGIN = 0.8
SIDE = 64
EDGES = (15, 45)  # Canny's thresholds for the lines that part a face from its neighbours
GROW_MIN, GROW_MAX = 1.4, 6.0
KEEP_IN = 0.85
FILL = 0.6  # a face's region is broken where glare or a rack's lip lies on it: it need not fill its rectangle
ASPECT = (0.4, 1.0)  # short side / long side of the face's turned rectangle
OTHER = 0.3
SAME_DIGIT = 0.8  # another box this much inside the box grown is a second box on its digit, not another tile


def face_box(rgb: np.ndarray, box: np.ndarray, others: np.ndarray) -> np.ndarray | None:
    """The box grown to the face of the tile it lies on, or None where it stays as it is.

    rgb: the photo; box: (4,) x1 y1 x2 y2; others: (M, 4) the photo's other boxes."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    if not (w >= 1 and h >= 1):
        raise ValueError(f"box {tuple(box)}: a box needs a positive width and height")
    H, W = rgb.shape[:2]
    m = MARGIN * max(w, h)
    X1, Y1 = max(0, int(x1 - m)), max(0, int(y1 - m))
    X2, Y2 = min(W, int(np.ceil(x2 + m))), min(H, int(np.ceil(y2 + m)))
    s = SIDE / max(w, h)
    rw, rh = int(round((X2 - X1) * s)), int(round((Y2 - Y1) * s))
    if rw < 8 or rh < 8:
        return None
    small = cv2.resize(rgb[Y1:Y2, X1:X2], (rw, rh), interpolation=cv2.INTER_AREA)
    lab = cv2.cvtColor(small, cv2.COLOR_RGB2LAB).astype(np.float32)
    bx1, by1 = int(round((x1 - X1) * s)), int(round((y1 - Y1) * s))
    bx2, by2 = max(bx1 + 1, int(round((x2 - X1) * s))), max(by1 + 1, int(round((y2 - Y1) * s)))
    inside = lab[by1:by2, bx1:bx2].reshape(-1, 3)
    if len(inside) < 16:
        return None
    colour, tolerance = _tolerance(inside)
    mask = (np.sqrt(((lab - colour) ** 2).sum(2)) < tolerance).astype(np.uint8)
    mask[cv2.Canny(cv2.cvtColor(small, cv2.COLOR_RGB2GRAY), *EDGES) > 0] = 0
    # a thin bridge of plastic-coloured pixels (a faint joint) joins no two faces
    kernel = np.ones((3, 3), np.uint8)
    count, regions = cv2.connectedComponents(cv2.erode(mask, kernel), connectivity=4)
    held = np.bincount(regions[by1:by2, bx1:bx2].ravel(), minlength=count)
    held[0] = 0
    k = int(np.argmax(held))
    if held[k] == 0:
        return None
    region = cv2.dilate((regions == k).astype(np.uint8), kernel)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    contour = max(contours, key=cv2.contourArea)  # its outer edge: the digit's hole inside it counts as face
    gx, gy, gw, gh = cv2.boundingRect(contour)
    if (gx <= 0 < X1) or (gy <= 0 < Y1) or (gx + gw >= rw and X2 < W) or (gy + gh >= rh and Y2 < H):
        return None  # runs on out of the window: no one tile's face
    (_, _), (a, b), _ = cv2.minAreaRect(contour)
    if a * b <= 0 or cv2.contourArea(contour) / (a * b) < FILL or not ASPECT[0] <= min(a, b) / max(a, b) <= ASPECT[1]:
        return None
    grown = np.array([X1 + gx / s, Y1 + gy / s, X1 + (gx + gw) / s, Y1 + (gy + gh) / s])
    if not GROW_MIN <= gw * gh / (s * s * w * h) <= GROW_MAX or box_within(box, grown)[0, 0] < KEEP_IN:
        return None
    others = np.asarray(others, dtype=np.float64).reshape(-1, 4)
    taken = (box_within(others, grown)[:, 0] > OTHER) & (box_within(others, box)[:, 0] < SAME_DIGIT)
    return None if taken.any() else grown


def _tolerance(inside: np.ndarray) -> tuple[np.ndarray, float]:
    """The face's colour (CIELAB) and how far from it a pixel of the face may be, from the pixels in a box."""
    colour = np.median(inside, 0)
    spread = float(np.median(np.sqrt(((inside - colour) ** 2).sum(1))))
    return colour, max(MIN_TOLERANCE, SPREAD * spread)


def coarse_lab(rgb: np.ndarray, step: int) -> np.ndarray:
    """The photo in CIELAB, every ``step``-th pixel each way (float32)."""
    return cv2.cvtColor(np.ascontiguousarray(rgb[::step, ::step]), cv2.COLOR_RGB2LAB).astype(np.float32)


def continues(lab: np.ndarray, step: int, box: np.ndarray) -> bool:
    """Does the colour inside ``box`` go on past its top or its foot, and one of its sides?

    lab: ``coarse_lab(photo, step)``; box: x1 y1 x2 y2 on the photo."""
    h, w = lab.shape[:2]
    x1, y1, x2, y2 = (int(round(float(v) / step)) for v in box)
    x1, y1, x2, y2 = max(0, x1), max(0, y1), min(w, x2), min(h, y2)
    if x2 - x1 < 2 or y2 - y1 < 2:
        return False
    colour, tolerance = _tolerance(lab[y1:y2, x1:x2].reshape(-1, 3))
    bx, by = max(1, int(round(BAND * (x2 - x1)))), max(1, int(round(BAND * (y2 - y1))))
    above, below = lab[max(0, y1 - by):y1, x1:x2], lab[y2:y2 + by, x1:x2]
    left, right = lab[y1:y2, max(0, x1 - bx):x1], lab[y1:y2, x2:x2 + bx]
    above, below, left, right = (
        strip.size > 0 and bool((np.sqrt(((strip - colour) ** 2).sum(2)) < tolerance).mean() >= NEAR_SHARE)
        for strip in (above, below, left, right)
    )
    # tiles side by side in a row share their colour across the joints, not above and below the row; a box from a
    # tile's top edge (or, upside down, its foot) to its digit has the plastic on one of the two only
    return (above or below) and (left or right)


def grow_to_faces(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """(N, 4): each box grown to its tile's face where its colour goes on past its sides (``continues``) and
    the face is plainly one tile's (``face_box``); else as given."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    out = boxes.copy()
    if not len(boxes):
        return out
    step = max(1, int(np.median(np.maximum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]))) // LOOK)
    lab = coarse_lab(rgb, step)
    for i, box in enumerate(boxes):
        if continues(lab, step, box):
            grown = face_box(rgb, box, np.delete(boxes, i, 0))
            if grown is not None:
                out[i] = grown
    return out

