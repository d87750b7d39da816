"""The photo as a camera that balanced its light would have taken it.

The detector learnt from photos lit nearly white. Under a lamp's yellow light or a window's blue light that the
phone did not balance, a yellow number on grey plastic, or an ivory tile on a pale cloth, stands out less, and
the detector passes over tiles it finds in the same photo taken in white light. The photo's brightest pixels are
mostly the tiles' faces (white, ivory or grey plastic, and glare, which is the light's own colour), so scaling each
colour channel until those are as bright as the brightest one takes most of the light's colour out.

This is a second look for the detector only (``vision.model``): its boxes are added where the first looks found
nothing, and every tile is read on the photo as it was taken, since the classifier and the ink's colour learnt
colours under the light the renders draw.

A cold light is more than a second look can mend. The renders' light is near white, a few percent warm or cold,
and a tile's plastic is white, ivory or grey, never blue; under a shaded window's blue light that the phone did
not balance, the detector, which never saw brightest surfaces bluer than white, passes over whole racks, and a
look at the balanced photo at one size finds too little to add them back. Where the light is cold
(``cold_light``) the balanced photo leads instead: the detector takes all its looks at it, and the photo as taken
only adds what it is sure of.
"""

from __future__ import annotations

import cv2
import numpy as np

BRIGHT = 99.5  # percentile of each channel taken as the colour of the brightest surfaces
SIDE = 512  # the photo is measured shrunk to this long side (the percentile needs no more)
# a channel must gain this much for the photo to be looked at again: most photos lit near white (ivory plastic
# included) stay below it, and on them a second look finds nothing the first did not, at a detector pass's cost
MIN_GAIN = 1.15
# the red channel gaining this much more than the blue one: the brightest surfaces are bluer than white plastic under
# the renders' light, whose colour varies by about 6% (white plastic under a light colder than about one render in
# eight draws; ivory plastic, whose brightest pixels are warm, under a far colder one)
COLD = 1.15


def channel_gains(bgr: np.ndarray) -> np.ndarray:
    """(3,) the factors that bring each channel's brightest pixels (``BRIGHT`` percentile) level with the
    brightest channel's: 1 for that channel, more for the others."""
    if bgr.ndim != 3 or bgr.shape[2] != 3 or bgr.size == 0:
        raise ValueError(f"expected an H x W x 3 photo, got shape {bgr.shape}")
    scale = SIDE / max(bgr.shape[:2])
    small = cv2.resize(bgr, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else bgr
    top = np.percentile(small.reshape(-1, 3).astype(np.float32), BRIGHT, axis=0)
    top = np.maximum(top, 1.0)
    return top.max() / top


def cold_light(gains: np.ndarray) -> bool:
    """Is the light colder than the renders' (``channel_gains``, B G R): does red gain ``COLD`` times what blue does
    or more?"""
    g = np.asarray(gains, dtype=np.float64)
    if g.shape != (3,) or not np.all(g > 0):
        raise ValueError(f"expected three positive channel gains (B G R), got {g.tolist()}")
    return bool(g[2] >= COLD * g[0])


def balanced(bgr: np.ndarray, gains: np.ndarray | None = None) -> np.ndarray | None:
    """The photo with each channel scaled by ``channel_gains`` (uint8, clipped), or None where no channel
    would gain ``MIN_GAIN`` or more: its light is near enough white for the detector already. ``gains``: the
    photo's, where they are measured already."""
    gains = channel_gains(bgr) if gains is None else np.asarray(gains, dtype=np.float64)
    if gains.max() < MIN_GAIN:
        return None
    lut = np.clip(np.arange(256, dtype=np.float32)[:, None] * gains[None, :] + 0.5, 0, 255).astype(np.uint8)
    return cv2.merge([cv2.LUT(bgr[..., c], lut[:, c]) for c in range(3)])
