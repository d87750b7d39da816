"""Views of real tiles for the classifier (datasets/views.py): framing, turning, determinism."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from datasets.views import ViewSettings, tile_view, turned_box


def _photo_with_tile() -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A grey table with one ivory tile (60 x 80 px) carrying a dark bar in its upper half."""
    rgb = np.full((300, 400, 3), 90, np.uint8)
    x1, y1, x2, y2 = 170, 110, 230, 190
    rgb[y1:y2, x1:x2] = (235, 228, 205)
    rgb[y1 + 15 : y1 + 30, x1 + 20 : x2 - 20] = (20, 20, 20)
    return rgb, (float(x1), float(y1), float(x2), float(y2))


def test_quarter_turn_swaps_the_sides_exactly() -> None:
    assert turned_box((10, 20, 70, 100), 90.0) == pytest.approx((0, 30, 80, 90))
    assert turned_box((10, 20, 70, 100), 180.0) == pytest.approx((10, 20, 70, 100))
    assert turned_box((10, 20, 70, 100), 0.0) == pytest.approx((10, 20, 70, 100))


@given(st.floats(-400, 400), st.floats(5, 200), st.floats(5, 200))
@settings(max_examples=200, deadline=None)
def test_turned_box_keeps_the_centre_and_lies_between_exact_and_full(angle: float, w: float, h: float) -> None:
    box = turned_box((0.0, 0.0, w, h), angle)
    assert (box[0] + box[2]) / 2 == pytest.approx(w / 2)
    assert (box[1] + box[3]) / 2 == pytest.approx(h / 2)
    a = np.deg2rad(angle)
    full_w = w * abs(np.cos(a)) + h * abs(np.sin(a))
    quarter_w = h if int(round(angle / 90.0)) % 2 else w
    assert min(full_w, quarter_w) - 1e-6 <= box[2] - box[0] <= max(full_w, quarter_w) + 1e-6


def test_a_view_is_a_square_crop_of_the_tile() -> None:
    rgb, box = _photo_with_tile()
    quiet = ViewSettings(size=72, tilt_deg=0.0, jitter=0.0, p_shrink=0.0, p_phone=0.0)
    views = [tile_view(rgb, box, np.random.default_rng(s), quiet) for s in range(12)]
    for v in views:
        assert v.shape == (72, 72, 3) and v.dtype == np.uint8
        centre = v[30:42, 30:42].reshape(-1, 3).mean(0)
        assert centre[0] > 180  # the middle of the crop is the tile's plastic, not the table
    # the dark bar ends up on each of the four sides over the quarter turns
    sides = set()
    for v in views:
        dark = np.argwhere(v.mean(2) < 60)
        cy, cx = dark.mean(0)
        sides.add((int(np.sign(round(cy - 36))), int(np.sign(round(cx - 36)))))
    assert {(-1, 0), (1, 0), (0, -1), (0, 1)} <= sides


def test_views_are_reproducible_from_the_seed() -> None:
    rgb, box = _photo_with_tile()
    a = [tile_view(rgb, box, np.random.default_rng(7)) for _ in range(2)]
    assert np.array_equal(a[0], a[1])
    b = tile_view(rgb, box, np.random.default_rng(8))
    assert not np.array_equal(a[0], b)


def test_a_tile_at_the_photo_edge_still_gives_a_full_view() -> None:
    rgb, _ = _photo_with_tile()
    rgb[0:70, 0:50] = (235, 228, 205)
    for s in range(10):
        v = tile_view(rgb, (0.0, 0.0, 50.0, 70.0), np.random.default_rng(s))
        assert v.shape == (72, 72, 3)
