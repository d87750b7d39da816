"""A photo saved mirrored, left to right: some phones' front cameras save what their screen showed.

Every number on a mirrored photo is printed backwards. The crop classifier learnt tiles at every angle, and a
backwards digit is often another digit's look to it (a 2 a 5, a 7 a 1, a 6 an 8): it reads a mirrored photo about
as surely as one as taken, and wrongly. Its own confidence does not tell the two apart. The number recogniser
reads printed text, and backwards text reads to it as no number, or as a number less surely. So the recogniser is
asked about a few of the photo's tiles once more, each mirrored: where it reads their numbers more surely mirrored
than as taken (``mirror_gap`` below 0), the photo is read again mirrored back, and that reading kept where it has
more tiles sure (and at least ``KEEP_SURE``); where it reads clearly better mirrored (``CLEARLY``) but no surer
mirrored back, its tiles are doubtful (``held_mirrored``). A photo whose numbers the recogniser already reads
surely as taken (the mean log of each tile's likeliest number's probability ``SURE_READ`` or more) is no mirrored
photo, and its tiles are not asked again: on a mirrored photo most numbers (all but the 1s, 8s and 11s) read
backwards.

The tiles asked are the largest found (their numbers drawn with the most pixels); a tile whose number reads alike
mirrored (an 8, an 11, a joker's face) weighs about nothing either way.
"""

from __future__ import annotations

import dataclasses
from typing import Callable, Sequence

import cv2
import numpy as np

from vision.fusion import NO_NUMBER
from vision.types import MIRRORED, Image, PhotoReading

SAMPLE = 6  # the tiles asked once more, mirrored: the largest found
# ... and a photo with fewer tiles found is not asked about: a tile or two say nothing of which way round a photo
# is, and a photo with few found is most often one the detector reads badly for another reason (a rack standing
# sideways, its standing tiles missed), whose reading mirrored back may find more tiles and be surer by chance
MIN_SAMPLE = 3
# the reading mirrored back is kept only with this many tiles sure or more (and more than as taken): one sure tile,
# where none is sure as taken, is no evidence of which way round a photo is (a 1 or an 8 reads alike both ways)
KEEP_SURE = 2
# a photo whose sample reads this much more surely mirrored (a mean log gap; a factor of 1.6 in probability) is
# clearly mirrored: where reading it mirrored back makes no more tiles sure, its tiles as taken are doubtful
# (MIRRORED) rather than shown as sure: a backwards 6 or 3 reads as an 8 to both readers. Chosen on the calibration
# renders as taken and mirrored (models/HISTORY.md)
CLEARLY = -0.5
FLOOR = 1e-6  # a number probability below this counts as this (a log's floor)
# a photo whose tiles' numbers the recogniser reads as taken at a mean log probability this high or higher (a
# geometric mean of 0.74) is not asked about mirrored: backwards numbers hardly ever read that surely (chosen on the
# calibration renders mirrored, models/HISTORY.md)
SURE_READ = -0.3


def mirrored(image: Image) -> Image:
    """``image`` mirrored left to right, pixel for pixel (same path)."""
    return Image(cv2.flip(np.ascontiguousarray(image.rgb), 1), image.path)  # numpy's own flip copies far slower


def mirrored_box(box: Sequence[float], width: float) -> tuple[float, float, float, float]:
    """A box on a photo ``width`` wide, on that photo mirrored left to right (its own mirror image's box)."""
    x1, y1, x2, y2 = (float(v) for v in box)
    return width - x2, y1, width - x1, y2


def mirrored_back(reading: PhotoReading) -> PhotoReading:
    """A reading of a photo mirrored left to right, on the photo as taken: its boxes mirrored back, and
    ``mirrored`` saying how it was read."""
    tiles = [dataclasses.replace(t, box=mirrored_box(t.box, reading.width)) for t in reading.tiles]
    return dataclasses.replace(reading, tiles=tiles, mirrored=True)


def sample(boxes: Sequence[Sequence[float]], n: int = SAMPLE) -> list[int]:
    """The indices of the ``n`` largest boxes, largest first (ties by index)."""
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    area = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    return [int(i) for i in np.argsort(-area, kind="stable")[:n]]


def mirror_gap(as_taken: np.ndarray, mirrored_rows: np.ndarray) -> float:
    """How much more surely the recogniser reads the same tiles' numbers as taken than mirrored: the mean, over the
    tiles, of the log of its likeliest number's probability as taken less that mirrored ((N, 14) rows each, the last
    column "no number"). Below 0 the photo reads better mirrored; 0 for no tiles."""
    a = np.asarray(as_taken, dtype=np.float64).reshape(-1, NO_NUMBER + 1)
    m = np.asarray(mirrored_rows, dtype=np.float64).reshape(-1, NO_NUMBER + 1)
    if a.shape != m.shape:
        raise ValueError(f"{len(a)} tiles read as taken but {len(m)} mirrored")
    if not len(a):
        return 0.0
    return float((_top_log(a) - _top_log(m)).mean())


def _top_log(rows: np.ndarray) -> np.ndarray:
    """The log of each row's likeliest number's probability ((N, 14) rows, the last "no number"), floored."""
    return np.log(np.maximum(np.asarray(rows, dtype=np.float64)[:, :NO_NUMBER].max(1), FLOOR))


def reads_surely(as_taken: np.ndarray) -> bool:
    """Does the recogniser read the photo's numbers surely as taken ((N, 14) answers; ``SURE_READ``)? Then it is no
    mirrored photo."""
    rows = np.asarray(as_taken, dtype=np.float64).reshape(-1, NO_NUMBER + 1)
    return bool(len(rows)) and float(_top_log(rows).mean()) >= SURE_READ


def better_mirrored(image: Image, boxes: Sequence[Sequence[float]], as_taken: np.ndarray,
                    read: Callable[[np.ndarray, np.ndarray], np.ndarray]) -> tuple[Image, float] | None:
    """The photo mirrored, and the gap (``mirror_gap``, below 0), where it reads better so; else None. ``boxes``: its
    tiles, and ``as_taken`` the recogniser's (N, 14) answers on them; ``read(rgb, boxes)`` asks it about boxes on
    another photo. Unless the numbers read surely as taken, the largest tiles are asked again on the photo
    mirrored."""
    picked = sample(boxes)
    if len(picked) < MIN_SAMPLE or reads_surely(as_taken):
        return None
    back = mirrored(image)
    again = read(back.rgb, np.array([mirrored_box(boxes[i], image.width) for i in picked], dtype=np.float64))
    gap = mirror_gap(np.asarray(as_taken)[picked], again)
    return (back, gap) if gap < 0 else None


def held_mirrored(reading: PhotoReading) -> PhotoReading:
    """``reading`` with every tile not yet doubtful doubtful, for the reason that the photo may be mirrored."""
    tiles = [t if t.doubtful else dataclasses.replace(t, doubtful=True, doubt=MIRRORED) for t in reading.tiles]
    return dataclasses.replace(reading, tiles=tiles)
