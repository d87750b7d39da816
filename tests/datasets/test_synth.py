"""The synthetic generator: labels match the pixels, same seed same data, every code is drawn (the Rummikub
Twist jokers in a share of the photos)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from datasets.synth.generate import TWIST_SHARE, synth_one, twist_box
from datasets.synth.writer import write_dataset
from engine.tiles import ALL_CODES, TWIST_CODES
from vision.yolo_format import CLASS_NAMES, read_data_yaml, read_labels


def _ink_mask(rgb: np.ndarray) -> np.ndarray:
    """Pixels of printed ink on a tile: saturated red/blue/orange, or near-black."""
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    coloured = (hsv[..., 1] > 120) & (hsv[..., 2] > 70)
    black = hsv[..., 2] < 70
    return coloured | black


def _inside(box: list[float], x: float, y: float, margin: float = 1.5) -> bool:
    return box[0] - margin <= x <= box[2] + margin and box[1] - margin <= y <= box[3] + margin


@pytest.mark.parametrize("kind,index,twist", [("table", 0, None), ("table", 1, None), ("loose", 2, None), ("loose", 3, None),
                                              ("table", 4, None), ("table", 5, True), ("loose", 8, True)])
def test_every_digit_lies_in_a_labelled_box_and_every_box_holds_ink(kind: str, index: int, twist: bool | None) -> None:
    """On a plain light table with no distractors, ink blobs and labels must agree both ways (the Twist
    jokers' marks too)."""
    out = synth_one(11, index, kind, 768, effects=False, surface="plain", twist=twist)
    assert out.labels, "a table or loose scene shows tiles"
    ink = _ink_mask(out.rgb).astype(np.uint8)
    n, comp, stats, centroids = cv2.connectedComponentsWithStats(ink, connectivity=8)
    boxes = [t.box for t in out.labels]
    hidden = [f["box"] for f in out.face_down]
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] < 12:
            continue
        cx, cy = centroids[k]
        assert any(_inside(b, cx, cy) for b in boxes + hidden), f"ink blob at ({cx:.0f}, {cy:.0f}) is outside every label"
    for t in out.labels:
        x1, y1, x2, y2 = (int(round(v)) for v in t.box)
        assert ink[y1:y2, x1:x2].sum() >= 6, f"{t.code} box {t.box} contains no ink"
        assert x2 > x1 and y2 > y1


def test_labels_follow_the_layout_of_melds() -> None:
    out = synth_one(3, 5, "table", 768, effects=False)
    melds = out.meta["melds"]
    by_meld: dict[int, list] = {}
    for t in out.labels:
        if t.meld is not None:
            by_meld.setdefault(t.meld, []).append(t)
    for m, tiles in by_meld.items():
        tiles.sort(key=lambda t: t.order)
        assert [t.code for t in tiles] == [melds[m][t.order] for t in tiles]


def test_same_seed_same_bytes(tmp_path: Path) -> None:
    a = write_dataset(tmp_path / "a", 6, seed=4, size=384, workers=2, progress=False)
    b = write_dataset(tmp_path / "b", 6, seed=4, size=384, workers=1, progress=False)
    assert a == b
    la = sorted((tmp_path / "a" / "labels" / "train").iterdir())
    lb = sorted((tmp_path / "b" / "labels" / "train").iterdir())
    assert [p.name for p in la] == [p.name for p in lb]
    for pa, pb in zip(la, lb):
        assert pa.read_bytes() == pb.read_bytes()
    for name in ("images", "meta"):
        for pa in (tmp_path / "a" / name / "train").iterdir():
            assert pa.read_bytes() == (tmp_path / "b" / name / "train" / pa.name).read_bytes()
    c = write_dataset(tmp_path / "c", 2, seed=5, size=384, workers=1, progress=False)
    assert c["images"] == 2
    ia = sorted((tmp_path / "a" / "images" / "train").iterdir())
    ic = sorted((tmp_path / "c" / "images" / "train").iterdir())
    assert len(ic) == 2 and len(list((tmp_path / "c" / "labels" / "train").iterdir())) == 2
    assert all(pc.read_bytes() != pa.read_bytes() for pa, pc in zip(ia, ic)), "another seed draws other photos"
    first_c = sorted((tmp_path / "c" / "labels" / "train").iterdir())[0].read_bytes()
    assert first_c != la[0].read_bytes()


