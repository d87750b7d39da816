"""The photo by its darkest channel, for one more look of the detector.

The detector learnt inks of a few shades (blue, red, orange, black) and keys on how much darker the number is
than its tile. A yellow or amber ink is nearly as bright as white or grey plastic, and the detector passes over
such tiles that it finds when the same tile's ink is orange. In every colour channel but its darkest, a tile's ink
may match the plastic; in its darkest channel, every ink Rummikub prints (and Okey's yellow) is far darker than the
plastic, which is light in all three. The photo seen as that channel alone, grey, shows every ink as a dark number
on a light tile.

Like the balanced look (``vision.balance``), this is a look for the detector only (``vision.model``): its boxes are
added where the earlier looks found nothing, and every tile is read on the photo as taken.
"""

from __future__ import annotations

import cv2
import numpy as np


def darkest(bgr: np.ndarray) -> np.ndarray:
    """The photo as three equal channels, each pixel's darkest channel (uint8, H x W x 3)."""
    if bgr.ndim != 3 or bgr.shape[2] != 3 or bgr.size == 0:
        raise ValueError(f"expected an H x W x 3 photo, got shape {bgr.shape}")
    b, g, r = cv2.split(bgr)
    low = cv2.min(cv2.min(b, g), r)  # numpy's min over the channel axis is ten times slower
    return cv2.merge([low, low, low])
