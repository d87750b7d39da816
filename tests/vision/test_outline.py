"""vision.outline: one box per tile, on drawn photos of melds laid straight and at a slant."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest
from vision_fakes import FakeModel, FakeNumberReader, raw_tile

from vision.calibration import Calibration
from vision.ocr import box_geometry, outline
from vision.outline import one_per_tile, outline_iou, overlapped
from vision.reader import Reader
from vision.types import DOUBT_TEXT, OVERLAPPING, Image

TILE_W, TILE_H = 52.0, 70.0  # a tile's face, 26 x 35 mm at 2 px a mm


def _corners(cx: float, cy: float, angle: float) -> np.ndarray:
    """A tile face's corners, turned ``angle`` degrees clockwise on the photo about its centre."""
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    half = ((-TILE_W / 2, -TILE_H / 2), (TILE_W / 2, -TILE_H / 2), (TILE_W / 2, TILE_H / 2), (-TILE_W / 2, TILE_H / 2))
    return np.array([(cx + c * x - s * y, cy + s * x + c * y) for x, y in half])


def _box(corners: np.ndarray) -> tuple[float, float, float, float]:
    (x1, y1), (x2, y2) = corners.min(0), corners.max(0)
    return (float(x1), float(y1), float(x2), float(y2))


def _meld(angle: float, n: int = 4) -> tuple[np.ndarray, list[np.ndarray], list[tuple[float, float]]]:
    """A photo of ``n`` tiles side by side in a row turned ``angle`` degrees: the photo, each tile's corners, and
    the centres of the joints between neighbours."""
    rgb = np.zeros((480, 640, 3), np.uint8)
    rgb[:] = (40, 110, 60)  # the table's cloth
    # a red and a blue card on it, as bright as each other: a photo's colours, not a filter's one tint (vision.mono)
    rgb[420:470, 20:120], rgb[420:470, 130:230] = (200, 50, 60), (50, 90, 230)
    a = math.radians(angle)
    step = (TILE_W * math.cos(a), TILE_W * math.sin(a))  # along the row: the tiles' short sides touch
    centres = [(160 + k * step[0], 200 + k * step[1]) for k in range(n)]
    tiles = [_corners(cx, cy, angle) for cx, cy in centres]
    for c in tiles:
        cv2.fillPoly(rgb, [np.round(c).astype(np.int32)], (236, 229, 206))
        cv2.polylines(rgb, [np.round(c).astype(np.int32)], True, (150, 140, 120), 1)
    joints = [((x0 + x1) / 2, (y0 + y1) / 2) for (x0, y0), (x1, y1) in zip(centres, centres[1:])]
    return rgb, tiles, joints


@pytest.mark.parametrize("angle", [25.0, 35.0, -30.0])
def test_a_box_across_the_joint_of_two_tiles_of_a_slanted_meld_is_dropped(angle):
    rgb, tiles, joints = _meld(angle)
    boxes = [_box(c) for c in tiles] + [_box(_corners(*joints[1], angle))]
    scores = [0.9, 0.8, 0.85, 0.9, 0.5]
    assert list(one_per_tile(rgb, np.array(boxes), np.array(scores))) == [0, 1, 2, 3]


def test_the_tiles_of_a_slanted_meld_overlap_as_upright_boxes_not_as_outlines():
    rgb, tiles, _ = _meld(35.0)
    first, second = (outline(box_geometry(rgb, _box(c))) for c in tiles[:2])
    x = (_box(tiles[0]), _box(tiles[1]))
    upright = [np.array([(b[0], b[1]), (b[2], b[1]), (b[2], b[3]), (b[0], b[3])], np.float32) for b in x]
    assert outline_iou(*upright) > 0.15  # about as much as a box across their joint overlaps each of them
    assert outline_iou(first, second) < 0.02


def test_a_second_shifted_box_on_a_tile_is_dropped():
    rgb, tiles, _ = _meld(30.0)
    x1, y1, x2, y2 = _box(tiles[2])
    shifted = (x1 + 6, y1 + 5, x2 + 6, y2 + 5)
    boxes = [_box(c) for c in tiles] + [shifted]
    assert list(one_per_tile(rgb, np.array(boxes), np.array([0.9, 0.9, 0.9, 0.9, 0.6]))) == [0, 1, 2, 3]


