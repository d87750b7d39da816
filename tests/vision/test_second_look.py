"""The detector's more looks at other sizes (vision/model.py): they add the tiles the first look missed,
never a second box on a tile already found nor a box within one, and only where they are confident; a
close-up is looked at coarsest first."""

from __future__ import annotations

import numpy as np
from vision_fakes import DetectorStandIn

from vision.model import add_new_boxes


def _boxes(*b: tuple[float, float, float, float]) -> np.ndarray:
    return np.asarray(b, float).reshape(-1, 4)


def test_new_confident_boxes_are_added_after_the_first_looks() -> None:
    first, first_scores = _boxes((0, 0, 10, 14)), np.array([0.9])
    more = _boxes((1, 0, 11, 14), (30, 0, 40, 14), (60, 0, 70, 14), (31, 1, 41, 15))
    boxes, scores = add_new_boxes(first, first_scores, more, np.array([0.95, 0.6, 0.4, 0.55]), 0.5, 0.3)
    # the first overlaps the tile already found; the third is not confident; the fourth repeats the second
    assert boxes.tolist() == [[0, 0, 10, 14], [30, 0, 40, 14]]
    assert scores.tolist() == [0.9, 0.6]


def test_the_second_look_alone_when_the_first_found_nothing() -> None:
    boxes, scores = add_new_boxes(_boxes(), np.zeros(0), _boxes((5, 5, 15, 19)), np.array([0.8]), 0.5, 0.3)
    assert boxes.tolist() == [[5, 5, 15, 19]] and scores.tolist() == [0.8]
    same = add_new_boxes(_boxes((0, 0, 10, 14)), np.array([0.9]), _boxes(), np.zeros(0), 0.5, 0.3)
    assert same[0].tolist() == [[0, 0, 10, 14]]


class _Sizes(DetectorStandIn):
    """A tile model whose detector finds a given set of boxes at each size (no weights)."""

    def __init__(self, by_size: dict[int, tuple[np.ndarray, np.ndarray]], **settings) -> None:
        settings.setdefault("det_darkest_conf", 0)  # the sizes' order; the darkest look is test_darkest's
        super().__init__(**settings)
        self.by_size = by_size
        self.asked: list[int] = []

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        self.asked.append(imgsz)
        return self.by_size.get(imgsz, (_boxes(), np.zeros(0)))


def test_detect_looks_at_each_size_and_keeps_what_only_a_later_look_found() -> None:
    photo = np.zeros((300, 400, 3), np.uint8)
    model = _Sizes({416: (_boxes((10, 10, 60, 80)), np.array([0.9])),
                    640: (_boxes((12, 10, 62, 80), (200, 10, 250, 80)), np.array([0.9, 0.7])),
                    # a large tile the finer looks missed, and a box over half of two tiles already found
                    320: (_boxes((300, 100, 390, 230), (35, 10, 85, 80)), np.array([0.8, 0.6]))},
                   det_darkest_conf=0.5)
    boxes, _ = model.detect(photo)
    # the close-up look found nothing: the usual order, and last the darkest channel at the deciding size and at 640
    assert model.asked == [256, 416, 640, 320, 416, 640]
    assert boxes.tolist() == [[10, 10, 60, 80], [200, 10, 250, 80], [300, 100, 390, 230]]
    off = _Sizes(model.by_size, det_more_looks=(), det_close_imgsz=0, det_darkest_conf=0)
    assert off.detect(photo)[0].tolist() == [[10, 10, 60, 80]] and off.asked == [416]


def test_the_coarse_look_adds_no_box_straddling_two_found_tiles() -> None:
    """Two standing tiles side by side; the coarse look's box over the right half of one, the left half of the
    other and the rack below them overlaps each by IoU 0.23: under the finer look's limit, over its own."""
    first = _boxes((0, 0, 40, 60), (40, 0, 80, 60))
    straddle = _boxes((20, 0, 60, 100))
    model = _Sizes({416: (first, np.array([0.9, 0.9])), 320: (straddle, np.array([0.9]))}, det_more_looks=((320, 0.1),))
    assert model.detect(np.zeros((100, 100, 3), np.uint8))[0].tolist() == first.tolist()
    assert add_new_boxes(first, np.array([0.9, 0.9]), straddle, np.array([0.9]), 0.3, 0.3)[0].tolist() == [*first.tolist(), [20, 0, 60, 100]]


