"""A tile cut by the photo's edge: part of its number may lie outside the photo (vision.frame)."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, FakeNumberReader, raw_tile

from vision.calibration import Calibration
from vision.frame import cut_by_frame
from vision.reader import Reader
from vision.types import CUT_BY_FRAME, DOUBT_TEXT, Image

WIDTH, HEIGHT = 330, 200
# a rack of tiles 60 x 80, the last one half out of the photo on the right
ROW = [(20, 60, 80, 140), (90, 60, 150, 140), (160, 60, 220, 140), (230, 60, 290, 140)]
CUT = (300, 60, 330, 140)


def test_a_tile_half_out_of_the_photo_is_cut_and_whole_tiles_are_not():
    assert cut_by_frame(ROW + [CUT], WIDTH, HEIGHT).tolist() == [False] * 4 + [True]


def test_a_whole_tile_touching_the_edge_is_not_cut():
    touching = [(x1 + 40, y1, x2 + 40, y2) for x1, y1, x2, y2 in ROW]  # the last one ends at the photo's edge
    assert touching[-1][2] == WIDTH
    assert not cut_by_frame(touching, WIDTH, HEIGHT).any()


def test_a_tile_cut_at_the_top_or_the_foot_is_cut_across_that_edge():
    top = (160, 0, 220, 30)  # the foot of a tile above the photo
    foot = (90, 170, 150, 200)
    assert cut_by_frame(ROW + [top, foot], WIDTH, HEIGHT).tolist() == [False] * 4 + [True, True]
    # narrow but whole across the edge it touches: a tile standing at the top edge, seen end on, is not cut there
    assert not cut_by_frame(ROW + [(300, 0, 330, 80)], 400, HEIGHT)[-1]


def test_a_small_tile_far_from_the_edges_is_not_cut():
    assert not cut_by_frame(ROW + [(150, 10, 170, 30)], WIDTH, HEIGHT).any()


def test_with_too_few_tiles_there_is_no_usual_tile_to_compare_with():
    assert cut_by_frame([ROW[0], CUT], WIDTH, HEIGHT).tolist() == [False, False]
    assert cut_by_frame(np.zeros((0, 4)), WIDTH, HEIGHT).tolist() == []


def test_a_photo_with_no_size_is_an_error():
    with pytest.raises(ValueError, match="no edges"):
        cut_by_frame(ROW, 0, HEIGHT)


def test_the_reader_shows_a_tile_cut_by_the_frame_as_doubtful_and_leaves_its_reading():
    codes = ["R4", "B7", "K10", "O13", "R1"]  # the last, cut: a 1 that may be the 1 of a 10-13
    boxes = ROW + [CUT]
    model = FakeModel([raw_tile(box, {code: 0.999}) for box, code in zip(boxes, codes)])
    numbers = FakeNumberReader({box: {int(code[1:]): 1.0} for box, code in zip(boxes, codes)})
    rgb = np.full((HEIGHT, WIDTH, 3), 200, np.uint8)
    reader = Reader(model=model, number_reader=numbers, ocr=True, calibration=Calibration(doubt_below=0.5))
    tiles = reader.read(Image(rgb=rgb, path="rack.jpg"), rack=True).tiles
    by_code = {t.code: t for t in tiles}
    assert set(by_code) == set(codes)
    assert by_code["R1"].doubtful and by_code["R1"].doubt == CUT_BY_FRAME and CUT_BY_FRAME in DOUBT_TEXT
    assert not any(by_code[c].doubtful for c in codes[:4])  # the whole tiles, read as surely, stay sure
