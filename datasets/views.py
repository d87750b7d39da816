"""More views of each real tile for the crop classifier: turned, reframed, shrunk and re-photographed.

The real training series has about 1350 tiles. Each is seen by the classifier at the angle, size and
framing of its one photo, and the committed classifier turned out brittle to exactly those: a box a
few pixels off could turn a clear 12 into a 13. ``tile_views`` cuts many crops of one labelled tile:

- turned about its centre by a quarter turn (0/90/180/270 degrees, exact) plus a small tilt, with the
  box recomputed around the turned tile (so the framing is what a detector would draw);
- the box jittered on each side, as detector boxes are;
- with probability ``p_shrink`` the tile shrunk to a long side of 28-90 px first (a farther camera);
- then the phone's blur, noise, tone and JPEG (``datasets.synth.photo.phone``, albumentations).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from datasets.crops import cut
from datasets.synth.photo import phone


@dataclass(frozen=True)
class ViewSettings:
    size: int = 72  # stored crop side (the classifier's training pipeline resizes to its input)
    tilt_deg: float = 12.0  # the small extra turn, uniform in +-tilt_deg
    jitter: float = 0.05  # standard deviation of each box side's shift, as a fraction of the box
    p_shrink: float = 0.4
    shrink_px: tuple[float, float] = (28.0, 90.0)
    p_phone: float = 0.7


def turned_box(box: tuple[float, float, float, float], angle_deg: float) -> tuple[float, float, float, float]:
    """The axis-aligned box around ``box`` turned by ``angle_deg`` about its centre.

    A labelled box is the bounding box of a tile that may already stand at an angle; turning all four
    corners overestimates such a tile, so the growth beyond the exact quarter-turn box is halved.
    """
    x1, y1, x2, y2 = box
    cx, cy, w, h = (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1
    quarter = int(round(angle_deg / 90.0)) % 2
    bw, bh = (h, w) if quarter else (w, h)
    a = np.deg2rad(angle_deg)
    c, s = abs(np.cos(a)), abs(np.sin(a))
    full_w, full_h = w * c + h * s, w * s + h * c
    nw, nh = bw + (full_w - bw) / 2, bh + (full_h - bh) / 2
    return cx - nw / 2, cy - nh / 2, cx + nw / 2, cy + nh / 2


def tile_view(rgb: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator,
              settings: ViewSettings = ViewSettings()) -> np.ndarray:
    """One augmented crop (``settings.size`` square, RGB) of the tile in ``box``."""
    x1, y1, x2, y2 = box
    w, h = max(1.0, x2 - x1), max(1.0, y2 - y1)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    # work on a patch around the tile so that turning it is cheap
    r = 0.9 * float(np.hypot(w, h))
    px1, py1 = int(max(0, np.floor(cx - r))), int(max(0, np.floor(cy - r)))
    px2, py2 = int(min(rgb.shape[1], np.ceil(cx + r))), int(min(rgb.shape[0], np.ceil(cy + r)))
    patch = rgb[py1:py2, px1:px2]
    local = (x1 - px1, y1 - py1, x2 - px1, y2 - py1)

    if rng.random() < settings.p_shrink:
        target = rng.uniform(*settings.shrink_px)
        f = min(1.0, target / max(w, h))
        if f < 1.0:
            patch = cv2.resize(patch, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
            local = tuple(v * f for v in local)

    angle = 90.0 * int(rng.integers(4)) + rng.uniform(-settings.tilt_deg, settings.tilt_deg)
    lcx, lcy = (local[0] + local[2]) / 2, (local[1] + local[3]) / 2
    ph, pw = patch.shape[:2]
    m = cv2.getRotationMatrix2D((lcx, lcy), angle, 1.0)
    # enlarge the canvas so nothing is cut: the turned patch is at most its diagonal wide
    side = int(np.ceil(np.hypot(pw, ph)))
    m[0, 2] += side / 2 - lcx
    m[1, 2] += side / 2 - lcy
    turned = cv2.warpAffine(patch, m, (side, side), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101)
    lw, lh = local[2] - local[0], local[3] - local[1]
    tb = turned_box((side / 2 - lw / 2, side / 2 - lh / 2, side / 2 + lw / 2, side / 2 + lh / 2), angle)
    view = cut(turned, tb, settings.size, rng, settings.jitter)  # the box jittered as a detector's is
    if rng.random() < settings.p_phone:
        view = phone(view, int(rng.integers(2**31)))
    return view
