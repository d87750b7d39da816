"""bench/bench_editions.py: each edition turns only its labelled tiles' ink of its colour, to the shade its name
says, and leaves the rest of the photo (the plastic, the table, other tiles, jokers) as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_editions import CRIMSON_HUE, EDITIONS, TEAL_HUE, YELLOW_HUE  # noqa: E402
from bench_phones import as_taken, changed_copy  # noqa: E402

from vision.evaluate import open_dataset  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.yolo_format import LabelledTile  # noqa: E402

INKS = {"K": (30, 30, 35), "R": (200, 30, 40), "B": (30, 60, 170), "O": (230, 120, 30)}
FACE = (235, 230, 218)


def _table() -> tuple[np.ndarray, list[LabelledTile]]:
    """A grey table with one tile of each colour and a joker (a red face), each a face with a square of ink."""
    rng = np.random.default_rng(3)
    rgb = np.full((300, 700, 3), (150, 150, 155), np.uint8)
    tiles = []
    for k, code in enumerate(("K5", "R5", "B5", "O5", "J")):
        x = 20 + 130 * k
        rgb[50:210, x : x + 110] = FACE
        rgb[90:170, x + 30 : x + 80] = INKS[code[0] if code != "J" else "R"]
        tiles.append(LabelledTile(box=(x, 50, x + 110, 210), code=code))
    noisy = rgb.astype(int) + rng.integers(-3, 4, rgb.shape)
    return np.clip(noisy, 0, 255).astype(np.uint8), tiles


def _ink(rgb: np.ndarray, k: int) -> np.ndarray:
    """The mean colour of the ink square of tile ``k``."""
    x = 20 + 130 * k
    return rgb[100:160, x + 35 : x + 75].reshape(-1, 3).mean(0)


def _hue(colour: np.ndarray) -> float:
    return float(cv2.cvtColor(np.uint8([[colour]]), cv2.COLOR_RGB2HSV)[0, 0, 0])


@pytest.mark.parametrize("name, k, hue", [("teal", 2, TEAL_HUE), ("yellow", 3, YELLOW_HUE), ("crimson", 1, CRIMSON_HUE)])
def test_an_ink_is_turned_to_its_editions_hue_and_nothing_else_changes(name, k, hue):
    rgb, tiles = _table()
    out = EDITIONS[name](rgb, tiles)
    assert abs(_hue(_ink(out, k)) - hue) <= 3
    changed = np.abs(out.astype(int) - rgb.astype(int)).sum(2) > 0
    x = 20 + 130 * k
    outside = changed.copy()
    outside[50:210, x : x + 110] = False
    assert not outside.any()  # the table, the other tiles and the joker are untouched
    face = out[60:80, x + 5 : x + 105]  # the plastic above the ink
    assert np.array_equal(face, rgb[60:80, x + 5 : x + 105])


def test_black_ink_is_lightened_to_a_dark_grey():
    rgb, tiles = _table()
    out = EDITIONS["grey"](rgb, tiles)
    before, after = _ink(rgb, 0), _ink(out, 0)
    assert after.mean() > before.mean() + 30 and after.mean() < 110
    assert np.abs(after - after.mean()).max() < 10  # still grey, not a colour
    assert np.array_equal(out[:, 150:], rgb[:, 150:])  # only the black tile


def test_the_edition_turns_every_ink_at_once_and_never_a_joker():
    rgb, tiles = _table()
    out = EDITIONS["edition"](rgb, tiles)
    assert abs(_hue(_ink(out, 2)) - TEAL_HUE) <= 3 and abs(_hue(_ink(out, 3)) - YELLOW_HUE) <= 3
    assert abs(_hue(_ink(out, 1)) - CRIMSON_HUE) <= 3
    assert np.array_equal(out[:, 540:], rgb[:, 540:])  # the joker's red face is not a red tile's ink


def test_a_tile_cut_by_the_photos_edge_or_with_no_coloured_ink_is_left_alone():
    rgb, tiles = _table()
    edge = [LabelledTile(box=(-40, 50, 2, 210), code="B3"), LabelledTile(box=(20, 50, 130, 210), code="B7")]
    out = EDITIONS["teal"](rgb, edge)  # the second box holds black ink, not blue
    assert np.array_equal(out, rgb)


def test_a_recoloured_copy_keeps_every_photo_and_its_labels(tmp_path):
    real = ROOT / "tests" / "fixtures" / "real"
    source = open_dataset(real, "val")
    out = changed_copy(str(real), "val", as_taken, tmp_path / "teal", limit=2, tiles_change=EDITIONS["teal"])
    copy = open_dataset(out, "val")
    assert [p.stem for p, _ in copy.photos] == [p.stem for p, _ in source.photos[:2]]
    changed = 0
    for (image, labels), (original, original_labels) in zip(copy.photos, source.photos):
        assert labels.read_text() == original_labels.read_text()
        a, b = load_image(image).rgb, load_image(original).rgb
        assert a.shape == b.shape
        changed += int(np.abs(a.astype(int) - b.astype(int)).sum() > 0)
    assert changed >= 1  # the fixtures hold blue tiles


def test_upside_turns_each_tile_half_round_in_its_own_box_and_leaves_overlapping_ones():
    rgb, tiles = _table()
    rgb[55:65, 20:130] = (0, 200, 0)  # a green bar along the top of the black tile's face
    slanted = [*tiles, LabelledTile(box=(600, 20, 690, 120), code="R9"), LabelledTile(box=(640, 60, 700, 160), code="R9")]
    out = EDITIONS["upside"](rgb, slanted)
    assert np.array_equal(out[50:210, 20:130], rgb[50:210, 20:130][::-1, ::-1])
    assert (out[195:205, 25:125] == (0, 200, 0)).all()  # the bar is now along its foot
    assert np.array_equal(out[:, 590:], rgb[:, 590:])  # the two overlapping boxes are left
    assert np.array_equal(out[:, :20], rgb[:, :20])  # the table between tiles is untouched
