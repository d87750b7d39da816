"""vision.crops: the classifier's cut of one tile, the same at every size of the photo."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.crops import CROP_SIZE, crop_tile


@pytest.mark.parametrize("scale", [1, 4, 9])
def test_a_crop_is_a_square_of_the_classifiers_size_holding_the_tile(scale):
    # a 26 x 35 tile on a dark table, the photo blown up ``scale`` times (a big tile is shrunk into the crop)
    photo = np.full((60, 60, 3), (70, 45, 30), np.uint8)
    photo[12:47, 17:43] = (236, 229, 206)
    photo = cv2.resize(photo, None, fx=scale, fy=scale, interpolation=cv2.INTER_NEAREST)
    crop = crop_tile(photo, (17.0 * scale, 12.0 * scale, 43.0 * scale, 47.0 * scale))
    assert crop.shape == (CROP_SIZE, CROP_SIZE, 3) and crop.dtype == np.uint8
    assert crop[24:40, 24:40].mean() > 200  # the tile's plastic in the middle, the table at the sides
    assert crop[:, :3].mean() < 100 and crop[:, -3:].mean() < 100


def test_a_big_tile_is_shrunk_by_area_not_sampled():
    # stripes one pixel wide on a tile 400 px high: sampled one pixel in seven, the samples fall on black and white
    # in turn (bands as wide as the stripes in the crop); averaged over seven pixels, three or four of them white,
    # the crop is a flat grey
    photo = np.zeros((480, 480, 3), np.uint8)
    photo[:, ::2] = 255
    crop = crop_tile(photo, (40.0, 40.0, 440.0, 440.0)).astype(float)
    assert abs(crop.mean() - 127.5) < 4 and crop.std() < 25, (crop.mean(), crop.std())
