"""The detector's second look at another size (vision/model.py): it adds the tiles the first look missed,
never a second box on a tile already found, and only where it is confident."""

from __future__ import annotations

import numpy as np

from vision.model import ModelSettings, TileModel, add_new_boxes


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


class _Sizes(TileModel):
    """A tile model whose detector finds a given set of boxes at each size (no weights)."""

    def __init__(self, by_size: dict[int, tuple[np.ndarray, np.ndarray]], **settings) -> None:
        self.settings = ModelSettings(**settings)
        self.by_size = by_size
        self.asked: list[int] = []

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        self.asked.append(imgsz)
        return self.by_size.get(imgsz, (_boxes(), np.zeros(0)))


def test_detect_looks_twice_and_keeps_what_only_the_second_look_found() -> None:
    photo = np.zeros((300, 400, 3), np.uint8)
    model = _Sizes({416: (_boxes((10, 10, 60, 80)), np.array([0.9])),
                    640: (_boxes((12, 10, 62, 80), (200, 10, 250, 80)), np.array([0.9, 0.7]))})
    boxes, _ = model.detect(photo)
    assert model.asked == [416, 640]
    assert boxes.tolist() == [[10, 10, 60, 80], [200, 10, 250, 80]]
    off = _Sizes(model.by_size, det_second_imgsz=0)
    assert off.detect(photo)[0].tolist() == [[10, 10, 60, 80]] and off.asked == [416]
