"""vision.model: a table seen from low down (its tiles' boxes flat) is looked at again stretched in height, and the
tiles only that look finds are added, squeezed back to the photo; a photo of tiles seen from above is not."""

from __future__ import annotations

import numpy as np
from vision_fakes import ONE_LOOK, DetectorStandIn

PHOTO = np.full((200, 400, 3), 200, np.uint8)


class _Low(DetectorStandIn):
    """A detector stand-in: on the photo as taken it finds ``near`` (flat boxes); on a photo 2.5 times as tall, the
    far tile too, at ``far_score``, in the tall photo's pixels."""

    def __init__(self, near: list[list[float]], far_score: float = 0.8, **settings) -> None:
        super().__init__(**{**ONE_LOOK, **settings})
        self.near, self.far_score = near, far_score
        self.heights: list[int] = []

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        self.heights.append(bgr.shape[0])
        if bgr.shape[0] == 500:  # stretched: the near tiles again (taller), and the far one
            boxes = [[x1, y1 * 2.5, x2, y2 * 2.5] for x1, y1, x2, y2 in self.near] + [[200, 25, 230, 75]]
            return np.asarray(boxes, float), np.asarray([0.9] * len(self.near) + [self.far_score])
        return np.asarray(self.near, float), np.full(len(self.near), 0.9)


FLAT = [[20, 120, 80, 160], [90, 120, 150, 160], [160, 125, 220, 165]]  # 60 x 40: 1.5 times as wide as tall
UPRIGHT = [[20, 100, 50, 140], [60, 100, 90, 140], [100, 100, 130, 140]]  # 30 x 40


def test_flat_boxes_bring_a_stretched_look_whose_new_tile_is_squeezed_back():
    model = _Low(FLAT)
    boxes, scores = model.detect(PHOTO)
    assert model.heights == [200, 500]
    assert boxes.tolist() == [*FLAT, [200, 10, 230, 30]]
    assert scores.tolist() == [0.9, 0.9, 0.9, 0.8]


def test_the_stretched_look_adds_no_tile_it_is_unsure_of():
    boxes, _ = _Low(FLAT, far_score=0.4).detect(PHOTO)
    assert boxes.tolist() == FLAT


def test_tiles_seen_from_above_bring_no_stretched_look():
    model = _Low(UPRIGHT)
    assert model.detect(PHOTO)[0].tolist() == UPRIGHT and model.heights == [200]


def test_the_stretched_look_can_be_switched_off():
    model = _Low(FLAT, det_flat_aspect=0)
    assert model.detect(PHOTO)[0].tolist() == FLAT and model.heights == [200]
