"""An independent opinion on one thing only: the colour of a tile's ink, measured on the photo.

The classifier decides a tile's colour (``vision.fusion``), and on an edition it never saw it can be
sure and wrong: a blue it has not learnt read as black. This module looks at the ink itself, with
no learning, so that it fails differently:

* the tile's body is the brightest part of its face; dividing by its colour cancels the light's
  colour and the camera's white balance (a white, ivory or grey body all become white);
* the ink is the share of pixels farthest from that white;
* its colour is a hue angle and a chroma in CIELAB. Only a clear hue gives an opinion: red
  (crimson to scarlet), orange (orange to yellow) or blue (teal to navy). Black ink, and dark
  or blurred ink whose hue cannot be told, give none: a dark blue and a black look alike here,
  so "no colour" is no evidence either way.

The opinion is used to doubt, never to decide (``ink_disagrees``): a tile read as black whose ink
is clearly blue, or read as red whose ink is clearly orange, is shown as doubtful, so that the one
mistake people named (blue read as black, with high confidence) is put in front of them. The hue
sectors and chroma floors were chosen on rendered photos in the training and calibration styles and
on the real training photos, never on held-out photos.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import cv2
import numpy as np

# the colours an ink opinion can name (black is never named: see the module's docstring)
RED, ORANGE, BLUE = "R", "O", "B"
# for a tile read in the key's colour: the ink opinions that contradict it
CONTRADICTS: dict[str, str] = {"K": BLUE, "B": RED + ORANGE, "R": ORANGE + BLUE, "O": RED + BLUE}


@dataclass(frozen=True)
class InkSettings:
    margin: float = 0.12  # of the box trimmed off each side: neighbours and the table stay out
    side: int = 48  # the face is shrunk to at most this many pixels on its long side first
    body_share: float = 0.3  # the brightest pixels taken as the tile's body
    ink_share: float = 0.12  # the pixels farthest from the body's white taken as ink
    # hue sectors in CIELAB degrees, [from, to) going round
    red: tuple[float, float] = (320.0, 35.0)
    orange: tuple[float, float] = (60.0, 130.0)
    blue: tuple[float, float] = (180.0, 300.0)
    warm_chroma: float = 18.0  # red and orange need at least this chroma
    blue_chroma: float = 14.0  # blue is darker, so it shows less of it


DEFAULT_INK = InkSettings()


def ink_lab(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = DEFAULT_INK) -> tuple[float, float, float] | None:
    """The ink's colour on one tile, white-balanced on the tile's body, as CIELAB (L, a, b); None
    where the box holds too few pixels to tell."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    m = settings.margin
    top, bottom = int(round(y1 + m * h)), int(round(y2 - m * h))
    left, right = int(round(x1 + m * w)), int(round(x2 - m * w))
    face = rgb[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)]
    if face.shape[0] < 4 or face.shape[1] < 4:
        return None
    scale = settings.side / max(face.shape[:2])
    if scale < 1.0:
        face = cv2.resize(face, (max(int(face.shape[1] * scale), 2), max(int(face.shape[0] * scale), 2)), interpolation=cv2.INTER_AREA)
    px = face.reshape(-1, 3).astype(np.float32) / 255.0
    lum = px.mean(1)
    n_body = max(int(len(px) * settings.body_share), 1)
    body = np.median(px[np.argpartition(-lum, n_body - 1)[:n_body]], axis=0)
    white = np.clip(px / np.maximum(body, 0.05), 0.0, 1.0)
    far = np.linalg.norm(1.0 - white, axis=1)
    n_ink = max(int(len(px) * settings.ink_share), 1)
    ink = white[np.argpartition(-far, n_ink - 1)[:n_ink]].mean(axis=0)
    lab = cv2.cvtColor(ink.reshape(1, 1, 3).astype(np.float32), cv2.COLOR_RGB2Lab)[0, 0]
    return float(lab[0]), float(lab[1]), float(lab[2])


def _in(hue: float, sector: tuple[float, float]) -> bool:
    lo, hi = sector
    return (hue >= lo or hue < hi) if lo > hi else lo <= hue < hi


def ink_colour(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = DEFAULT_INK) -> str | None:
    """``R``, ``O`` or ``B`` where the ink's hue is clear, else None (black, dark or blurred ink)."""
    lab = ink_lab(rgb, box, settings)
    if lab is None:
        return None
    _, a, b = lab
    chroma, hue = float(np.hypot(a, b)), float(np.degrees(np.arctan2(b, a)) % 360.0)
    if chroma >= settings.warm_chroma and _in(hue, settings.red):
        return RED
    if chroma >= settings.warm_chroma and _in(hue, settings.orange):
        return ORANGE
    if chroma >= settings.blue_chroma and _in(hue, settings.blue):
        return BLUE
    return None


def ink_colours(rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray, settings: InkSettings = DEFAULT_INK) -> list[str | None]:
    """The ink opinion on each box (see ``ink_colour``)."""
    return [ink_colour(rgb, box, settings) for box in np.asarray(boxes, dtype=np.float64).reshape(-1, 4)]


def ink_disagrees(codes: Sequence[str], inks: Sequence[str | None]) -> np.ndarray:
    """(N,) True where a tile's ink clearly shows another colour than the one read (jokers: never)."""
    if len(codes) != len(inks):
        raise ValueError(f"{len(codes)} codes but {len(inks)} ink opinions")
    return np.array([ink is not None and ink in CONTRADICTS.get(code[:1], "")
                     for code, ink in zip(codes, inks)], dtype=bool)
