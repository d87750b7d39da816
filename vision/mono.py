"""A photo with no colour to read: taken with a black-and-white or sepia filter, faded, or passed on in grey.

Both readers name a tile's colour anyway (a grey or brown ink looks black to them), each surely: on such a photo
most tiles would be read black, and shown as sure. A tile's colour cannot be read from a photo that holds none, so
the reader shows every numbered tile of it as doubtful, and says why.

Such a filter gives each pixel a colour that depends on its brightness alone: grey for black and white, brown
shading to cream for sepia, any tint for a toned print. So a photo holds no colour to read where, at each
brightness, its pixels share one tint: the colour beyond that tint (``off_tint``) stays within a photo's noise
and the blur of its edges. A colour photo of tiles holds inks of three colours beside the black, and its tiles
stand far off any one tint; only tiles that are all black come near, seen on a table of no colour of its own, and
such tiles are black anyway. A frame of one flat tone shows nothing and is not judged.

The tiles are asked first (their boxes hold the inks, which a photo's few tiles leave to a small share of its
pixels); the whole photo is asked only where they share one tint, so that black tiles on a coloured table are not
taken for a filter.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class MonoSettings:
    """When a photo counts as having no colour to read."""

    # grey: the chroma (0-255) that all but the most colourful ``1 - share`` of the pixels stay within: grey photos
    # stay at 0-2 (a JPEG's rounding), colour photos of tiles reach 19 or more at this share
    max_chroma: float = 8.0
    share: float = 0.999
    side: int = 512  # the photo is looked at shrunk to this long side (pixels averaged): noise averages out
    min_contrast: float = 16.0  # a photo whose brightness spans less than this (0-255) shows nothing to judge
    # one tint: the colour (0-255) beyond each brightness's tint that the tiles' pixels stay within, all but the
    # ``1 - tile_share`` farthest; and that the photo's, all but the ``1 - share`` farthest. A filter's pixels stand
    # off it only where its clipped light blurs into a dark ink, inks of colour far more (the bounds' evidence:
    # models/HISTORY.md)
    max_tiles_off_tint: float = 23.0
    tile_share: float = 0.995
    tile_side: int = 48  # each tile is looked at shrunk to this long side
    max_photo_off_tint: float = 30.0
    # and the tiles' pixels that stand well off it stand off one way (``off_one_way``): a filter's do, faint inks of
    # several colours do not
    max_tiles_off_one_way: float = 10.0
    levels: int = 32  # brightness steps, each with a tint of its own

    def __post_init__(self) -> None:
        for name in ("share", "tile_share"):
            if not 0 < getattr(self, name) < 1:
                raise ValueError(f"{name} must lie between 0 and 1, got {getattr(self, name)}")
        for name in ("side", "tile_side"):
            if getattr(self, name) < 8:
                raise ValueError(f"{name} must be 8 pixels or more, got {getattr(self, name)}")
        if not 1 <= self.levels <= 256:
            raise ValueError(f"levels must lie between 1 and 256, got {self.levels}")


DEFAULT_MONO = MonoSettings()


def _checked(rgb: np.ndarray) -> np.ndarray:
    if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8 or not rgb.size:
        raise ValueError("the photo must be a non-empty H x W x 3 uint8 RGB array")
    return rgb


def _shrunk(rgb: np.ndarray, side: int) -> np.ndarray:
    h, w = _checked(rgb).shape[:2]
    scale = side / max(h, w)
    if scale >= 1:
        return rgb
    return cv2.resize(rgb, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)


def chroma(rgb: np.ndarray, settings: MonoSettings = DEFAULT_MONO) -> float:
    """The chroma (0-255) that all but the most colourful ``1 - settings.share`` of the photo's pixels stay within."""
    r, g, b = cv2.split(_shrunk(rgb, settings.side))  # per channel: numpy's reduction over a pixel's 3 is slow
    spread = cv2.subtract(cv2.max(cv2.max(r, g), b), cv2.min(cv2.min(r, g), b))
    return float(np.percentile(spread, 100.0 * settings.share))


