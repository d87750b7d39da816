"""The real development photos (../shared/datasets/rummikub-real-dev): class mapping and the
held-out split.

Attribution: "Rummikub v1" (2026-01-04), Roboflow Universe project rummikue/rummikub-nvypk-8cwem,
CC BY 4.0, as committed to github.com/conner-replogle/rummikub-detector (training split only).

The split is by photo series, so that no training step sees the scenes it is judged on:
``rummy2-`` (close-ups on a dark table) and ``rummy3-`` (a rack on marble) are held out; ``rummy-``,
``rummy4-`` and ``rummyBackground-`` may be used for training and calibration.
"""

from __future__ import annotations

import os
from pathlib import Path

from vision.yolo_format import CLASS_INDEX, DatasetError, class_code, label_line, list_images, read_data_yaml, read_label_file, write_data_yaml

HELD_OUT_SERIES = ("rummy2-", "rummy3-")
TRAIN_SERIES = ("rummy-", "rummy4-", "rummyBackground-")
DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "rummikub-real-dev"
REAL_ENV = "RUMMI_REAL_DEV"


def real_dir() -> Path:
    return Path(os.environ.get(REAL_ENV, DEFAULT_DIR))


def series_of(filename: str) -> str:
    base = os.path.basename(filename)
    for s in sorted(HELD_OUT_SERIES + TRAIN_SERIES, key=len, reverse=True):
        if base.startswith(s):
            return s
    return base.split("-")[0] + "-"


def split_of(filename: str) -> str:
    return "heldout" if series_of(filename) in HELD_OUT_SERIES else "train"


def missing_message(folder: Path) -> str:
    return (f"the real development photos are expected in {folder} (with data.yaml, images/ and labels/); "
            f"point elsewhere with --real DIR or the {REAL_ENV} environment variable")


def check_real_dir(folder: Path) -> Path:
    """``folder`` if it holds the real development photos, else a FileNotFoundError that says where
    they are expected and how to point elsewhere."""
    if not ((folder / "data.yaml").is_file() and (folder / "images").is_dir()):
        raise FileNotFoundError(missing_message(folder))
    return folder


def export_split(dest: Path, split: str, folder: Path | None = None) -> Path:
    """Write ``dest/{images,labels}/<split>`` with labels in our class order (images symlinked)."""
    folder = check_real_dir(folder or real_dir())
    spec = read_data_yaml(folder / "data.yaml")
    if spec.names is None:
        raise DatasetError(f"{spec.file}: no class names")
    remap = {i: CLASS_INDEX[class_code(n)] for i, n in enumerate(spec.names)}
    (dest / "images" / split).mkdir(parents=True, exist_ok=True)
    (dest / "labels" / split).mkdir(parents=True, exist_ok=True)
    for img in list_images(folder / "images", recursive=False):
        if split_of(img.name) != split:
            continue
        link = dest / "images" / split / img.name
        if not link.exists():
            link.symlink_to(img.resolve())
        lines = [label_line(remap[cls], box, 1, 1) for _n, cls, box in read_label_file(folder / "labels" / (img.stem + ".txt"))]
        (dest / "labels" / split / (img.stem + ".txt")).write_text("".join(line + "\n" for line in lines))
    write_data_yaml(dest / "data.yaml", {"train": "images/train", "val": "images/heldout", "heldout": "images/heldout"}, root=Path("."))
    return dest
