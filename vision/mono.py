"""A photo with no colour in it: taken with a black-and-white filter, or passed on in grey.

Both readers name a grey tile's colour anyway (a grey ink looks black to them), each surely: on such a photo every
tile would be read black, and most shown as sure. A tile's colour cannot be read from a photo that holds none, so
the reader shows every numbered tile of it as doubtful, and says why.

A photo holds no colour where even its most colourful pixels are grey: their chroma (the spread between a
pixel's brightest and darkest channel) stays within a photo's noise. A colour photo of a table holds inks,
plastic and table far more colourful than that; only a scene with no colour in it at all (black tiles on a white
table under white light) comes near, and its tiles are black anyway. A frame of one flat tone shows nothing, no
tile either, and is not judged.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class MonoSettings:
    """When a photo counts as having no colour."""

    # the chroma (0-255) that all but the most colourful ``1 - share`` of the pixels stay within: grey photos stay
    # at 0-2 (a JPEG's rounding), colour photos of tiles reach 19 or more at this share
    max_chroma: float = 8.0
    share: float = 0.999
    side: int = 512  # the photo is looked at shrunk to this long side (pixels averaged): noise averages out
    min_contrast: float = 16.0  # a photo whose brightness spans less than this (0-255) shows nothing to judge

    def __post_init__(self) -> None:
        if not 0 < self.share < 1:
            raise ValueError(f"share must lie between 0 and 1, got {self.share}")
        if self.side < 8:
            raise ValueError(f"side must be 8 pixels or more, got {self.side}")


DEFAULT_MONO = MonoSettings()


def _shrunk(rgb: np.ndarray, side: int) -> np.ndarray:
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8 or not rgb.size:
        raise ValueError("the photo must be a non-empty H x W x 3 uint8 RGB array")
    h, w = rgb.shape[:2]
    scale = side / max(h, w)
    if scale >= 1:
        return rgb
    return cv2.resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def chroma(rgb: np.ndarray, settings: MonoSettings = DEFAULT_MONO) -> float:
    """The chroma (0-255) that all but the most colourful ``1 - settings.share`` of the photo's pixels stay within."""
    r, g, b = cv2.split(_shrunk(rgb, settings.side))  # per channel: numpy's reduction over a pixel's 3 is slow
    spread = cv2.subtract(cv2.max(cv2.max(r, g), b), cv2.min(cv2.min(r, g), b))
    return float(np.percentile(spread, 100.0 * settings.share))


def colourless(rgb: np.ndarray, settings: MonoSettings = DEFAULT_MONO) -> bool:
    """Does the photo show a scene but hold no colour (no tile's colour can be read from it)?"""
    small = _shrunk(rgb, settings.side)
    if chroma(small, settings) > settings.max_chroma:  # every colour photo: the rest is asked of grey ones only
        return False
    light = small.mean(axis=2)
    return float(np.percentile(light, 99.0) - np.percentile(light, 1.0)) >= settings.min_contrast
