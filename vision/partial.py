"""A box that holds only part of its tile's number: the tile's own ink goes on past its side.

The detector sometimes draws its box round one digit of a big two-digit number, or round half a tile of a
slanted meld: the box over the second "1" of a magenta 11 reads R1, and reads it surely, since what it holds
is a plain 1. Nothing inside the box says so. Beside it, though, the tile goes on: the same plastic, and on it
ink of the same colour as the box's own, which no other box covers (a neighbour's number lies inside the
neighbour's box). Such a tile is shown as doubtful (``vision.types.PARTIAL``); its reading is left as it is.

Measured on strips beside the box's left and right sides (the middle of its height, where a number is), white-
balanced on the box's own plastic as ``vision.ink`` does: a strip counts where most of it is still plastic
(the face goes on: not the table, the rack or a dark gap) and enough of it is ink of the box's ink colour.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np


@dataclass(frozen=True)
class PartialSettings:
    margin: float = 0.12  # of the box trimmed off each side to find its plastic and ink
    side: int = 48  # the box is looked at shrunk to at most this many pixels on its long side
    body_share: float = 0.3  # the brightest pixels of the box taken as its plastic
    ink_share: float = 0.12  # the pixels farthest from the plastic's white taken as its ink
    strip: float = 0.35  # width of the strip beside each side, of the box's width
    rows: tuple[float, float] = (0.2, 0.8)  # the strip's height, of the box's (where a number is)
    uncovered: float = 0.4  # at least this share of a strip lies in no other box, or it says nothing
    plastic: float = 0.12  # a pixel this near the plastic's white (white-balanced RGB distance) is plastic
    plastic_share: float = 0.3  # at least this share of the uncovered strip is plastic: the face goes on
    ink_near: float = 0.2  # a pixel this near the box's ink colour (white-balanced RGB) is its ink
    ink_far: float = 0.25  # ... and at least this far from the plastic's white
    ink_found: float = 0.06  # this share of the uncovered strip being the box's ink: its number goes on


DEFAULT_PARTIAL = PartialSettings()


def _shrunk(patch: np.ndarray, side: int) -> np.ndarray:
    scale = side / max(patch.shape[:2])
    if scale >= 1.0:
        return patch
    return cv2.resize(patch, (max(int(patch.shape[1] * scale), 2), max(int(patch.shape[0] * scale), 2)),
                      interpolation=cv2.INTER_AREA)


def plastic_and_ink(rgb: np.ndarray, box: Sequence[float], s: PartialSettings = DEFAULT_PARTIAL) -> tuple[np.ndarray, np.ndarray] | None:
    """The box's plastic colour (RGB 0-1) and its ink's colour white-balanced on it; None for a box too small."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    top, bottom = int(round(y1 + s.margin * h)), int(round(y2 - s.margin * h))
    left, right = int(round(x1 + s.margin * w)), int(round(x2 - s.margin * w))
    face = rgb[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)]
    if face.shape[0] < 4 or face.shape[1] < 4:
        return None
    px = _shrunk(face, s.side).reshape(-1, 3).astype(np.float32) / 255.0
    n_body = max(int(len(px) * s.body_share), 1)
    body = np.median(px[np.argpartition(-px.mean(1), n_body - 1)[:n_body]], axis=0)
    white = np.clip(px / np.maximum(body, 0.05), 0.0, 1.0)
    far = np.linalg.norm(1.0 - white, axis=1)
    n_ink = max(int(len(px) * s.ink_share), 1)
    return body, white[np.argpartition(-far, n_ink - 1)[:n_ink]].mean(axis=0)


def goes_on(rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray, s: PartialSettings = DEFAULT_PARTIAL) -> np.ndarray:
    """(N,) bool: does the box's own ink go on past its left or right side, on plastic no other box covers?"""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    height, width = rgb.shape[:2]
    out = np.zeros(len(boxes), dtype=bool)
    for i, box in enumerate(boxes):
        colours = plastic_and_ink(rgb, box, s)
        if colours is None:
            continue
        body, ink = colours
        if np.linalg.norm(1.0 - ink) < s.ink_far:  # no ink to speak of: nothing to follow
            continue
        x1, y1, x2, y2 = box
        bw, bh = x2 - x1, y2 - y1
        top, bottom = int(round(y1 + s.rows[0] * bh)), int(round(y1 + s.rows[1] * bh))
        for a, b in ((x1 - s.strip * bw, x1), (x2, x2 + s.strip * bw)):
            a, b = int(round(max(a, 0.0))), int(round(min(b, width)))
            t, u = max(top, 0), min(bottom, height)
            if b - a < 2 or u - t < 2:
                continue
            covered = np.zeros((u - t, b - a), dtype=bool)
            for j, other in enumerate(boxes):  # a neighbour's number lies in the neighbour's box
                if j == i:
                    continue
                ox1, oy1, ox2, oy2 = (int(round(v)) for v in other)
                cx1, cx2, cy1, cy2 = max(ox1, a) - a, min(ox2, b) - a, max(oy1, t) - t, min(oy2, u) - t
                if cx2 > cx1 and cy2 > cy1:
                    covered[cy1:cy2, cx1:cx2] = True
            if (~covered).mean() < s.uncovered:
                continue
            strip = rgb[t:u, a:b].astype(np.float32) / 255.0
            white = np.clip(strip / np.maximum(body, 0.05), 0.0, 1.0)[~covered]
            far = np.linalg.norm(1.0 - white, axis=1)
            plastic = (far < s.plastic).mean()
            same_ink = ((np.linalg.norm(white - ink, axis=1) < s.ink_near) & (far >= s.ink_far)).mean()
            if plastic >= s.plastic_share and same_ink >= s.ink_found:
                out[i] = True
                break
    return out
