"""A box that holds only part of its tile's number: the tile's own ink goes on past its side.

The detector sometimes draws its box round one digit of a big two-digit number, or round half a tile of a
slanted meld: the box over the second "1" of a magenta 11 reads R1, and reads it surely, since what it holds
is a plain 1. Nothing inside the box says so. Beside it, though, the tile goes on: the same plastic, and on it
ink of the same colour as the box's own, which no other box covers (a neighbour's number lies inside the
neighbour's box). Such a tile is shown as doubtful (``vision.types.PARTIAL``); its reading is left as it is.

Measured on strips beside the box's left and right sides (the middle of its height, where a number is), white-
balanced on the box's own plastic as ``vision.ink`` does: a strip counts where most of it is still plastic
(the face goes on: not the table, the rack or a dark gap) and enough of it is ink of the box's ink colour.

Where the rest of the tile is hidden, or lies under a neighbour's box, no strip shows it. The box's size still
does: tiles lying side by side are drawn about as large, and a box far smaller than the boxes nearest it holds a
piece of a tile (a stroke of an 11 at a rack's end, read R1 as surely as a whole 1), or no tile at all
(``far_smaller``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

from vision.ink import body_and_ink


@dataclass(frozen=True)
class PartialSettings:
    strip: float = 0.35  # width of the strip beside each side, of the box's width
    rows: tuple[float, float] = (0.2, 0.8)  # the strip's height, of the box's (where a number is)
    uncovered: float = 0.4  # at least this share of a strip lies in no other box, or it says nothing
    plastic: float = 0.12  # a pixel this near the plastic's white (white-balanced RGB distance) is plastic
    plastic_share: float = 0.3  # at least this share of the uncovered strip is plastic: the face goes on
    ink_near: float = 0.2  # a pixel this near the box's ink colour (white-balanced RGB) is its ink
    ink_far: float = 0.25  # ... and at least this far from the plastic's white
    ink_found: float = 0.06  # this share of the uncovered strip being the box's ink: its number goes on


DEFAULT_PARTIAL = PartialSettings()


def goes_on(rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray, s: PartialSettings = DEFAULT_PARTIAL) -> np.ndarray:
    """(N,) bool: does the box's own ink go on past its left or right side, on plastic no other box covers?"""
    boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    height, width = rgb.shape[:2]
    out = np.zeros(len(boxes), dtype=bool)
    # a neighbour's number lies in the neighbour's box; a strip lies outside its own box, so any box covering a
    # pixel of it is another's
    in_a_box = np.zeros((height, width), dtype=bool)
    for x1, y1, x2, y2 in boxes:
        in_a_box[max(int(round(y1)), 0):max(int(round(y2)), 0), max(int(round(x1)), 0):max(int(round(x2)), 0)] = True
    for i, box in enumerate(boxes):
        colours = body_and_ink(rgb, box)  # the box's own plastic and ink, as vision.ink finds them
        if colours is None:
            continue
        body, ink = colours
        if np.linalg.norm(1.0 - ink) < s.ink_far:  # no ink to speak of: nothing to follow
            continue
        x1, y1, x2, y2 = box
        bw, bh = x2 - x1, y2 - y1
        t, u = max(int(round(y1 + s.rows[0] * bh)), 0), min(int(round(y1 + s.rows[1] * bh)), height)
        for a, b in ((x1 - s.strip * bw, x1), (x2, x2 + s.strip * bw)):
            a, b = int(round(max(a, 0.0))), int(round(min(b, width)))
            if b - a < 2 or u - t < 2:
                continue
            covered = in_a_box[t:u, a:b]
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


# a box under this share of the area of the boxes nearest it holds a piece of a tile, or none; a whole tile cut
# by the photo's edge, seen end on or partly hidden still shows more of itself than that
FAR_SMALLER = 0.4
NEAREST = 3  # the boxes it is set against, nearest first (by their centres); at least two are needed


def far_smaller(boxes: Sequence[Sequence[float]] | np.ndarray, share: float = FAR_SMALLER, nearest: int = NEAREST) -> np.ndarray:
    """(N,) bool: is the box's area under ``share`` of the median area of the ``nearest`` boxes whose centres lie
    nearest its own? Judged only where two boxes or more lie beside it: one neighbour may be the odd one."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    out = np.zeros(len(b), dtype=bool)
    if len(b) < 3:
        return out
    centres = (b[:, :2] + b[:, 2:]) / 2.0
    areas = np.clip(b[:, 2] - b[:, 0], 0.0, None) * np.clip(b[:, 3] - b[:, 1], 0.0, None)
    apart = np.linalg.norm(centres[:, None] - centres[None], axis=2)
    np.fill_diagonal(apart, np.inf)
    k = min(nearest, len(b) - 1)
    beside = np.argsort(apart, axis=1, kind="stable")[:, :k]
    return areas < share * np.median(areas[beside], axis=1)
