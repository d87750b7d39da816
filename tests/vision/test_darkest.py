"""vision.darkest: a pale ink is as dark as a black one in the photo's darkest channel; and the detector's look at
that photo in vision.model adds the confident tiles only it shows, after every other look."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import ONE_LOOK, DetectorStandIn

from vision.darkest import darkest

GREY_PLASTIC = (206, 208, 206)  # B G R
INKS = {"yellow": (30, 200, 230), "black": (28, 22, 22), "teal": (126, 128, 0), "orange": (38, 138, 240)}


def _table(middle_ink: str = "yellow") -> np.ndarray:
    """A BGR photo: a green cloth with three grey tiles, the outer two with black numbers, the middle one ``middle_ink``."""
    bgr = np.zeros((240, 320, 3), np.uint8)
    bgr[:] = (60, 110, 70)
    for x, ink in ((40, "black"), (130, middle_ink), (220, "black")):
        bgr[80:180, x : x + 70] = GREY_PLASTIC
        bgr[110:150, x + 25 : x + 45] = INKS[ink]
    return bgr


def _contrast(image: np.ndarray, x: int) -> float:
    """How much darker the number of the tile at ``x`` is than its plastic, in the image's mean channel."""
    grey = image.astype(np.float32).mean(axis=2)
    return float(grey[90:100, x + 5 : x + 65].mean() - grey[120:140, x + 30 : x + 40].mean())


def test_a_yellow_number_on_grey_plastic_is_as_dark_as_a_black_one_in_the_darkest_channel():
    photo = _table("yellow")
    assert _contrast(photo, 130) < 0.35 * _contrast(photo, 40)  # barely darker than its plastic, as taken
    low = darkest(photo)
    assert _contrast(low, 130) > 0.8 * _contrast(low, 40)
    assert (low[..., 0] == low[..., 1]).all() and (low[..., 1] == low[..., 2]).all()  # grey


@pytest.mark.parametrize("ink", sorted(INKS))
def test_every_ink_is_darker_than_the_plastic_in_the_darkest_channel(ink):
    assert _contrast(darkest(_table(ink)), 130) > 150


def test_a_photo_that_is_no_photo_is_refused():
    with pytest.raises(ValueError, match="H x W x 3"):
        darkest(np.zeros((10, 10), np.uint8))


class _Pale(DetectorStandIn):
    """A detector stand-in that finds the middle tile only in a grey photo (the darkest look), scored ``score``, at
    ``finest`` px or finer."""

    def __init__(self, score: float, conf: float = 0.5, finest: int = 0, **settings) -> None:
        super().__init__(**{**ONE_LOOK, "det_darkest_conf": conf, **settings})
        self.score, self.finest = score, finest
        self.asked: list[tuple[bool, int]] = []  # (darkest, size) of each look

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        grey = bool((bgr[..., 0] == bgr[..., 2]).all())
        self.asked.append((grey, imgsz))
        boxes, scores = [[40, 80, 110, 180], [220, 80, 290, 180]], [0.9, 0.9]
        if grey and imgsz >= self.finest:
            boxes.insert(1, [130, 80, 200, 180])
            scores.insert(1, self.score)
        return np.asarray(boxes, float), np.asarray(scores, float)


def test_the_darkest_look_adds_a_tile_only_it_finds():
    model = _Pale(score=0.8)
    boxes, scores = model.detect(_table())
    assert boxes.tolist() == [[40, 80, 110, 180], [220, 80, 290, 180], [130, 80, 200, 180]]
    assert scores.tolist() == [0.9, 0.9, 0.8]
    # the photo as taken (white light: no balanced look), then its darkest channel at that size and at 640
    assert model.asked == [(False, 416), (True, 416), (True, 640)]


def test_the_darkest_look_adds_no_tile_it_is_unsure_of():
    boxes, _ = _Pale(score=0.4).detect(_table())
    assert len(boxes) == 2


def test_with_the_look_switched_off_the_detector_looks_once():
    model = _Pale(score=0.8, conf=0)
    boxes, _ = model.detect(_table())
    assert len(boxes) == 2 and model.asked == [(False, 416)]


def test_a_pale_tile_the_darkest_look_finds_only_at_640_is_added():
    # a look that decided at a coarser size (here the usual 416) sees a pale number's tile too coarsely
    model = _Pale(score=0.8, finest=640)
    boxes, _ = model.detect(_table())
    assert boxes.tolist()[2] == [130, 80, 200, 180]
    # without the finer look the tile is missed; a look that decided at 640 or finer is not taken again
    assert len(_Pale(score=0.8, finest=640, det_darkest_min_imgsz=0).detect(_table())[0]) == 2
    fine = _Pale(score=0.8, finest=640, det_imgsz=832)
    assert len(fine.detect(_table())[0]) == 3 and fine.asked == [(False, 832), (True, 832)]
