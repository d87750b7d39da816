"""A box round part of its tile's number: the tile's own ink goes on past its side (vision.partial)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from vision.ink import body_and_ink
from vision.partial import goes_on
from vision.reader import Reader
from vision.types import DOUBT_TEXT, PARTIAL, Image

TABLE = (70, 45, 30)
PLASTIC = (205, 200, 195)
MAGENTA = (175, 30, 120)
BLACK = (25, 25, 25)


def photo() -> np.ndarray:
    """A tile showing 11 in magenta on a table: its face x 100-200, y 50-150, the two 1s at x 135-145 and 160-170."""
    rgb = np.zeros((200, 420, 3), np.uint8)
    rgb[:] = TABLE
    rgb[50:150, 100:200] = PLASTIC
    rgb[70:130, 135:145] = MAGENTA
    rgb[70:130, 160:170] = MAGENTA
    # a blue card on the table as bright as the ink: a photo's colours, not a filter's one tint (vision.mono)
    rgb[170:195, 250:400] = (40, 84, 200)
    return rgb


def test_a_box_round_one_digit_of_two_is_partial_and_a_box_round_the_tile_is_not():
    rgb = photo()
    assert goes_on(rgb, [(150, 50, 200, 150)]).tolist() == [True]  # round the second 1: the first lies beside it
    assert goes_on(rgb, [(100, 50, 200, 150)]).tolist() == [False]  # the whole face: the table lies beside it


def test_the_plastic_and_the_ink_are_the_boxes_own():
    body, ink = body_and_ink(photo(), (100, 50, 200, 150))
    assert body * 255 == pytest.approx(PLASTIC, abs=2)
    assert np.linalg.norm(1 - ink) > 0.25 and ink[1] < ink[0] and ink[1] < ink[2]  # magenta, white-balanced


def test_a_neighbours_number_in_its_own_box_is_the_neighbours():
    rgb = photo()
    rgb[50:150, 200:300] = PLASTIC  # a touching neighbour, 11 in magenta too
    rgb[70:130, 215:225] = MAGENTA
    rgb[70:130, 240:250] = MAGENTA
    rgb[70:130, 135:145] = PLASTIC  # the first tile now shows a lone 1 ...
    rgb[70:130, 160:170] = PLASTIC
    rgb[70:130, 165:180] = MAGENTA  # ... near its right side
    both = [(100, 50, 200, 150), (200, 50, 300, 150)]
    assert goes_on(rgb, both).tolist() == [False, False]
    # the neighbour missed by the detector: its ink lies beside the first box uncovered, so someone should look
    assert goes_on(rgb, both[:1]).tolist() == [True]


def test_ink_of_another_colour_or_on_no_plastic_is_not_the_tiles():
    rgb = photo()
    rgb[70:130, 135:145] = BLACK  # the other digit is black: another tile's, not this one's
    assert goes_on(rgb, [(150, 50, 200, 150)]).tolist() == [False]
    rgb = photo()
    rgb[50:150, 60:100] = MAGENTA  # a magenta cloth beside the tile: ink-coloured, but no plastic
    assert goes_on(rgb, [(100, 50, 200, 150)]).tolist() == [False]


def test_a_box_with_no_ink_or_too_small_says_nothing():
    rgb = np.zeros((100, 100, 3), np.uint8)
    rgb[:] = PLASTIC
    assert goes_on(rgb, [(20, 20, 60, 80)]).tolist() == [False]
    assert goes_on(photo(), [(150, 50, 152, 52)]).tolist() == [False]
    assert goes_on(photo(), np.zeros((0, 4))).tolist() == []


def test_the_reader_shows_a_tile_read_from_part_of_its_number_as_doubtful():
    # the stand-in finds the same box on any photo: read as taken only, not also turned (vision.turn)
    model = FakeModel([raw_tile((150, 50, 200, 150), {"R1": 0.99})])
    tile = Reader(model=model, sideways=False).read(Image(rgb=photo(), path="t.jpg"), rack=True).tiles[0]
    assert tile.code == "R1" and tile.doubtful and tile.doubt == PARTIAL and PARTIAL in DOUBT_TEXT
    whole = Reader(model=FakeModel([raw_tile((100, 50, 200, 150), {"R11": 0.99})]), sideways=False).read(
        Image(rgb=photo(), path="t.jpg"), rack=True)
    assert whole.tiles[0].doubt != PARTIAL
