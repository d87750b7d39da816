"""bench/bench_tilt.py: a rack's big 7s, whose strokes tilt their own measure, are measured with the row's tilt."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT / "tests" / "vision"))

from bench_tilt import drawn_tilt, measure, off_by  # noqa: E402
from drawn_rack import rack_row  # noqa: E402


def test_tilts_are_compared_modulo_a_quarter_turn() -> None:
    assert list(off_by([44.0, 10.0, 0.0], [-44.0, 100.0, 30.0])) == pytest.approx([2.0, 0.0, 30.0])
    assert drawn_tilt([(0, 0), (10, 10), (0, 20), (-10, 10)]) == pytest.approx(45.0)


def _face(number: str) -> np.ndarray:
    """A face whose digit fills it."""
    face = np.full((100, 74, 3), (236, 229, 206), np.uint8)
    cv2.putText(face, number, (4, 88), cv2.FONT_HERSHEY_DUPLEX, 3.2, (20, 20, 20), 9, cv2.LINE_AA)
    return face


def _rack(numbers: str, angle: float) -> tuple[np.ndarray, list[dict]]:
    """Faces whose digits fill them standing side by side on a light rack, turned ``angle`` degrees clockwise, and
    each tile as a render's sidecar lists it (its box and its corners)."""
    photo, corners = rack_row([_face(n) for n in numbers], angle)
    return photo, [{"box": [c[:, 0].min(), c[:, 1].min(), c[:, 0].max(), c[:, 1].max()], "corners": c.tolist()}
                   for c in corners]


def test_a_racks_big_sevens_are_measured_with_the_rows_tilt() -> None:
    photo, tiles = _rack("58737", 4.0)
    own, together = measure(photo, tiles, rack=True)
    assert own[2] > 8 and own[4] > 8 and max(own[[0, 1, 3]]) < 4, own  # the 7s' strokes outweigh their faint edges
    assert together.max() < 4 and list(together[[0, 1, 3]]) == list(own[[0, 1, 3]]), together
    assert list(measure(photo, tiles, rack=False)[1]) == list(own)  # a table's tiles keep their own
