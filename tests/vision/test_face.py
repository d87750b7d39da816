"""vision.face: a box round a tile's digit grown to the tile's face, on drawn close-ups of a rack."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.face import coarse_lab, continues, face_box, grow_to_faces
from vision.metrics import box_iou

FACE = (236, 229, 206)  # ivory plastic
TILE_W, TILE_H = 170, 220  # a close-up: tiles far larger than a table photo's


Box = tuple[float, float, float, float]


def _rack(n: int = 4, joint: tuple[int, int, int] | None = (150, 140, 120), ground=(120, 80, 50),
          digits: str = "5279", tile_w: int = TILE_W) -> tuple[np.ndarray, list[Box], list[Box]]:
    """A photo of ``n`` tiles standing side by side on a rack: the photo, each face's box, and a box drawn round
    each tile's digit (where a detector that never saw tiles this big puts it)."""
    rgb = np.zeros((480, 120 + n * tile_w, 3), np.uint8)
    rgb[:] = ground
    faces, digit_boxes = [], []
    for k in range(n):
        x1, y1 = 60 + k * tile_w, 120
        x2, y2 = x1 + tile_w - 1, y1 + TILE_H
        cv2.rectangle(rgb, (x1, y1), (x2, y2), FACE, -1)
        if joint is not None:
            cv2.rectangle(rgb, (x1, y1), (x2, y2), joint, 2)
        cx = x1 + tile_w // 2
        cv2.putText(rgb, digits[k % len(digits)], (cx - 40, y1 + 150), cv2.FONT_HERSHEY_DUPLEX, 4.0, (200, 30, 40), 10)
        faces.append((float(x1), float(y1), float(x2), float(y2)))
        digit_boxes.append((float(cx - 50), float(y1 + 40), float(cx + 50), float(y1 + 165)))
    return rgb, faces, digit_boxes


def test_a_box_round_a_big_digit_grows_to_its_tile_not_to_the_tiles_beside_it():
    rgb, faces, digits = _rack()
    grown = grow_to_faces(rgb, np.array(digits))
    iou = box_iou(grown, np.array(faces))
    assert (np.diag(iou) > 0.85).all()
    assert (iou - np.diag(np.diag(iou)) < 0.05).all()


def test_a_box_already_on_its_tile_stays_as_it_is():
    rgb, faces, _ = _rack()
    assert np.array_equal(grow_to_faces(rgb, np.array(faces)), np.array(faces))


def test_tiles_whose_faces_run_together_are_not_grown_across():
    """No joint between the faces: the plastic runs from tile to tile, out of the window looked at."""
    rgb, faces, digits = _rack(joint=None)
    assert np.array_equal(grow_to_faces(rgb, np.array(digits)), np.array(digits))


def test_a_box_on_a_cloth_of_the_plastics_own_colour_stays_as_it_is():
    rgb, _, digits = _rack(n=1, joint=None, ground=FACE)
    assert face_box(rgb, np.array(digits[0]), np.zeros((0, 4))) is None


def test_a_grown_box_never_takes_in_another_boxs_tile():
    """Two narrow tiles whose joint the photo does not show: the one face found holds the neighbour's box."""
    rgb, faces, digits = _rack(n=2, joint=None, tile_w=100, digits="18")
    x1, y1, _, _ = faces[0]
    box = np.array([x1 + 10, y1 + 40, x1 + 90, y1 + 180])
    alone = face_box(rgb, box, np.zeros((0, 4)))  # the pair's face, were there no box on the second tile
    assert alone is not None and box_iou(alone[None], np.array([[x1, y1, faces[1][2], faces[1][3]]]))[0, 0] > 0.85
    assert face_box(rgb, box, np.array([digits[1]])) is None


def test_a_second_box_on_the_same_digit_does_not_stop_the_growth():
    rgb, faces, digits = _rack()
    x1, y1, x2, y2 = digits[1]
    inner = (x1 + 10, y1 + 10, x2 - 10, y2 - 10)
    grown = face_box(rgb, np.array(digits[1]), np.array([digits[0], inner, digits[2]]))
    assert grown is not None and box_iou(grown[None], np.array([faces[1]]))[0, 0] > 0.85


def test_a_box_without_area_is_refused():
    rgb, _, _ = _rack(n=1)
    with pytest.raises(ValueError, match="positive width and height"):
        face_box(rgb, np.array([10.0, 10.0, 10.0, 40.0]), np.zeros((0, 4)))


def test_only_a_box_whose_colour_goes_on_past_its_sides_is_looked_at_further():
    rgb, faces, digits = _rack()
    for step in (1, 4, 9):
        lab = coarse_lab(rgb, step)
        assert all(continues(lab, step, np.array(d)) for d in digits)
        assert not any(continues(lab, step, np.array(f)) for f in faces)  # the rack above and below, joints beside


def test_a_box_from_a_standing_tiles_top_edge_to_below_its_digit_grows_to_its_tile():
    """On a close-up rack the detector can box a tile from its top edge down to the foot of its digit, short of the
    maker's mark (a third of the tile left out: IoU 0.44 with it). Only the plastic below and beside it goes on,
    not the rack above; it is still grown to its tile."""
    rgb, faces, digits = _rack()
    from_top = [(d[0], f[1] + 1, d[2], d[3]) for d, f in zip(digits, faces)]
    lab = coarse_lab(rgb, 4)
    assert all(continues(lab, 4, np.array(b)) for b in from_top)
    grown = grow_to_faces(rgb, np.array(from_top))
    for g, f, b in zip(grown, faces, from_top):
        assert box_iou(np.array([b]), np.array([f]))[0, 0] < 0.5
        assert box_iou(np.array([g]), np.array([f]))[0, 0] > 0.9
