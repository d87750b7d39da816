"""vision.balance: a photo under coloured light, balanced for the detector's last look; and that look in
vision.model: it adds the confident tiles only the balanced photo shows, and is not taken in white light. Under
a cold light the balanced photo leads the detector's looks, and the photo as taken adds what only it shows."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from vision_fakes import ONE_LOOK, DetectorStandIn

from vision.balance import COLD, MIN_GAIN, balanced, channel_gains, cold_light


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


def test_gains_measured_once_balance_the_photo_alike():
    cold = _table((1.0, 0.9, 0.7))
    assert np.array_equal(balanced(cold, channel_gains(cold)), balanced(cold))


def test_a_blue_cast_is_a_cold_light_and_a_warm_one_or_white_light_is_not():
    assert cold_light(channel_gains(_table((1.0, 0.9, 0.7))))
    assert not cold_light(channel_gains(_table((0.65, 0.9, 1.0))))
    assert not cold_light(channel_gains(_table()))
    # ivory plastic in white light: its brightest surfaces are warm, never blue
    ivory = _table()
    ivory[80:180][ivory[80:180, :, 0] > 200] = (206, 229, 236)
    assert not cold_light(channel_gains(ivory))
    # a light a little cold, as the renders draw it, is not
    assert not cold_light(np.array([1.0, 1.0, COLD - 0.05]))


def test_gains_that_are_no_gains_are_refused():
    with pytest.raises(ValueError, match="three positive channel gains"):
        cold_light(np.array([1.0, 0.0, 1.2]))
    with pytest.raises(ValueError, match="three positive channel gains"):
        cold_light(np.array([1.0, 1.2]))


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


WARM, COLD_LIGHT = (0.7, 0.9, 1.0), (1.0, 0.9, 0.7)  # B G R: a lamp's yellow light, a shaded window's blue one


LEFT, MIDDLE, RIGHT = [40, 80, 110, 180], [130, 80, 200, 180], [220, 80, 290, 180]


@pytest.mark.parametrize("light, score, found", [
    (WARM, 0.8, [LEFT, RIGHT, MIDDLE]),  # the balanced look adds a tile only it finds, after the others
    (WARM, 0.4, [LEFT, RIGHT]),  # ... not one it is unsure of
    # under a cold light the balanced photo's looks lead: the middle tile, found only in white light and unsurely, is
    # kept in its place, and the photo as taken adds nothing it did not find
    (COLD_LIGHT, 0.4, [LEFT, MIDDLE, RIGHT]),
])
def test_the_balanced_photo_adds_to_the_looks_or_under_a_cold_light_leads_them(light, score, found):
    model = _Lit(score=score)
    boxes, _ = model.detect(_table(light))
    assert boxes.tolist() == found
    assert model.asked == 2


def test_without_the_cold_lead_a_cold_photo_is_looked_at_as_a_warm_one():
    model = _Lit(score=0.4)
    model.settings = dataclasses.replace(model.settings, det_cold_lead=False)
    boxes, _ = model.detect(_table(COLD_LIGHT))
    assert len(boxes) == 2


class _SeenAsTaken(_Lit):
    """As ``_Lit``, and one more tile that only the photo as taken shows, scored ``taken``."""

    def __init__(self, score: float, taken: float) -> None:
        super().__init__(score)
        self.taken = taken

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        boxes, scores = super()._detect_at(bgr, imgsz)
        b, g, r = (int(v) for v in bgr[100, 150])
        if abs(b - r) >= 20:  # the photo as taken
            return np.vstack([boxes, [[40, 190, 110, 235]]]), np.append(scores, self.taken)
        return boxes, scores


@pytest.mark.parametrize("taken, added", [(0.9, True), (0.4, False)])
def test_under_a_cold_light_the_photo_as_taken_adds_the_tiles_it_is_sure_of(taken, added):
    boxes, _ = _SeenAsTaken(score=0.8, taken=taken).detect(_table(COLD_LIGHT))
    assert len(boxes) == 4 if added else len(boxes) == 3
    assert ([40, 190, 110, 235] in boxes.tolist()) == added


def test_in_white_light_there_is_no_balanced_look():
    model = _Lit(score=0.8)
    boxes, _ = model.detect(_table())
    assert len(boxes) == 3 and model.asked == 1