def test_a_close_up_is_looked_at_coarsest_first() -> None:
    """A rack filling the frame: the close-up look finds its large tiles; the finer looks box a big digit inside
    one of them (kept out: it lies within a tile found) and add the tile the coarse looks missed."""
    photo = np.zeros((512, 512, 3), np.uint8)
    tiles = _boxes((0, 100, 120, 260), (130, 100, 250, 260))
    model = _Sizes({256: (tiles, np.array([0.8, 0.7])),
                    416: (_boxes((20, 120, 100, 200), (260, 100, 380, 260)), np.array([0.9, 0.6]))})
    boxes, _ = model.detect(photo)
    assert model.asked == [256, 320, 416, 640]
    assert boxes.tolist() == [*tiles.tolist(), [260, 100, 380, 260]]


def test_small_tiles_at_the_close_up_look_keep_the_usual_order() -> None:
    """Tiles whose short side is under det_close_px at the close-up look's size are no close-up."""
    photo = np.zeros((1024, 1024, 3), np.uint8)  # 120 px tiles are 30 px at 256: a close-up; 60 px are 15: not
    big, small = _boxes((0, 0, 120, 160)), _boxes((0, 0, 60, 80))
    assert _Sizes({256: (big, np.array([0.9]))}).detect(photo)[0].tolist() == big.tolist()
    model = _Sizes({256: (small, np.array([0.9])), 416: (small, np.array([0.9]))})
    assert model.detect(photo)[0].tolist() == small.tolist() and model.asked == [256, 416, 640, 320]


def test_a_box_within_a_found_tile_is_part_of_it() -> None:
    found = _boxes((0, 0, 100, 140))
    digit, half_out = _boxes((20, 20, 80, 90)), _boxes((60, 20, 160, 90))  # IoU 0.30 and 0.15 with the tile
    assert add_new_boxes(found, np.array([0.9]), digit, np.array([0.9]), 0.3, 0.5, inside=0.8)[0].tolist() == found.tolist()
    assert add_new_boxes(found, np.array([0.9]), digit, np.array([0.9]), 0.3, 0.5)[0].tolist() == [*found.tolist(), *digit.tolist()]
    assert add_new_boxes(found, np.array([0.9]), half_out, np.array([0.9]), 0.3, 0.5, inside=0.8)[0].tolist() == [*found.tolist(), *half_out.tolist()]



def test_small_tiles_in_a_big_photo_get_a_fine_look() -> None:
    """A rack far off in a 12 MP frame: the usual looks find a few of its tiles, small; the fine look at the
    photo's own detail finds the rest. Where the tiles found are large, or the photo is no larger than the fine
    size, it is not asked for."""
    photo = np.zeros((3000, 4000, 3), np.uint8)
    # 180 px short side: 19 px at 416 (no finer first look), 46 px at 1024 (under det_fine_px)
    found = _boxes((1000, 1000, 1180, 1240))
    rest = _boxes((1000, 1000, 1180, 1240), (1200, 1000, 1380, 1240), (1400, 1000, 1580, 1240))
    model = _Sizes({416: (found, np.array([0.8])), 1024: (rest, np.array([0.9, 0.9, 0.9]))})
    boxes, _ = model.detect(photo)
    assert model.asked == [256, 416, 640, 320, 1024]
    assert boxes.tolist() == rest.tolist()
    nothing = _Sizes({1024: (rest, np.array([0.9, 0.9, 0.9]))})
    assert nothing.detect(photo)[0].tolist() == rest.tolist()  # the coarser looks found nothing at all
    large = _Sizes({416: (_boxes((1000, 1000, 1300, 1400)), np.array([0.8]))})
    large.detect(photo)
    assert 1024 not in large.asked
    small_photo = _Sizes({416: (_boxes((100, 100, 110, 114)), np.array([0.8]))})
    small_photo.detect(np.zeros((750, 1000, 3), np.uint8))
    assert 1024 not in small_photo.asked
    off = _Sizes(model.by_size, det_fine_imgsz=0)
    off.detect(photo)
    assert 1024 not in off.asked
