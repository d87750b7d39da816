"""Write synthetic photos as an ultralytics YOLO dataset, JSON sidecars and classifier crops."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from dataclasses import dataclass
from pathlib import Path

import cv2

from datasets.crops import cut, save_crop
from vision.yolo_format import CLASS_NAMES, label_text, write_data_yaml

from .backgrounds import RealSurfaces
from .generate import image_rng, synth_one, sidecar
from .styles import style_set

CROP_STREAM = 7_777_777  # the crops' random stream: image_rng(seed, index + CROP_STREAM), apart from the photo's


@dataclass(frozen=True)
class Job:
    out: str
    seed: int
    kind: str
    size: int
    crops: bool
    crop_size: int
    split: str
    real_surfaces: str | None
    jpeg_quality: int = 92
    crop_jitter: float = 0.05  # std of each side's shift, as a fraction of the box
    styles: str = "train"  # the side of the style split (styles.py) the tiles are drawn from


_REAL: RealSurfaces | None = None


def meta_path(root: str | os.PathLike, split: str, image: str | os.PathLike) -> Path:
    """Where the JSON sidecar of the photo ``image`` (a name or path) of ``split`` lies in a dataset we wrote."""
    return Path(root) / "meta" / split / (Path(image).stem + ".json")


def read_meta(root: str | os.PathLike, split: str, image: str | os.PathLike) -> dict | None:
    """The JSON sidecar of a rendered photo; None for a photo without a readable one (a real photo)."""
    path = meta_path(root, split, image)
    try:
        meta = json.loads(path.read_text()) if path.is_file() else None
    except (OSError, ValueError):
        return None
    return meta if isinstance(meta, dict) else None


def is_rack_scene(meta: dict | None) -> bool:
    """Whether a rendered photo's sidecar (``read_meta``) shows a rack scene, which the reader reads as a
    rack; a photo without one (a real photo) is not."""
    return meta is not None and meta.get("kind") == "rack"


def _init(real_folder: str | None) -> None:
    global _REAL
    cv2.setNumThreads(1)
    _REAL = RealSurfaces(real_folder) if real_folder else None


def _write_one(args: tuple[Job, int]) -> dict[str, int]:
    job, index = args
    out = synth_one(job.seed, index, job.kind, job.size, _REAL, styles=job.styles)
    name = f"{job.kind}_{job.seed}_{index:06d}"
    root = Path(job.out)
    h, w = out.rgb.shape[:2]
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(out.rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, job.jpeg_quality])
    (root / "images" / job.split / f"{name}.jpg").write_bytes(buf.tobytes())
    (root / "labels" / job.split / f"{name}.txt").write_text(label_text(((t.code, t.box) for t in out.labels), w, h))
    meta_path(root, job.split, f"{name}.jpg").write_text(json.dumps(sidecar(out, f"{name}.jpg")))
    if job.crops and out.labels:
        rng = image_rng(job.seed, index + CROP_STREAM)
        for k, t in enumerate(out.labels):
            # the detector's boxes are not exact: jitter each side a little
            crop = cut(out.rgb, t.box, job.crop_size, rng, job.crop_jitter)
            save_crop(root / "crops" / job.split / t.code / f"{name}_{k:02d}.jpg", crop)
    return {"tiles": len(out.labels), "face_down": len(out.face_down)}


def write_dataset(out: str | os.PathLike, n: int, seed: int = 0, kind: str = "mix-all", size: int = 1024,
                  split: str = "train", crops: bool = True, crop_size: int = 72, workers: int | None = None,
                  real_surfaces: str | None = None, progress: bool = True, start: int = 0,
                  styles: str = "train") -> dict[str, int]:
    """Render ``n`` photos (indices start..start+n-1) into ``out``; returns totals. ``styles`` picks the side
    of the style split (``datasets/synth/styles.py``): ``"train"`` for every set a model learns or is tuned
    on, ``"calib"`` for the calibration set, ``"heldout"`` for the ``unseen`` test set only."""
    style_set(styles)  # fail early on a wrong name
    root = Path(out)
    for sub in ("images", "labels", "meta"):
        (root / sub / split).mkdir(parents=True, exist_ok=True)
    if crops:
        for code in CLASS_NAMES:
            (root / "crops" / split / code).mkdir(parents=True, exist_ok=True)
    # every split rendered into this folder so far, under its own name (train, val, test, calib, ...)
    splits = sorted({p.name for p in (root / "images").iterdir() if p.is_dir()} | {split})
    write_data_yaml(root / "data.yaml", {s: f"images/{s}" for s in splits}, root=root.resolve())
    job = Job(str(root), seed, kind, size, crops, crop_size, split, real_surfaces, styles=styles)
    work = [(job, i) for i in range(start, start + n)]
    workers = workers or max(1, min(os.cpu_count() or 1, 8))
    totals = {"images": 0, "tiles": 0, "face_down": 0}
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover
        tqdm = None
    if workers == 1:
        _init(real_surfaces)
        it = map(_write_one, work)
    else:
        # spawn, not fork: a fork of a process whose torch or OpenMP threads are running can deadlock
        pool = mp.get_context("spawn").Pool(workers, initializer=_init, initargs=(real_surfaces,))
        it = pool.imap(_write_one, work, chunksize=4)
    bar = tqdm(total=n, desc=f"synth {kind} {split}", unit="img", disable=not progress) if tqdm else None
    for r in it:
        totals["images"] += 1
        totals["tiles"] += r["tiles"]
        totals["face_down"] += r["face_down"]
        if bar:
            bar.update(1)
    if bar:
        bar.close()
    if workers != 1:
        pool.close()
        pool.join()
    return totals
