"""Cutting one tile out of a photo for the crop classifier (the same cut in training and reading)."""

from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 64  # the classifier's input, pixels
PAD = 0.06  # context kept around the detector's box, as a fraction of its size


def crop_tile(rgb: np.ndarray, box: tuple[float, float, float, float], size: int = CROP_SIZE, pad: float = PAD) -> np.ndarray:
    """The tile in ``box`` (x1, y1, x2, y2) as a size x size RGB square, centred, aspect kept.

    The box is grown by ``pad`` on each side, then the longer side is fitted into the square; the rest
    is filled by replicating the border (no black bars the classifier could learn from).
    """
    h, w = rgb.shape[:2]
    x1, y1, x2, y2 = box
    bw, bh = max(1.0, x2 - x1), max(1.0, y2 - y1)
    side = max(bw, bh) * (1 + 2 * pad)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    scale = size / side
    # A warp samples the photo at one point per output pixel (it has no INTER_AREA): shrinking a big tile, it would
    # keep one photo pixel in several and alias the digit's edges. So a big tile is cut at a whole multiple of the
    # output's size, no smaller than the tile, and that is shrunk with its pixels' areas averaged.
    f = max(1, int(np.ceil(1.0 / scale - 1e-6)))
    big = size * f
    # output pixel u averages the cut's pixels f u .. f u + f - 1, centred on f u + (f - 1) / 2
    t = big / 2 + (f - 1) / 2
    m = np.array([[scale * f, 0, t - cx * scale * f], [0, scale * f, t - cy * scale * f]], np.float32)
    out = cv2.warpAffine(rgb, m, (big, big), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if f > 1:
        out = cv2.resize(out, (size, size), interpolation=cv2.INTER_AREA)
    # keep only the box itself plus the pad: outside it, replicate the box's own edge
    ix1 = int(np.clip(round(size / 2 - bw * (0.5 + pad) * scale), 0, size))
    ix2 = int(np.clip(round(size / 2 + bw * (0.5 + pad) * scale), 0, size))
    iy1 = int(np.clip(round(size / 2 - bh * (0.5 + pad) * scale), 0, size))
    iy2 = int(np.clip(round(size / 2 + bh * (0.5 + pad) * scale), 0, size))
    if ix2 - ix1 >= 2 and iy2 - iy1 >= 2 and (ix1 > 0 or iy1 > 0 or ix2 < size or iy2 < size):
        inner = out[iy1:iy2, ix1:ix2]
        out = cv2.copyMakeBorder(inner, iy1, size - iy2, ix1, size - ix2, cv2.BORDER_REPLICATE)
    return out
