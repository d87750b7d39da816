"""A rack photographed sideways (its tiles standing one above another in the photo) or upside down.

A phone held flat, or an app that drops the photo's orientation tag, hands over a rack photo turned a quarter.
Tiles lying on a table are read at any angle, but the tiles standing on a rack are found and read the photo's way
up (the detector learnt them standing upright, and the number reader reads the photo's up first): turned a
quarter, the reader finds fewer of them, at worst nearly none. The rack's own shape says it is turned: the tiles of
a tier touch their neighbours side by side, along the tier, so a photo whose touching tiles mostly lie one above
another shows a rack standing sideways, to be read turned upright. Which quarter turn stands it upright, the number
reader says: a tile's number read turned over reads as no number, or (a 6, a 9) no more surely.

A rack photographed upside down (from across the table, or by a phone that got its way up wrong) stands its
tiles on their heads: the number reader reads them surely only turned over (``vision.types.NumberAnswers.ways``),
and the rack is read again turned a half, its tiles in the order their owner sees them.

A table whose rows run down the photo (``vision.layout.rows_run_down``: taken from the table's side, or turned a
quarter) is read turned a quarter clockwise, its way up not asked: its tiles read alike at any angle, but the
layout, a low view's stretch and the detector's foreshortened tiles know rows that run across.

Turns are counted in quarters clockwise; a box is ``(x1, y1, x2, y2)`` in pixels.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.fusion import N_NUMBERS
from vision.types import Image, NumberAnswers, PhotoReading
from vision.upright import TELLING, known_turns

# two boxes touch along a row when they share this much of their height (a column: their width)...
SHARED = 0.6
# ...and lie at most this far apart across it, as a share of the narrower box, overlapping no more than OVERLAP
GAP = 0.3
OVERLAP = 0.5
MIN_PAIRS = 2  # a rack is called sideways on two touching pairs or more one above another, more than side by side
# a rack photo with fewer tiles found is read turned too: turned a quarter, a close-up rack's standing tiles may be
# missed nearly all, leaving too few boxes to show how they stand
FEW_TILES = 5
# a rack read upside down: at least OVER_MIN of its tiles, and OVER_SHARE of those found, read a number surely within
# OVER_WITHIN degrees of turned over (``stands_upside_down``). On a rack upside down most tiles whose number shows its
# way up do (about 8 numbers in 13 show it); on a photo read badly (seen from low down, blurred) a few tiles read
# surely turned over by chance, a 7 as a 2 turned over
OVER_MIN = 3
OVER_SHARE = 0.25
OVER_WITHIN = 40.0


def touching_pairs(boxes: Sequence[Sequence[float]]) -> tuple[int, int]:
    """How many pairs of boxes touch side by side (a row's neighbours) and one above another (a column's)."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    if len(b) < 2:
        return 0, 0
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    i, j = np.triu_indices(len(b), 1)
    across_x = np.minimum(b[i, 2], b[j, 2]) - np.maximum(b[i, 0], b[j, 0])  # overlap (negative: gap) along x
    across_y = np.minimum(b[i, 3], b[j, 3]) - np.maximum(b[i, 1], b[j, 1])
    narrow_w, narrow_h = np.minimum(w[i], w[j]), np.minimum(h[i], h[j])
    side = (across_y > SHARED * narrow_h) & (-across_x < GAP * narrow_w) & (across_x < OVERLAP * narrow_w)
    above = (across_x > SHARED * narrow_w) & (-across_y < GAP * narrow_h) & (across_y < OVERLAP * narrow_h)
    return int(side.sum()), int(above.sum())


def stands_sideways(boxes: Sequence[Sequence[float]]) -> bool:
    """Do a rack's tiles, by their boxes, stand one above another rather than side by side (a photo turned a
    quarter)?"""
    side, above = touching_pairs(boxes)
    return above >= MIN_PAIRS and above > side


