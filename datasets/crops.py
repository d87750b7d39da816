"""Cutting classifier training crops: the reader's own cut (``vision.crops.crop_tile``) at a box
jittered the way detector boxes are, written as JPEG. Renders, real photos and detector-framed
crops all go through here."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.crops import crop_tile

Box = tuple[float, float, float, float]
CROP_QUALITY = 95


def jittered_box(box: Box, rng: np.random.Generator, sigma: float) -> Box:
    """``box`` with each side moved by a normal shift of ``sigma`` times the box's width or height."""
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    j = rng.normal(0, sigma, 4) * np.array([bw, bh, bw, bh])
    return (x1 + j[0], y1 + j[1], x2 + j[2], y2 + j[3])


def cut(rgb: np.ndarray, box: Box, side: int, rng: np.random.Generator | None = None, sigma: float = 0.0) -> np.ndarray:
    """The tile at ``box`` (jittered when ``rng`` is given) as a ``side`` square RGB crop."""
    return crop_tile(rgb, jittered_box(box, rng, sigma) if rng is not None else box, side)


def save_crop(path: Path, rgb: np.ndarray, quality: int = CROP_QUALITY) -> None:
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise OSError(f"{path}: JPEG encoding failed")
    path.write_bytes(buf.tobytes())
