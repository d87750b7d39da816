"""A tile cut by the photo's edge: part of its face, and perhaps of its number, lies outside the photo.

A tile half out of the frame shows what is left of it: the "1" of a 12 whose "2" is past the edge is a plain
1 to both readers, and they read it surely. Nothing in the box says what is missing; its size does. A tile's
number fills the middle of its face, so a box that touches the photo's edge and is much shorter, across that
edge, than the photo's usual tile has lost more of its face than the margin around the number. Such a tile is
shown as doubtful (``vision.types.CUT_BY_FRAME``); its reading is left as it is.

The photo's usual tile is the median box. With fewer than ``MIN_BOXES`` boxes there is no usual tile to
compare with, and nothing is said.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np

SHORT = 0.7  # a box touching the edge shorter than this share of the median box, across that edge, is cut
MIN_BOXES = 3
EDGE = 0.006  # within this share of the photo's longer side (and at least EDGE_PX pixels) of an edge: touching it
EDGE_PX = 3.0


def cut_by_frame(boxes: Sequence[Sequence[float]] | np.ndarray, width: int, height: int) -> np.ndarray:
    """(N,) bool: does the box touch the photo's edge, and is it cut short across that edge?"""
    if not (width > 0 and height > 0):
        raise ValueError(f"a photo of {width}x{height} pixels has no edges to touch")
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    out = np.zeros(len(b), dtype=bool)
    if len(b) < MIN_BOXES:
        return out
    w, h = b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]
    margin = max(EDGE_PX, EDGE * max(width, height))
    left_right = (b[:, 0] <= margin) | (b[:, 2] >= width - margin)
    top_foot = (b[:, 1] <= margin) | (b[:, 3] >= height - margin)
    out |= left_right & (w < SHORT * np.median(w))
    out |= top_foot & (h < SHORT * np.median(h))
    return out
