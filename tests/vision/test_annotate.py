"""vision.annotate: boxes, codes, meld outlines green/red, doubtful tiles orange."""

from __future__ import annotations

import numpy as np

from vision.annotate import DOUBT_COLOUR, INVALID_COLOUR, TILE_COLOUR, VALID_COLOUR, annotate
from vision.reader import Reader
from vision.types import Image


def _count(img: np.ndarray, colour) -> int:
    target = np.array([colour.r, colour.g, colour.b])
    return int((np.abs(img.astype(int) - target).sum(axis=2) < 30).sum())


def test_annotate_draws_melds_and_doubts(table_fixture):
    _, model = table_fixture
    rgb = np.full((480, 640, 3), 128, dtype=np.uint8)
    image = Image(rgb=rgb, path="t.jpg")
    reading = Reader(model=model).read(image)
    out = annotate(image, reading)
    assert out.shape == rgb.shape and out.dtype == np.uint8
    assert (rgb == 128).all()  # the photo itself is untouched
    assert _count(out, VALID_COLOUR) > 100  # melds 1 and 2
    assert _count(out, INVALID_COLOUR) > 50  # meld 3
    assert _count(out, DOUBT_COLOUR) > 50  # O7 and B3
    assert _count(out, TILE_COLOUR) > 100
    # the invalid meld's outline is around its tiles (K5 K6 B8 at y 340-396), not elsewhere
    red_rows = np.nonzero((np.abs(out.astype(int) - [230, 30, 30]).sum(axis=2) < 30).any(axis=1))[0]
    assert red_rows.min() > 280 and red_rows.max() < 420


def test_annotate_scales_and_handles_no_tiles(table_fixture):
    _, model = table_fixture
    empty = Image(rgb=np.zeros((50, 80, 3), dtype=np.uint8))
    reading = Reader(model=type(model)([])).read(empty)
    assert (annotate(empty, reading) == 0).all()
    big = Image(rgb=np.zeros((1920, 2560, 3), dtype=np.uint8))
    reading = Reader(model=model).read(big)
    out = annotate(big, reading)
    assert out.shape == (1920, 2560, 3) and out.any()
