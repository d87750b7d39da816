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
    # an affine map that sends the square around the box to the output square
    m = np.array([[scale, 0, size / 2 - cx * scale], [0, scale, size / 2 - cy * scale]], np.float32)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
    out = cv2.warpAffine(rgb, m, (size, size), flags=interp, borderMode=cv2.BORDER_REPLICATE)
    # keep only the box itself plus the pad: outside it, replicate the box's own edge
    ix1 = int(np.clip(round(size / 2 - bw * (0.5 + pad) * scale), 0, size))
    ix2 = int(np.clip(round(size / 2 + bw * (0.5 + pad) * scale), 0, size))
    iy1 = int(np.clip(round(size / 2 - bh * (0.5 + pad) * scale), 0, size))
    iy2 = int(np.clip(round(size / 2 + bh * (0.5 + pad) * scale), 0, size))
    if ix2 - ix1 >= 2 and iy2 - iy1 >= 2 and (ix1 > 0 or iy1 > 0 or ix2 < size or iy2 < size):
        inner = out[iy1:iy2, ix1:ix2]
        out = cv2.copyMakeBorder(inner, iy1, size - iy2, ix1, size - ix2, cv2.BORDER_REPLICATE)
    return out
