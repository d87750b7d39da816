"""A table photographed from low down, read as though seen from above.

From low down a tile's face is foreshortened: its height shrinks with the sine of the camera's elevation while its
width does not. Neither reader learnt numbers squashed that way (a squashed 7 or 4 reads as a sure 1), and the
detector misses the far tiles, flattest of all. Where a photo's boxes are flat (the median one ``flat_aspect`` or more
times as wide as it is tall; a face seen from above is ``FACE_ASPECT`` as wide as it is tall), the photo is read
stretched in height by as much as makes its median box a face seen from above, and the reading's boxes are squeezed
back to the photo.

A table seen from above whose tiles mostly lie sideways has flat boxes too (1 / ``FACE_ASPECT``, about 1.35 times as
wide as tall), and its numbers come out too wide stretched: the reader reads such a photo both ways and keeps the
reading with more tiles shown as sure (``vision.reader``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

from vision.types import Image

FACE_ASPECT = 0.74  # a tile face's width / height, seen from above (a real tile is about 26 x 35 mm)


@dataclass(frozen=True)
class LowView:
    """When a photo counts as taken from low down, and how far it may be stretched back."""

    flat_aspect: float = 1.2  # the median box's width / height from which the photo is stretched
    max_stretch: float = 3.0  # flatter still (a camera lower than ~20 degrees), the far tiles are lost anyway

    def __post_init__(self) -> None:
        if self.flat_aspect <= FACE_ASPECT:
            raise ValueError(f"flat_aspect must exceed a face's own {FACE_ASPECT}, got {self.flat_aspect}")
        if self.max_stretch < 1:
            raise ValueError(f"max_stretch must be 1 or more, got {self.max_stretch}")

    def stretch(self, boxes: Sequence[Sequence[float]] | np.ndarray) -> float:
        """How many times taller the photo of these (x1, y1, x2, y2) boxes is to be read: 1 where its tiles are seen
        from above (or none were found)."""
        b = np.asarray(boxes, float).reshape(-1, 4)
        if not len(b):
            return 1.0
        aspect = float(np.median((b[:, 2] - b[:, 0]) / np.maximum(b[:, 3] - b[:, 1], 1e-6)))
        if aspect < self.flat_aspect:
            return 1.0
        return float(min(aspect / FACE_ASPECT, self.max_stretch))


def stretched_height(height: int, stretch: float) -> int:
    """The height in pixels of a photo ``height`` tall read ``stretch`` times as tall."""
    if stretch < 1:
        raise ValueError(f"a photo is only ever stretched (1 or more), got {stretch}")
    return max(1, round(height * stretch))


def stretched(image: Image, stretch: float) -> Image:
    """``image`` ``stretch`` times as tall (same width and path)."""
    height = stretched_height(image.height, stretch)
    return Image(cv2.resize(image.rgb, (image.width, height), interpolation=cv2.INTER_LINEAR), image.path)


def squeezed(box: Sequence[float], stretch: float) -> tuple[float, float, float, float]:
    """A box on the photo read ``stretch`` times as tall, on the photo as taken."""
    x1, y1, x2, y2 = (float(v) for v in box)
    return x1, y1 / stretch, x2, y2 / stretch