def _off_tint(pixels: np.ndarray, levels: int) -> np.ndarray:
    """Each pixel's colour beyond the tint that the pixels of its brightness share, (N, 3)."""
    x = np.asarray(pixels, dtype=np.float32).reshape(-1, 3)
    if not len(x):
        raise ValueError("no pixels to judge")
    light = x.mean(axis=1)
    tone = x - light[:, None]  # a pixel's colour apart from its brightness
    level = np.minimum((light * (levels / 256.0)).astype(np.intp), levels - 1)
    count = np.maximum(np.bincount(level, minlength=levels), 1)
    tint = np.stack([np.bincount(level, tone[:, c], minlength=levels) / count for c in range(3)], axis=1)
    return tone - tint[level]


def off_tint(pixels: np.ndarray, share: float, levels: int = DEFAULT_MONO.levels) -> float:
    """How far (0-255, in the farthest channel) the pixels' colour stands off the tint that the pixels of their
    brightness share, for all but the farthest ``1 - share`` of them. ``pixels``: any array of RGB triples."""
    return _far(_off_tint(pixels, levels), share)


def _far(off: np.ndarray, share: float) -> float:
    return float(np.percentile(np.abs(off).max(axis=1), 100.0 * share))


def off_one_way(pixels: np.ndarray, levels: int = DEFAULT_MONO.levels) -> float:
    """How far (0-255) the pixels that stand well off their tint (half as far as the farthest do, or more) stand
    off the one way most of them do, for nine in ten of them. A filter's pixels stand off one way only, where its
    clipped light blurs into a dark ink; inks of two colours, at brightnesses of their own, two ways."""
    return _one_way(_off_tint(pixels, levels))


def _one_way(off: np.ndarray) -> float:
    size = np.abs(off).max(axis=1)
    far = off[size >= 0.5 * np.percentile(size, 99.5)]
    axis = np.linalg.eigh(far.T @ far)[1][:, -1]  # the way most of them stand off
    across = far - (far @ axis)[:, None] * axis[None, :]
    return float(np.percentile(np.abs(across).max(axis=1), 90.0))


def tile_pixels(rgb: np.ndarray, boxes: Sequence[Sequence[float]], side: int = DEFAULT_MONO.tile_side) -> np.ndarray:
    """The pixels inside each box (x1, y1, x2, y2 on the photo), each tile shrunk to ``side`` at most, as (N, 3)."""
    h, w = _checked(rgb).shape[:2]
    parts = []
    for x1, y1, x2, y2 in boxes:
        left, top = max(0, int(x1)), max(0, int(y1))
        right, bottom = min(w, int(np.ceil(x2))), min(h, int(np.ceil(y2)))
        if right <= left or bottom <= top:
            continue
        parts.append(_shrunk(rgb[top:bottom, left:right], side).reshape(-1, 3))
    return np.concatenate(parts) if parts else np.zeros((0, 3), np.uint8)


def colourless(rgb: np.ndarray, boxes: Sequence[Sequence[float]] = (), *, settings: MonoSettings = DEFAULT_MONO) -> bool:
    """Does the photo show a scene but hold no colour to read a tile's by? ``boxes``: its tiles' (x1, y1, x2, y2);
    without them only a grey photo is told."""
    small = _shrunk(rgb, settings.side)
    if chroma(small, settings) > settings.max_chroma:  # a colour photo, unless a filter gave it one tint
        tiles = tile_pixels(rgb, boxes, settings.tile_side)
        if not len(tiles):
            return False
        off = _off_tint(tiles, settings.levels)
        if _far(off, settings.tile_share) > settings.max_tiles_off_tint:
            return False
        if _one_way(off) > settings.max_tiles_off_one_way:  # faint inks of two colours
            return False
        if off_tint(small, settings.share, settings.levels) > settings.max_photo_off_tint:
            return False
    light = small.mean(axis=2)  # asked last: a colour photo, the most read, needs no answer
    return float(np.percentile(light, 99.0) - np.percentile(light, 1.0)) >= settings.min_contrast
