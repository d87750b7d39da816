"""bench/bench_tilt.py: a rack's big 7s, whose strokes tilt their own measure, are measured with the row's tilt."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_tilt import drawn_tilt, measure, off_by  # noqa: E402


def test_tilts_are_compared_modulo_a_quarter_turn() -> None:
    assert list(off_by([44.0, 10.0, 0.0], [-44.0, 100.0, 30.0])) == pytest.approx([2.0, 0.0, 30.0])
    assert drawn_tilt([(0, 0), (10, 10), (0, 20), (-10, 10)]) == pytest.approx(45.0)


def _rack(numbers: str, angle: float) -> tuple[np.ndarray, list[dict]]:
    """Faces whose digits fill them standing side by side on a light rack, turned ``angle`` degrees clockwise, and
    each tile as a render's sidecar lists it (its box and its corners)."""
    w, h, gap = 74, 100, 2
    strip = np.full((h + 40, len(numbers) * (w + gap) + 40, 3), (214, 212, 204), np.uint8)
    corners = []
    for k, number in enumerate(numbers):
        x = 20 + k * (w + gap)
        strip[20 : 20 + h, x : x + w] = (236, 229, 206)
        cv2.putText(strip, number, (x + 4, 20 + h - 12), cv2.FONT_HERSHEY_DUPLEX, 3.2, (20, 20, 20), 9, cv2.LINE_AA)
        corners.append([(x, 20), (x + w, 20), (x + w, 20 + h), (x, 20 + h)])
    sh, sw = strip.shape[:2]
    size = (sw + 80, sh + 200)
    m = cv2.getRotationMatrix2D((sw / 2, sh / 2), -angle, 1.0)  # OpenCV turns counter-clockwise
    m[:, 2] += ((size[0] - sw) / 2, (size[1] - sh) / 2)
    photo = cv2.warpAffine(strip, m, size, borderValue=(60, 50, 40))
    tiles = []
    for c in corners:
        q = np.asarray(c, np.float64) @ m[:, :2].T + m[:, 2]
        tiles.append({"box": [q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max()], "corners": q.tolist()})
    return photo, tiles


def test_a_racks_big_sevens_are_measured_with_the_rows_tilt() -> None:
    photo, tiles = _rack("58737", 4.0)
    own, together = measure(photo, tiles, rack=True)
    assert own[2] > 8 and own[4] > 8 and max(own[[0, 1, 3]]) < 4, own  # the 7s' strokes outweigh their faint edges
    assert together.max() < 4 and list(together[[0, 1, 3]]) == list(own[[0, 1, 3]]), together
    assert list(measure(photo, tiles, rack=False)[1]) == list(own)  # a table's tiles keep their own
