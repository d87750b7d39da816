"""vision.blank: a tile lying face down (plain plastic) is no tile face up; every face with ink is."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

from vision.blank import NO_INK, face_up, ink_spread

IVORY, GREY = (236, 229, 206), (170, 172, 176)
CLOTH = (40, 110, 60)


def _tile(rgb: np.ndarray, cx: float, cy: float, angle: float, body=IVORY, ink=None, text: str = "7",
          joker: bool = False) -> tuple[float, float, float, float]:
    """Draw a 52 x 70 px tile turned ``angle`` degrees (ink None: face down); return its upright box."""
    w, h = 52, 70
    face = np.zeros((h, w, 3), np.uint8)
    face[:] = body
    if joker:
        cv2.circle(face, (w // 2, h // 2 - 4), 14, (200, 30, 40), 2)
        cv2.circle(face, (w // 2 - 5, h // 2 - 8), 2, (20, 20, 20), -1)
        cv2.circle(face, (w // 2 + 5, h // 2 - 8), 2, (20, 20, 20), -1)
        cv2.ellipse(face, (w // 2, h // 2), (7, 4), 0, 0, 180, (200, 30, 40), 2)
    elif ink is not None:
        cv2.putText(face, text, (8 if len(text) == 2 else 15, 45), cv2.FONT_HERSHEY_DUPLEX, 1.1, ink, 3)
    a = math.radians(angle)
    c, s = math.cos(a), math.sin(a)
    # the face's pixel (u, v) lands at centre + R (u - w/2, v - h/2)
    m = np.array([[c, -s, cx - c * w / 2 + s * h / 2], [s, c, cy - s * w / 2 - c * h / 2]], np.float32)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), m, rgb.shape[1::-1])
    warped = cv2.warpAffine(face, m, rgb.shape[1::-1])
    rgb[mask > 127] = warped[mask > 127]
    ys, xs = np.nonzero(mask > 127)
    return (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


@pytest.mark.parametrize("angle", [0.0, 30.0, -75.0])
def test_a_tile_face_down_is_dropped_and_the_tiles_face_up_beside_it_kept(angle):
    rgb = np.zeros((400, 600, 3), np.uint8)
    rgb[:] = CLOTH
    boxes = [
        _tile(rgb, 100, 120, angle, ink=(20, 20, 20), text="12"),
        _tile(rgb, 250, 120, angle),  # face down
        _tile(rgb, 400, 120, angle, body=GREY, ink=(200, 170, 40), text="3"),  # yellow on a grey body
        _tile(rgb, 100, 280, angle, joker=True),
        _tile(rgb, 250, 280, angle, body=GREY),  # face down, grey
        _tile(rgb, 400, 280, angle, ink=(30, 80, 200), text="1"),  # the least ink a number has
    ]
    assert list(face_up(rgb, np.array(boxes))) == [0, 2, 3, 5]


def test_ink_as_faint_as_the_faintest_render_is_still_a_tile_face_up():
    """Pale yellow on a grey body, about as faint as the faintest labelled tile of the renders (a spread of 12)."""
    rgb = np.zeros((200, 200, 3), np.uint8)
    rgb[:] = CLOTH
    box = np.array(_tile(rgb, 100, 100, 10.0, body=GREY, ink=(180, 178, 158), text="3"))
    assert NO_INK < ink_spread(rgb, box) < 2 * NO_INK
    assert face_up(rgb, box[None]).tolist() == [0]


def test_no_boxes_and_bad_boxes():
    rgb = np.zeros((100, 100, 3), np.uint8)
    assert face_up(rgb, np.zeros((0, 4))).tolist() == []
    with pytest.raises(ValueError, match="positive width and height"):
        ink_spread(rgb, np.array([10.0, 10.0, 10.0, 30.0]))


def test_a_tile_cut_by_the_photos_edge_is_kept_though_its_number_is_out_of_the_frame():
    rgb = np.zeros((300, 300, 3), np.uint8)
    rgb[:] = CLOTH
    x1, _, x2, y2 = _tile(rgb, 150, 60, 0.0, ink=(20, 20, 20), text="8")  # the face spans rows 25-95
    photo = np.ascontiguousarray(rgb[72:])  # the frame begins below the number
    box = np.array([x1, 0.0, x2, y2 - 72])
    assert ink_spread(photo, box) < NO_INK
    assert face_up(photo, box[None]).tolist() == [0]
