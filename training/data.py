"""The data steps of a run: renders, the real photos' export, and the classifier's crops cut from them.

Everything lands in the run folder (``work``); nothing here is committed.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np
from tqdm import tqdm

from datasets.crops import cut, save_crop
from datasets.real import export_split
from datasets.synth.writer import write_dataset
from datasets.views import ViewSettings, tile_view
from training.plan import Plan
from vision.yolo_format import CLASS_NAMES, list_images, read_label_file, read_labels

REAL_CROP = "real_"  # file-name prefix of classifier crops cut from the real photos (the rest are renders)
SPLITS = ("train", "val")


def render(plan: Plan, work: Path) -> dict[str, dict[str, int]]:
    """The synthetic train, validation and test sets, the calibration set (drawn only from the styles kept for
    the calibration) and its racks at a phone's resolution, the ``unseen`` test set (only from the styles held out of both; see
    ``datasets/synth/styles.py``), ``unseen_racks``, racks only in those held-out styles, and ``phone_racks``, the
    same racks at a phone's resolution. A set already complete in ``work`` is kept."""
    synth = work / "synth"
    counts = {}
    for split, n, seed, size, crops, styles, kind in (
            ("train", plan.synth_train, plan.seed_train, plan.render_size, True, "train", "mix-all"),
            ("val", plan.synth_val, plan.seed_val, plan.render_size, True, "train", "mix-all"),
            ("test", plan.synth_test, plan.seed_test, plan.test_render_size, False, "train", "mix-all"),
            ("calib", plan.synth_calib, plan.seed_calib, plan.test_render_size, False, "calib", "mix-all"),
            ("calib_racks", plan.synth_calib_racks, plan.seed_calib_racks, plan.phone_render_size, False, "calib", "rack"),
            ("unseen", plan.synth_unseen, plan.seed_unseen, plan.test_render_size, False, "heldout", "mix-all"),
            ("unseen_racks", plan.synth_unseen_racks, plan.seed_unseen_racks, plan.test_render_size, False, "heldout", "rack"),
            ("phone_racks", plan.synth_phone_racks, plan.seed_unseen_racks, plan.phone_render_size, False, "heldout", "rack")):
        folder = synth / "images" / split
        if not folder.exists() or len(list_images(folder)) < n:
            write_dataset(synth, n, seed=plan.seed + seed, kind=kind, size=size, split=split, crops=crops,
                          crop_size=plan.crop_side, workers=plan.workers, styles=styles)
        counts[f"synth_{split}"] = count_labelled(synth, split)
    return counts


def export_real(work: Path, real: Path) -> dict[str, dict[str, int]]:
    """The real development photos as ``work/real/{images,labels}/{train,heldout}`` (see datasets/real.py)."""
    counts = {}
    for split in ("train", "heldout"):
        export_split(work / "real", split, real)
        counts[f"real_{split}"] = count_labelled(work / "real", split)
    return counts


def count_labelled(root: Path, split: str) -> dict[str, int]:
    """Photos and labelled tiles of one split of a dataset we wrote (the model card's counts)."""
    images = list_images(root / "images" / split)
    tiles = sum(len(read_label_file(root / "labels" / split / (img.stem + ".txt"))) for img in images)
    return {"photos": len(images), "tiles": tiles}


def labelled_tiles(root: Path, split: str) -> Iterator[tuple[str, int, np.ndarray, str, tuple[float, float, float, float]]]:
    """Each labelled tile of a split: (photo stem, index, RGB photo, code, box)."""
    for img in list_images(root / "images" / split):
        bgr = cv2.imread(str(img))
        if bgr is None:
            continue
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        labels = read_labels(root / "labels" / split / (img.stem + ".txt"), CLASS_NAMES, rgb.shape[1], rgb.shape[0])
        for k, tile in enumerate(labels):
            yield img.stem, k, rgb, tile.code, tile.box


def real_crops(plan: Plan, work: Path) -> Path:
    """Classifier crops from the real training series: each tile cut once at its label and
    ``real_crop_repeat - 1`` more times at a jittered box."""
    out = work / "real_crops"
    if out.exists():
        return out
    rng = np.random.default_rng(plan.seed)
    for stem, k, rgb, code, box in labelled_tiles(work / "real", "train"):
        d = out / code
        d.mkdir(parents=True, exist_ok=True)
        for r in range(plan.real_crop_repeat):
            crop = cut(rgb, box, plan.crop_side, rng if r else None, plan.crop_jitter)
            save_crop(d / f"{stem}_{k:02d}_{r}.jpg", crop)
    return out


def real_views(plan: Plan, work: Path) -> Path:
    """``cls_views_real`` augmented views (``datasets/views.py``) of each tile of the real training series."""
    out = work / "real_views"
    if out.exists():
        shutil.rmtree(out)
    rng = np.random.default_rng(plan.seed + plan.seed_views)
    settings = ViewSettings(size=plan.crop_side)
    tiles = list(labelled_tiles(work / "real", "train"))
    for stem, k, rgb, code, box in tqdm(tiles, desc="real tile views", unit="tile"):
        d = out / code
        d.mkdir(parents=True, exist_ok=True)
        for v in range(plan.cls_views_real):
            save_crop(d / f"{stem}_{k:02d}_{v:02d}.jpg", tile_view(rgb, box, rng, settings))
    return out


def link_folder(root: Path, sources: dict[str, list[tuple[Path, str]]]) -> Path:
    """An ultralytics classification folder ``root/{train,val}/<code>/`` of symlinks: for each split,
    the crops under each (folder of ``<code>/`` folders, name prefix) source."""
    if root.exists():
        shutil.rmtree(root)
    for split in SPLITS:
        for code in CLASS_NAMES:
            d = root / split / code
            d.mkdir(parents=True, exist_ok=True)
            for folder, prefix in sources.get(split, []):
                for f in sorted((folder / code).glob("*.jpg")) if (folder / code).exists() else []:
                    (d / (prefix + f.name)).symlink_to(f.resolve())
    return root