def way_up(image: Image, boxes: Sequence[Sequence[float]],
           read_upright: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> int:
    """The quarter turn clockwise (1 or 3) that stands a sideways rack's tiles the right way up: the one under which
    the number reader, reading each tile the photo's way up first (``read_upright(rgb, boxes)``: (N, 14)
    probabilities, the last "no number"), reads its numbers more surely. A number turned over reads as no number,
    or (a 6, a 9) only as surely as the right way up."""
    sureness = {}
    for quarters in (1, 3):
        photo = turned(image, quarters)
        on_it = np.array([turned_box(b, quarters, image.width, image.height) for b in boxes], dtype=np.float64)
        numbers = np.asarray(read_upright(photo.rgb, on_it.reshape(-1, 4)), dtype=np.float64)
        sureness[quarters] = float(numbers[:, :-1].max(1).sum()) if len(numbers) else 0.0
    return 1 if sureness[1] >= sureness[3] else 3


def stands_upside_down(answers: NumberAnswers) -> bool:
    """Does a rack photo stand upside down (taken from across the table, or by a phone that got its way up wrong)?
    More of its tiles read a number surely turned over than upright, ``OVER_MIN`` at least and ``OVER_SHARE`` of the
    tiles found.

    answers: the number reader's on the rack's tiles: the way each lies (``NumberAnswers.ways``, the turn under which
    it reads a number surely, NaN where none does) and its numbers. Only a tile whose likeliest number shows its way
    up counts (``vision.upright.TELLING``): an 8, a 1 or an 11 reads as itself turned over, and a 6 as a 9, under
    either turn as surely, and a rack's few tiles put in upside down are outnumbered by the rest."""
    ways = np.asarray(answers.ways, dtype=np.float64).reshape(-1)
    if not len(ways):
        return False
    numbers = np.asarray(answers.probs, dtype=np.float64).reshape(len(ways), -1)[:, :N_NUMBERS]
    telling = np.isin(np.argmax(numbers, axis=1) + 1, TELLING)
    known = known_turns(ways[telling])
    over = int(np.sum(known > 180.0 - OVER_WITHIN))
    upright = int(np.sum(known < OVER_WITHIN))
    return over >= max(OVER_MIN, OVER_SHARE * len(ways)) and over > upright


# OpenCV's turns, pixel for pixel numpy's rot90, and several times faster on a phone's photo
_ROTATE = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}


def turned(image: Image, quarters: int) -> Image:
    """``image`` turned ``quarters`` quarter turns clockwise, pixel for pixel (same path)."""
    rgb = np.ascontiguousarray(image.rgb)
    q = quarters % 4
    return Image(cv2.rotate(rgb, _ROTATE[q]) if q else rgb, image.path)


def turned_box(box: Sequence[float], quarters: int, width: int, height: int) -> tuple[float, float, float, float]:
    """A box on a ``width`` x ``height`` photo, on that photo turned ``quarters`` quarter turns clockwise."""
    x1, y1, x2, y2 = (float(v) for v in box)
    q = quarters % 4
    if q == 1:
        return height - y2, x1, height - y1, x2
    if q == 2:
        return width - x2, height - y2, width - x1, height - y1
    if q == 3:
        return y1, width - x2, y2, width - x1
    return x1, y1, x2, y2


def turned_back(reading: PhotoReading, quarters: int) -> PhotoReading:
    """A reading of a photo turned ``quarters`` quarter turns clockwise, on the photo as taken: its boxes turned
    back, its size the photo's own, and ``turned`` saying how it was read."""
    back = (4 - quarters % 4) % 4
    width, height = (reading.height, reading.width) if quarters % 2 else (reading.width, reading.height)
    tiles = [dataclasses.replace(t, box=turned_box(t.box, back, reading.width, reading.height)) for t in reading.tiles]
    return dataclasses.replace(reading, width=width, height=height, tiles=tiles, turned=quarters % 4)
