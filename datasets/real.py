"""The real development photos (../shared/datasets/rummikub-real-dev): class mapping and the
held-out split.

Attribution: "Rummikub v1" (2026-01-04), Roboflow Universe project rummikue/rummikub-nvypk-8cwem,
CC BY 4.0, as committed to github.com/conner-replogle/rummikub-detector (training split only).

The split is by photo series, so that no training step sees the scenes it is judged on:
``rummy2-`` (close-ups on a dark table) and ``rummy3-`` (a rack on marble) are held out; ``rummy-``,
``rummy4-`` and ``rummyBackground-`` may be used for training and calibration.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine.tiles import ALL_CODES

HELD_OUT_SERIES = ("rummy2-", "rummy3-")
TRAIN_SERIES = ("rummy-", "rummy4-", "rummyBackground-")
COLOUR_LETTER = {"black": "K", "red": "R", "blue": "B", "orange": "O", "yellow": "O"}
DEFAULT_DIR = Path(__file__).resolve().parent.parent.parent / "shared" / "datasets" / "rummikub-real-dev"


def real_dir() -> Path:
    return Path(os.environ.get("RUMMI_REAL_DEV", DEFAULT_DIR))


def class_name_to_code(name: str) -> str:
    """``black_10`` -> ``K10``, ``joker`` -> ``J``; tile codes pass through."""
    n = name.strip()
    if n.lower() in ("joker", "j"):
        return "J"
    if "_" in n:
        colour, number = n.lower().split("_", 1)
        return f"{COLOUR_LETTER[colour]}{int(number)}"
    if n.upper() in ALL_CODES:
        return n.upper()
    raise ValueError(f"unknown tile class name {name!r}")


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
    remap = {i: ALL_CODES.index(class_name_to_code(n)) for i, n in enumerate(names)}
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


def classes_json_codes(folder: Path | None = None) -> dict[str, str]:
    folder = folder or real_dir()
    data = json.loads((folder / "classes.json").read_text())
    return {name: class_name_to_code(name) for name in data}
