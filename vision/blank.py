"""Face-down tiles: a box whose face shows no ink at all.

The detector finds tiles lying face down too (the pool beside the melds, a tile just drawn), and the labels
list only the tiles face up. Such a box is read as some tile, doubtful, and listed with the tiles face up; one
lying beside a meld can be taken into it.

Every face-up tile has ink: its number, a joker's face, the Twist jokers' marks. A tile's back is plain
plastic. So the inner part of the face (cut along the tile's tilt: ``vision.ocr.box_geometry``, away from
the bevel and the neighbours) is looked at: where even the most different pixels (``SPREAD_AT``, the 97th
percentile of each pixel's CIELAB difference from the face's median colour) differ from the plastic by less
than ``NO_INK``, there is no ink, and the box is no tile face up. The bound was chosen by the labelled tiles and
the face-down tiles of the calibration renders and checked on every other set: backs differ by 6-8 (median), the
faintest labelled tile seen (pale yellow on a grey body, on a dim rack) by 12, half as much again as the bound,
for the editions nobody rendered. A box that reaches the photo's edge is kept whatever it shows: the real
training photos' only labelled tiles under the bound are tiles cut by the photo's top edge, their numbers out
of the frame.
"""

from __future__ import annotations

import cv2
import numpy as np

from .ocr import box_geometry, cut, face_warp

INNER = (0.18, 0.12, 0.82, 0.88)  # of the upright face: left, top, right, bottom
SIDE = 40  # pixels down the inner face, as it is looked at
SPREAD_AT = 97.0
NO_INK = 8.0
EDGE = 2.0  # pixels: a box this near the photo's edge may hold part of a tile


def ink_spread(rgb: np.ndarray, box: np.ndarray) -> float:
    """How far the most different pixels of the inner face lie from its plastic's colour (CIELAB units)."""
    geometry = box_geometry(rgb, box)  # checks the box
    m, width = face_warp(geometry, geometry.angles[0], INNER, SIDE)
    face = cut(rgb, m, (width, SIDE))
    lab = cv2.cvtColor(face, cv2.COLOR_RGB2LAB).astype(np.float32).reshape(-1, 3)
    return float(np.percentile(np.sqrt(((lab - np.median(lab, 0)) ** 2).sum(1)), SPREAD_AT))


def face_up(rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The indices of the boxes whose face shows ink (a tile face up), or that reach the photo's edge, in their
    order: a tile cut by the edge may show only its plain part (its number out of the frame)."""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    h, w = rgb.shape[:2]
    at_edge = (boxes[:, 0] <= EDGE) | (boxes[:, 1] <= EDGE) | (boxes[:, 2] >= w - EDGE) | (boxes[:, 3] >= h - EDGE)
    return np.array([i for i, box in enumerate(boxes) if at_edge[i] or ink_spread(rgb, box) >= NO_INK], dtype=int)