def test_a_straight_meld_keeps_every_tile_whatever_the_scores():
    rgb, tiles, _ = _meld(0.0, n=5)
    boxes = [_box(c) for c in tiles]
    for scores in ([0.9, 0.3, 0.9, 0.3, 0.9], [0.3, 0.9, 0.3, 0.9, 0.3]):
        assert list(one_per_tile(rgb, np.array(boxes), np.array(scores))) == [0, 1, 2, 3, 4]


def test_only_a_weaker_box_is_dropped():
    """A box across a joint that the detector is surer of than of the tiles is kept, and so are they: the rule
    never drops a tile's best box for a weaker one."""
    rgb, tiles, joints = _meld(35.0, n=2)
    boxes = [_box(c) for c in tiles] + [_box(_corners(*joints[0], 35.0))]
    assert list(one_per_tile(rgb, np.array(boxes), np.array([0.5, 0.5, 0.9]))) == [0, 1, 2]


def test_no_boxes_or_one_box_stay_as_they_are():
    rgb, tiles, _ = _meld(20.0, n=1)
    assert list(one_per_tile(rgb, np.zeros((0, 4)), np.zeros(0))) == []
    assert list(one_per_tile(rgb, np.array([_box(tiles[0])]), np.array([0.4]))) == [0]


def test_boxes_and_scores_must_pair_up():
    rgb, tiles, _ = _meld(20.0, n=2)
    with pytest.raises(ValueError, match="2 boxes but 1 scores"):
        one_per_tile(rgb, np.array([_box(c) for c in tiles]), np.array([0.5]))


def test_boxes_kept_that_still_overlap_by_a_third_are_both_suspect():
    rgb, tiles, joints = _meld(0.0, n=4)
    boxes = [_box(c) for c in tiles]
    assert not overlapped(rgb, np.array(boxes)).any()  # tiles side by side
    x1, y1, x2, y2 = boxes[2]
    shifted = (x1 + 20, y1, x2 + 20, y2)  # a second box on tile 2, 0.44 of it (IoU), 0.24 of tile 3
    assert overlapped(rgb, np.array(boxes + [shifted])).tolist() == [False, False, True, False, True]
    # a box across a joint that the detector was surer of than of its tiles, kept: a third of each
    across = _box(_corners(*joints[0], 0.0))
    assert overlapped(rgb, np.array(boxes + [across])).tolist() == [True, True, False, False, True]


def test_the_tiles_of_a_slanted_meld_are_not_suspect():
    rgb, tiles, _ = _meld(35.0, n=5)
    assert not overlapped(rgb, np.array([_box(c) for c in tiles])).any()
    assert overlapped(rgb, np.zeros((0, 4))).tolist() == [] and overlapped(rgb, np.array([_box(tiles[0])])).tolist() == [False]


def test_the_reader_shows_both_boxes_of_a_tile_found_twice_as_doubtful():
    rgb, tiles, _ = _meld(0.0, n=4)
    boxes = [_box(c) for c in tiles]
    x1, y1, x2, y2 = boxes[2]
    boxes.append((x1 + 20, y1, x2 + 20, y2))  # read as another tile, as surely: which box is no tile, none can say
    codes = ["R4", "B7", "K10", "O13", "O1"]
    model = FakeModel([raw_tile(box, {code: 0.999}) for box, code in zip(boxes, codes)])
    numbers = FakeNumberReader({box: {int(code[1:]): 1.0} for box, code in zip(boxes, codes)})
    reader = Reader(model=model, number_reader=numbers, ocr=True, calibration=Calibration(doubt_below=0.5))
    by_code = {t.code: t for t in reader.read(Image(rgb=rgb, path="rack.jpg"), rack=True).tiles}
    assert set(by_code) == set(codes)  # both read, as read
    assert [by_code[c].doubt for c in ("K10", "O1")] == [OVERLAPPING] * 2 and OVERLAPPING in DOUBT_TEXT
    assert all(by_code[c].doubtful for c in ("K10", "O1")) and not any(by_code[c].doubtful for c in ("R4", "B7", "O13"))

