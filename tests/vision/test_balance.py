"""vision.balance: a photo under coloured light, balanced for the detector's last look; and that look in
vision.model: it adds the confident tiles only the balanced photo shows, and is not taken in white light."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import ONE_LOOK, DetectorStandIn

from vision.balance import MIN_GAIN, balanced, channel_gains


def _table(light: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> np.ndarray:
    """A BGR photo: a grey-green cloth with three white tiles on it, each with a dark number, under ``light``
    (per channel, B G R)."""
    bgr = np.zeros((240, 320, 3), np.float32)
    bgr[:] = (90, 120, 100)
    for x in (40, 130, 220):
        bgr[80:180, x : x + 70] = (235, 238, 240)
        bgr[110:150, x + 25 : x + 45] = (30, 30, 30)
    return np.clip(bgr * np.array(light, np.float32), 0, 255).astype(np.uint8)


def test_a_photo_lit_white_is_left_as_it_is():
    assert channel_gains(_table()).max() < MIN_GAIN
    assert balanced(_table()) is None


def test_a_blue_cast_is_taken_out_of_the_tiles_faces():
    cold = _table((1.0, 0.9, 0.7))  # blue kept, red down: a shaded window's light
    gains = channel_gains(cold)
    assert gains[0] == pytest.approx(1.0) and gains[2] > MIN_GAIN
    face = balanced(cold)[100, 50].astype(int)
    assert abs(face[0] - face[2]) <= 6 and abs(face[0] - face[1]) <= 6  # white again


def test_a_warm_cast_is_taken_out_too():
    warm = _table((0.65, 0.9, 1.0))
    face = balanced(warm)[100, 50].astype(int)
    assert abs(face[0] - face[2]) <= 6


def test_a_photo_that_is_no_photo_is_refused():
    with pytest.raises(ValueError, match="H x W x 3"):
        channel_gains(np.zeros((10, 10), np.uint8))


class _Lit(DetectorStandIn):
    """A detector stand-in that finds the middle tile only where its face is white (the light taken out)."""

    def __init__(self, score: float) -> None:
        super().__init__(**ONE_LOOK)
        self.score = score
        self.asked = 0

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        self.asked += 1
        boxes, scores = [[40, 80, 110, 180], [220, 80, 290, 180]], [0.9, 0.9]
        b, g, r = (int(v) for v in bgr[100, 150])
        if abs(b - r) < 20:  # the middle tile stands out only in white light
            boxes.insert(1, [130, 80, 200, 180])
            scores.insert(1, self.score)
        return np.asarray(boxes, float), np.asarray(scores, float)


def test_the_balanced_look_adds_a_tile_only_it_finds():
    model = _Lit(score=0.8)
    boxes, _ = model.detect(_table((1.0, 0.9, 0.7)))
    assert boxes.tolist() == [[40, 80, 110, 180], [220, 80, 290, 180], [130, 80, 200, 180]]
    assert model.asked == 2


def test_the_balanced_look_adds_no_tile_it_is_unsure_of():
    model = _Lit(score=0.4)
    boxes, _ = model.detect(_table((1.0, 0.9, 0.7)))
    assert len(boxes) == 2


def test_in_white_light_there_is_no_balanced_look():
    model = _Lit(score=0.8)
    boxes, _ = model.detect(_table())
    assert len(boxes) == 3 and model.asked == 1
