"""A box round part of its tile's number: the tile's own ink goes on past its side, or the box is far smaller than
the boxes beside it (vision.partial)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from vision.ink import body_and_ink
from vision.partial import FAR_SMALLER, far_smaller, goes_on
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


def _row(n: int, x0: float = 0.0, w: float = 70.0, h: float = 68.0, y: float = 280.0) -> list[tuple[float, float, float, float]]:
    return [(x0 + k * w, y, x0 + (k + 1) * w - 2, y + h) for k in range(n)]


def test_a_box_far_smaller_than_the_boxes_beside_it_is_a_piece_of_a_tile():
    # a rack's row of tiles about 70 x 68, and at its end a box round the second stroke of an 11, 41 x 41
    boxes = _row(5) + [(352.0, 292.0, 393.0, 333.0)]
    assert far_smaller(boxes).tolist() == [False] * 5 + [True]
    # a tile cut by the photo's edge or partly hidden shows half of itself or more: a whole tile's share
    half = [(352.0, 280.0, 387.0, 348.0)]
    assert far_smaller(_row(5) + half).tolist() == [False] * 6


def test_a_box_is_set_against_the_boxes_nearest_it_not_the_photos_every_box():
    # near tiles large, far tiles small (a table seen at a slant): each row's boxes are as large as their neighbours
    near, far = _row(4, w=120, h=110, y=600), _row(4, w=40, h=36, y=50)
    assert not far_smaller(near + far).any()
    # a piece of a far tile among the far ones is told; the large near ones do not make the far ones pieces
    piece = [(170.0, 60.0, 185.0, 75.0)]
    assert far_smaller(near + far + piece).tolist() == [False] * 8 + [True]


def test_two_boxes_or_fewer_are_not_judged_by_size():
    assert far_smaller([(0, 0, 100, 100), (200, 0, 220, 20)]).tolist() == [False, False]
    assert far_smaller(np.zeros((0, 4))).tolist() == []
    # with a third box the small one is judged against the median of the two beside it
    assert far_smaller([(0, 0, 100, 100), (200, 0, 220, 20), (400, 0, 500, 100)]).tolist() == [False, True, False]
    share = FAR_SMALLER * 0.999
    side = float(np.sqrt(share)) * 100
    assert far_smaller([(0, 0, 100, 100), (150, 0, 150 + side, side), (300, 0, 400, 100)])[1]


def test_the_reader_shows_a_tile_read_from_a_far_smaller_box_as_doubtful():
    rgb = np.zeros((400, 600, 3), np.uint8)
    rgb[:] = TABLE
    rgb[280:348, 0:420] = PLASTIC
    for x1, y1, x2, y2 in _row(5):
        rgb[int(y1) + 14:int(y2) - 14, int(x1) + 30:int(x1) + 40] = BLACK
    rgb[295:330, 370:378] = MAGENTA
    rgb[170:195, 250:400] = (40, 84, 200)  # a photo's colours (vision.mono)
    boxes = _row(5) + [(352.0, 292.0, 393.0, 333.0)]
    assert not goes_on(rgb, boxes)[-1]  # no ink beside it says so: its size does
    tiles = [raw_tile(b, {"K7": 0.99}) for b in boxes[:-1]] + [raw_tile(boxes[-1], {"R1": 0.999})]
    reading = Reader(model=FakeModel(tiles), sideways=False).read(Image(rgb=rgb, path="t.jpg"), rack=True)
    piece = [t for t in reading.tiles if t.code == "R1"]
    assert piece and piece[0].doubtful and piece[0].doubt == PARTIAL
