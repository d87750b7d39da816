"""bench/bench_phones.py: each change does to a photo what its name says, and the changed copy of a set keeps
its labels, so that the reader's scores on it are comparable with the photos as they were."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_phones import CHANGES, changed_copy  # noqa: E402

from vision.evaluate import open_dataset  # noqa: E402
from vision.load import load_image  # noqa: E402

REAL = ROOT / "tests" / "fixtures" / "real"


def _photo() -> np.ndarray:
    rng = np.random.default_rng(1)
    rgb = np.full((900, 1200, 3), (200, 190, 170), np.uint8)  # an ivory face ...
    rgb[300:600, 450:750] = (40, 60, 160)  # ... with a blue number on it
    return np.clip(rgb.astype(int) + rng.integers(-3, 4, rgb.shape), 0, 255).astype(np.uint8)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_each_change_gives_a_photo_and_changes_it(name):
    rgb = _photo()
    out = CHANGES[name](rgb, np.random.default_rng(0))
    assert out.dtype == np.uint8 and out.ndim == 3 and out.shape[2] == 3
    if out.shape == rgb.shape:  # else shrunk
        assert np.abs(out.astype(int) - rgb.astype(int)).mean() > 0.5


def test_warm_light_raises_red_and_lowers_blue_and_cold_light_the_reverse():
    rgb = _photo()
    warm, cold = (CHANGES[n](rgb, np.random.default_rng(0)).reshape(-1, 3).mean(0) for n in ("warm", "cold"))
    before = rgb.reshape(-1, 3).mean(0)
    assert warm[0] > before[0] and warm[2] < before[2]
    assert cold[0] < before[0] and cold[2] > before[2]


def test_small_shrinks_the_long_side_to_800_px():
    big = np.zeros((1500, 2000, 3), np.uint8)
    assert CHANGES["small"](big, np.random.default_rng(0)).shape == (600, 800, 3)


def test_a_changed_copy_keeps_every_photo_and_its_labels(tmp_path):
    source = open_dataset(REAL, "val")
    out = changed_copy(str(REAL), "val", CHANGES["warm"], tmp_path / "warm", limit=2)
    copy = open_dataset(out, "val")
    assert [p.stem for p, _ in copy.photos] == [p.stem for p, _ in source.photos[:2]]
    assert copy.names == source.names
    for (image, labels), (original, original_labels) in zip(copy.photos, source.photos):
        assert labels.read_text() == original_labels.read_text()
        assert load_image(image).rgb.shape == load_image(original).rgb.shape
