"""Write synthetic photos as an ultralytics YOLO dataset, JSON sidecars and classifier crops."""

from __future__ import annotations

import json
import multiprocessing as mp
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import ALL_CODES

from .backgrounds import RealSurfaces
from .generate import image_rng, synth_one, sidecar

CLASS_INDEX = {c: i for i, c in enumerate(ALL_CODES)}


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


_REAL: RealSurfaces | None = None


def _init(real_folder: str | None) -> None:
    global _REAL
    cv2.setNumThreads(1)
    _REAL = RealSurfaces(real_folder) if real_folder else None


def yolo_lines(labels: list, w: int, h: int) -> str:
    lines = []
    for t in labels:
        x1, y1, x2, y2 = t.box
        lines.append(f"{CLASS_INDEX[t.code]} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} {(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")
    return "\n".join(lines) + ("\n" if lines else "")


def _write_one(args: tuple[Job, int]) -> dict[str, int]:
    from vision.crops import crop_tile

    job, index = args
    out = synth_one(job.seed, index, job.kind, job.size, _REAL)
    name = f"{job.kind}_{job.seed}_{index:06d}"
    root = Path(job.out)
    h, w = out.rgb.shape[:2]
    ok, buf = cv2.imencode(".jpg", cv2.cvtColor(out.rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, job.jpeg_quality])
    (root / "images" / job.split / f"{name}.jpg").write_bytes(buf.tobytes())
    (root / "labels" / job.split / f"{name}.txt").write_text(yolo_lines(out.labels, w, h))
    (root / "meta" / job.split / f"{name}.json").write_text(json.dumps(sidecar(out, f"{name}.jpg")))
    if job.crops and out.labels:
        rng = image_rng(job.seed, index + 7_777_777)
        for k, t in enumerate(out.labels):
            x1, y1, x2, y2 = t.box
            bw, bh = x2 - x1, y2 - y1
            # the detector's boxes are not exact: jitter each side a little
            j = rng.normal(0, 0.05, 4) * np.array([bw, bh, bw, bh])
            box = (x1 + j[0], y1 + j[1], x2 + j[2], y2 + j[3])
            crop = crop_tile(out.rgb, box, job.crop_size)
            d = root / "crops" / job.split / t.code
            ok, cbuf = cv2.imencode(".jpg", cv2.cvtColor(crop, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 95])
            (d / f"{name}_{k:02d}.jpg").write_bytes(cbuf.tobytes())
    return {"tiles": len(out.labels), "face_down": len(out.face_down)}


def write_dataset(out: str | os.PathLike, n: int, seed: int = 0, kind: str = "mix-all", size: int = 1024,
                  split: str = "train", crops: bool = True, crop_size: int = 72, workers: int | None = None,
                  real_surfaces: str | None = None, progress: bool = True, start: int = 0) -> dict[str, int]:
    """Render ``n`` photos (indices start..start+n-1) into ``out``; returns totals."""
    root = Path(out)
    for sub in ("images", "labels", "meta"):
        (root / sub / split).mkdir(parents=True, exist_ok=True)
    if crops:
        for code in ALL_CODES:
            (root / "crops" / split / code).mkdir(parents=True, exist_ok=True)
    write_data_yaml(root)
    job = Job(str(root), seed, kind, size, crops, crop_size, split, real_surfaces)
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


def write_data_yaml(root: Path) -> None:
    lines = [f"path: {root.resolve()}", "train: images/train", "val: images/val", "test: images/test", "names:"]
    lines += [f"  {i}: {c}" for i, c in enumerate(ALL_CODES)]
    (root / "data.yaml").write_text("\n".join(lines) + "\n")
