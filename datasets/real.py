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

from engine.tiles import ALL_CODES
from vision.evaluate import class_code

HELD_OUT_SERIES = ("rummy2-", "rummy3-")
TRAIN_SERIES = ("rummy-", "rummy4-", "rummyBackground-")
DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "rummikub-real-dev"


def real_dir() -> Path:
    return Path(os.environ.get("RUMMI_REAL_DEV", DEFAULT_DIR))


def series_of(filename: str) -> str:
    base = os.path.basename(filename)
    for s in sorted(HELD_OUT_SERIES + TRAIN_SERIES, key=len, reverse=True):
        if base.startswith(s):
            return s
    return base.split("-")[0] + "-"


def split_of(filename: str) -> str:
    return "heldout" if series_of(filename) in HELD_OUT_SERIES else "train"


def load_names(folder: Path) -> list[str]:
    """Class names in label order, from data.yaml (no yaml dependency needed for this simple file)."""
    names: dict[int, str] = {}
    in_names = False
    for line in (folder / "data.yaml").read_text().splitlines():
        if line.startswith("names:"):
            in_names = True
            continue
        if in_names:
            if not line.startswith(" "):
                break
            k, v = line.strip().split(":", 1)
            names[int(k)] = v.strip().strip("'\"")
    return [names[i] for i in sorted(names)]


def export_split(dest: Path, split: str, folder: Path | None = None) -> Path:
    """Write ``dest/{images,labels}/<split>`` with labels in our class order (images symlinked)."""
    folder = folder or real_dir()
    names = load_names(folder)
    remap = {i: ALL_CODES.index(class_code(n)) for i, n in enumerate(names)}
    (dest / "images" / split).mkdir(parents=True, exist_ok=True)
    (dest / "labels" / split).mkdir(parents=True, exist_ok=True)
    for img in sorted((folder / "images").iterdir()):
        if split_of(img.name) != split:
            continue
        link = dest / "images" / split / img.name
        if not link.exists():
            link.symlink_to(img.resolve())
        lab = folder / "labels" / (img.stem + ".txt")
        lines = []
        if lab.exists():
            for line in lab.read_text().splitlines():
                parts = line.split()
                if len(parts) == 5:
                    lines.append(" ".join([str(remap[int(parts[0])])] + parts[1:]))
        (dest / "labels" / split / (img.stem + ".txt")).write_text("\n".join(lines) + ("\n" if lines else ""))
    yaml_lines = ["path: .", "train: images/train", "val: images/heldout", "heldout: images/heldout", "names:"]
    yaml_lines += [f"  {i}: {c}" for i, c in enumerate(ALL_CODES)]
    (dest / "data.yaml").write_text("\n".join(yaml_lines) + "\n")
    return dest