def test_dataset_layout_and_sidecar(tmp_path: Path) -> None:
    write_dataset(tmp_path, 3, seed=9, size=384, workers=1, progress=False, kind="table")
    yaml_text = (tmp_path / "data.yaml").read_text()
    assert "0: K1" in yaml_text and "52: J" in yaml_text and "55: JC" in yaml_text
    meta = json.loads(next((tmp_path / "meta" / "train").iterdir()).read_text())
    assert {"image", "width", "height", "tiles", "melds"} <= set(meta)
    tile = next(t for t in meta["tiles"] if not t["face_down"])
    assert {"code", "box", "corners", "meld", "rotation", "hidden", "visible"} <= set(tile)
    assert len(tile["corners"]) == 4
    crops = list((tmp_path / "crops" / "train").rglob("*.jpg"))
    assert crops, "single-tile crops are written"
    img = cv2.imread(str(crops[0]))
    assert img.shape[:2] == (72, 72)


def test_twist_jokers_are_rendered_and_labelled_with_their_own_codes(tmp_path: Path) -> None:
    """Photos from a Twist box show its special jokers, labelled JD/JM/JC in the label files (classes 53-55);
    a base-game photo never shows one; the box is drawn for a share of the photos, on its own stream."""
    seen: Counter[str] = Counter()
    for index in range(6):
        out = synth_one(13, index, "table", 640, effects=False, surface="plain", twist=True)
        assert out.meta["twist"] is True
        shown = Counter(t.code for t in out.labels if t.code in TWIST_CODES)
        assert all(n == 1 for n in shown.values()), "one of each in a box"
        seen.update(shown)
        base = synth_one(13, index, "table", 640, effects=False, surface="plain", twist=False)
        assert not any(t.code in TWIST_CODES for t in base.labels)
        assert not any(c in TWIST_CODES for meld in base.meta["melds"] for c in meld)
    assert set(seen) == set(TWIST_CODES)
    # the writer's label files and data.yaml carry them as the reader's classes
    twist_photos = [i for i in range(40) if twist_box(3, i)]
    write_dataset(tmp_path, twist_photos[-1] + 1, seed=3, size=480, kind="table", workers=1, progress=False)
    names = read_data_yaml(tmp_path / "data.yaml").names
    assert names == CLASS_NAMES
    labelled: Counter[str] = Counter()
    for label in sorted((tmp_path / "labels" / "train").iterdir()):
        meta = json.loads((tmp_path / "meta" / "train" / (label.stem + ".json")).read_text())
        codes = [t.code for t in read_labels(label, names, meta["width"], meta["height"])]
        assert codes == [t["code"] for t in meta["tiles"] if not t["face_down"]]
        if not meta["twist"]:
            assert not set(codes) & set(TWIST_CODES)
        labelled.update(c for c in codes if c in TWIST_CODES)
    assert labelled, "the Twist photos of the set show their jokers"
    assert abs(sum(twist_box(0, i) for i in range(2000)) / 2000 - TWIST_SHARE) < 0.03


@pytest.mark.slow
def test_class_balance_over_1000_renders() -> None:
    counts: Counter[str] = Counter()
    jokers: Counter[str] = Counter()
    for i in range(1000):
        out = synth_one(21, i, "mix-all", 320, effects=False)
        for t in out.labels:
            counts[t.code] += 1
            if t.code == "J":
                jokers[t.joker_colour] += 1
    total = sum(counts.values())
    fair = total / len(ALL_CODES[:-1]) if total else 0
    for code in ALL_CODES[:-1]:
        assert counts[code] >= fair / 2, f"{code}: {counts[code]} < half of the fair share {fair:.0f}"
    assert counts["J"] > 0
    assert jokers["red"] > 0 and jokers["black"] > 0, "both jokers (red and black) appear"
    for code in TWIST_CODES:  # a Twist box in a share of the photos, one of each special joker in it
        assert counts[code] >= fair / 10, f"{code}: {counts[code]} < a tenth of the fair share {fair:.0f}"
