"""bench/bench_phones.py: each change does to a photo what its name says, and the changed copy of a set keeps
its labels, so that the reader's scores on it are comparable with the photos as they were."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_phones import CHANGES, changed_copy, row  # noqa: E402

from vision.evaluate import EvalReport, open_dataset  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.turn import turned_box  # noqa: E402

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


def test_a_shaken_photo_smears_a_dot_one_way_only():
    dot = np.zeros((1000, 1000, 3), np.uint8)
    dot[500, 500] = 255
    ys, xs = np.nonzero(CHANGES["shake"](dot, np.random.default_rng(3))[..., 0])
    spread = np.linalg.eigvalsh(np.cov(np.stack([xs, ys]).astype(float)))  # across, along the streak
    assert spread[1] > 9 * spread[0] and spread[1] > 4  # 8 px long per 1000 px, about a pixel across


def test_sepia_is_one_brown_and_faded_keeps_an_eighth_of_the_colour():
    rgb = _photo()
    blue = CHANGES["sepia"](rgb, np.random.default_rng(0))[450, 600].astype(int)
    assert blue[0] > blue[1] > blue[2]  # the blue number turned brown
    hsv = cv2.cvtColor(np.ascontiguousarray(rgb[300:600, 450:750]), cv2.COLOR_RGB2HSV)
    faded = cv2.cvtColor(CHANGES["faded"](rgb, np.random.default_rng(0))[300:600, 450:750], cv2.COLOR_RGB2HSV)
    assert faded[..., 1].mean() == pytest.approx(hsv[..., 1].mean() / 8, abs=2)


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


def test_a_slanted_copy_warps_each_photo_and_its_labels_alike(tmp_path):
    from bench_phones import VIEWS, as_taken

    source = open_dataset(REAL, "val")
    out = changed_copy(str(REAL), "val", as_taken, tmp_path / "slant", limit=1, view=VIEWS["slant"])
    copy = open_dataset(out, "val")
    (image, labels), (original, original_labels) = copy.photos[0], source.photos[0]
    before, after = load_image(original).rgb, load_image(image).rgb
    assert after.shape[1] == before.shape[1] and after.shape[0] == round(0.8 * before.shape[0])
    old = [line.split() for line in original_labels.read_text().splitlines()]
    new = [line.split() for line in labels.read_text().splitlines()]
    assert 0 < len(new) <= len(old)
    m, size = VIEWS["slant"].matrix(before.shape[1], before.shape[0])
    assert size == (after.shape[1], after.shape[0])
    for n in new:
        nx, ny, nw, nh = map(float, n[1:])
        assert 0 <= nx - nw / 2 and nx + nw / 2 <= 1 + 1e-6 and 0 <= ny - nh / 2 and ny + nh / 2 <= 1 + 1e-6
    # each label kept is its tile's box warped: the class of the original label whose warped centre is nearest
    for n in new:
        centre = np.float32([[[float(n[1]) * size[0], float(n[2]) * size[1]]]])
        back = cv2.perspectiveTransform(centre, np.linalg.inv(m))[0, 0] / [before.shape[1], before.shape[0]]
        nearest = min(old, key=lambda o: (float(o[1]) - back[0]) ** 2 + (float(o[2]) - back[1]) ** 2)
        assert nearest[0] == n[0]


def test_the_slant_keeps_the_near_edge_and_narrows_the_far_one():
    from bench_phones import VIEWS

    m, (w, h) = VIEWS["steep"].matrix(1000, 800)
    assert (w, h) == (1000, 480)
    # the photo's top edge fills the changed photo's top; its foot's middle 55% fills the changed photo's foot
    corners = cv2.perspectiveTransform(np.float32([[[0, 0], [1000, 0], [775, 800], [225, 800]]]), m)[0]
    assert np.allclose(corners, [[0, 0], [1000, 0], [1000, 480], [0, 480]], atol=1e-3)
    # so a tile near the foot is drawn wider than one of the same size near the top, as a nearer tile is
    top, foot = (cv2.perspectiveTransform(np.float32([[[450, y], [550, y]]]), m)[0] for y in (50, 750))
    assert foot[1, 0] - foot[0, 0] > 1.5 * (top[1, 0] - top[0, 0])


@pytest.mark.parametrize("name, quarters", [("quarter", 1), ("half", 2), ("three", 3)])
def test_a_turned_copy_turns_each_photo_and_its_labels_alike(tmp_path, name, quarters):
    from bench_phones import VIEWS, as_taken

    source = open_dataset(REAL, "val")
    out = changed_copy(str(REAL), "val", as_taken, tmp_path / name, limit=1, view=VIEWS[name])
    (image, labels), (original, original_labels) = open_dataset(out, "val").photos[0], source.photos[0]
    before, after = load_image(original).rgb, load_image(image).rgb
    assert np.array_equal(after, np.rot90(before, -quarters))  # pixel for pixel, clockwise
    old = [line.split() for line in original_labels.read_text().splitlines()]
    new = [line.split() for line in labels.read_text().splitlines()]
    assert len(new) == len(old)  # nothing leaves the photo
    h, w = before.shape[:2]
    for o, n in zip(old, new):
        cx, cy, bw, bh = float(o[1]) * w, float(o[2]) * h, float(o[3]) * w, float(o[4]) * h
        box = turned_box((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2), quarters, w, h)
        W, H = after.shape[1], after.shape[0]
        assert n[0] == o[0]
        assert [float(v) for v in n[1:]] == pytest.approx(
            [(box[0] + box[2]) / 2 / W, (box[1] + box[3]) / 2 / H, (box[2] - box[0]) / W, (box[3] - box[1]) / H], abs=1e-5)


def test_a_mirrored_copy_mirrors_each_photo_and_its_labels_alike(tmp_path):
    from bench_phones import VIEWS, as_taken

    source = open_dataset(REAL, "val")
    out = changed_copy(str(REAL), "val", as_taken, tmp_path / "mirror", limit=1, view=VIEWS["mirror"])
    (image, labels), (original, original_labels) = open_dataset(out, "val").photos[0], source.photos[0]
    before, after = load_image(original).rgb, load_image(image).rgb
    assert np.array_equal(after, before[:, ::-1])  # pixel for pixel, left to right
    old = [line.split() for line in original_labels.read_text().splitlines()]
    new = [line.split() for line in labels.read_text().splitlines()]
    assert len(new) == len(old) and old
    for o, n in zip(old, new):  # the centre mirrored, the size and the class kept
        assert n[0] == o[0]
        assert [float(v) for v in n[1:]] == pytest.approx([1 - float(o[1]), *(float(v) for v in o[2:])], abs=1e-5)


def test_a_row_shows_the_sure_readings_on_no_tile_beside_the_sure_but_wrong():
    # a tile's digit boxed alone and read as a sure number is on no labelled tile: sure but wrong never counts it
    report = EvalReport(dataset="d", split="s", photos=2, labelled=40, detected=46, matched=38, exact=35,
                        number_right=36, colour_right=38, recall=0.95, precision=0.83, exact_accuracy=0.875,
                        number_accuracy=0.95, colour_accuracy=1.0, sure=20, sure_wrong=1, wrong=3, wrong_flagged=2,
                        sure_on_no_tile=7)
    line = row("steep", report, report)
    found_exact_sure, wrong, rest = line.partition("   1 ( 5.0%)")
    assert wrong and found_exact_sure.split() == ["steep", "95.0%", "87.5%", "52.6%"]
    assert rest.split() == ["7", "66.7%", "1.00", "1.00", "1.00"]  # on no tile, errors flagged, the ratios
