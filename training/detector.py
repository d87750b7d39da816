"""The one-class tile detector's runs: renders only, then fine-tuning with the real training series, then
racks; and the realism check (how many real tiles the renders-only detector finds)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

from training.plan import Plan
from training.report import TrainReport
from training.yolo_args import common_args
from vision.metrics import match
from vision.yolo_format import CLASS_NAMES, label_path, list_images, read_labels, write_data_yaml, write_image_list


def detector_yaml(width: float, dest: Path) -> Path:
    """Ultralytics' own YOLOv8 model YAML with one class and our width multiplier."""
    import yaml
    from ultralytics.utils import ROOT

    cfg = copy.deepcopy(yaml.safe_load((ROOT / "cfg" / "models" / "v8" / "yolov8.yaml").read_text()))
    cfg["nc"] = 1
    cfg["scales"] = {"t": [0.33, width, 512]}
    cfg["scale"] = "t"
    dest.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return dest


def detector_args(plan: Plan) -> dict[str, Any]:
    # fliplr mirrors digits (a mirrored 2 is not a tile); a large hsv_h turns red into orange.
    return dict(imgsz=plan.det_imgsz, batch=plan.det_batch, single_cls=True, fliplr=0.0, flipud=0.0, hsv_h=0.0,
                hsv_s=0.3, hsv_v=0.3, degrees=0.0, scale=0.5, translate=0.1, mosaic=1.0, mixup=0.0,
                close_mosaic=2, cache="ram", patience=100, **common_args(plan))


def train_on_renders(plan: Plan, work: Path, report: TrainReport) -> Path:
    """Phase A: from the model YAML, on renders only."""
    from ultralytics import YOLO

    cfg = detector_yaml(plan.det_width, work / "tile-detector.yaml")
    synth = (work / "synth").resolve()
    data = write_data_yaml(work / "det_synth.yaml", {"train": [synth / "images" / "train"], "val": [synth / "images" / "val"]})
    with report.timed("detector_synth"):
        YOLO(str(cfg), task="detect").train(data=str(data), epochs=plan.det_epochs_synth,
                                            project=str(work.resolve() / "runs"), name="det_synth", **detector_args(plan))
    return work / "runs" / "det_synth" / "weights" / "best.pt"


def finetune(plan: Plan, work: Path, report: TrainReport, start: Path) -> Path:
    """Phase B: from phase A's weights, on ``finetune_synth`` renders beside the real training series
    listed ``real_repeat`` times."""
    synth = work / "synth"
    real_list = write_image_list(work / "real_train_list.txt", list_images(work / "real" / "images" / "train", recursive=False),
                                 repeat=plan.real_repeat)
    synth_list = write_image_list(work / "synth_finetune_list.txt",
                                  [p.resolve() for p in list_images(synth / "images" / "train")][: plan.finetune_synth])
    data = write_data_yaml(work / "det_finetune.yaml", {"train": [synth_list.resolve(), real_list.resolve()],
                                                        "val": [(synth / "images" / "val").resolve()]})
    return _continue(plan, work, report, start, data, plan.det_epochs_finetune, "det_finetune", "detector_finetune")


def _continue(plan: Plan, work: Path, report: TrainReport, start: Path, data: Path, epochs: int, name: str, step: str) -> Path:
    """A later phase: ``epochs`` more from ``start``'s weights (a local file, nothing downloaded) at the fine-tuning
    rate, timed as ``step``; its best weights."""
    from ultralytics import YOLO

    args = detector_args(plan)
    args["pretrained"] = True
    with report.timed(step):
        YOLO(str(start), task="detect").train(data=str(data), epochs=epochs, project=str(work.resolve() / "runs"), name=name,
                                              optimizer="AdamW", lr0=plan.det_lr_finetune,
                                              warmup_epochs=plan.det_warmup_finetune, **args)
    return work / "runs" / name / "weights" / "best.pt"


def on_racks(plan: Plan, work: Path, report: TrainReport, start: Path) -> Path:
    """Phase C: from phase B's weights, on ``det_rack_renders`` rack photos (training styles) beside phase B's
    renders and the real training series. Standing tiles in tiers, close up, are a small part of the renders
    of all scenes and what a player photographs of their own rack; a phase of their own finds more of them
    while the table renders and real photos beside them keep the flat tiles of a table."""
    from datasets.synth.writer import write_dataset

    synth = work / "synth"
    racks = synth / "images" / "train_racks"
    if not racks.exists() or len(list_images(racks)) < plan.det_rack_renders:
        with report.timed("render_racks"):
            write_dataset(synth, plan.det_rack_renders, seed=plan.seed + plan.seed_det_racks, kind="rack",
                          size=plan.render_size, split="train_racks", crops=False, workers=plan.workers)
    rack_list = write_image_list(work / "synth_racks_list.txt", [p.resolve() for p in list_images(racks)])
    data = write_data_yaml(work / "det_racks.yaml", {
        "train": [rack_list.resolve(), (work / "synth_finetune_list.txt").resolve(), (work / "real_train_list.txt").resolve()],
        "val": [(synth / "images" / "val").resolve()]})
    return _continue(plan, work, report, start, data, plan.det_epochs_racks, "det_racks", "detector_racks")


def detected_boxes(model: Any, bgr: np.ndarray, imgsz: int, conf: float) -> np.ndarray:
    """(N, 4) x1y1x2y2 boxes an ultralytics detector finds in a BGR photo."""
    res = model.predict(bgr, imgsz=imgsz, conf=conf, verbose=False)[0]
    return res.boxes.xyxy.cpu().numpy() if res.boxes is not None else np.zeros((0, 4))


def detector_recall(weights: Path, images: list[Path], imgsz: int, conf: float = 0.25) -> float:
    """Share of the labelled tiles in ``images`` that the detector finds at IoU >= 0.5."""
    from ultralytics import YOLO

    model = YOLO(str(weights), task="detect")
    found = total = 0
    for img in tqdm(images, desc="detector recall", unit="img"):
        bgr = cv2.imread(str(img))
        if bgr is None:
            continue
        h, w = bgr.shape[:2]
        # one class here: the names only have to cover the label file's classes
        truth = [t.box for t in read_labels(label_path(img), CLASS_NAMES, w, h)]
        found += len(match(truth, detected_boxes(model, bgr, imgsz, conf)))
        total += len(truth)
    return found / max(total, 1)


def realism_check(plan: Plan, weights: Path, work: Path, report: TrainReport) -> None:
    """Recall of the renders-only detector on every real photo and on the held-out series: none of
    them was seen by it, so this measures how real the renders are."""
    real = work / "real" / "images"
    heldout = list_images(real / "heldout")
    with report.timed("realism_check"):
        report.realism_recall = detector_recall(weights, list_images(real / "train") + heldout, plan.det_imgsz)
        report.realism_recall_heldout = detector_recall(weights, heldout, plan.det_imgsz)
