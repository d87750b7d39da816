"""The crop classifier's runs: from scratch on rendered and real crops, a refinement at a lower rate,
then runs on crops framed by the trained detector and on many views of each real tile."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import cv2
import numpy as np
from tqdm import tqdm

from datasets.crops import cut, save_crop
from training.data import REAL_CROP, link_folder, real_crops, real_views
from training.detector import detected_boxes
from training.plan import Plan
from training.report import TrainReport
from training.yolo_args import common_args
from vision.metrics import match
from vision.yolo_format import CLASS_NAMES, list_images, read_labels

SCRATCH_MODEL = "yolov8n-cls.yaml"  # ultralytics' own model YAML: trained from nothing, never downloaded


def classifier_run(plan: Plan, work: Path, folder: Path, start: str, name: str, epochs: int, lr0: float) -> Path:
    """One ultralytics classification run on ``folder``, from ``start`` (a model YAML or earlier weights)."""
    from ultralytics import YOLO

    scratch = start.endswith(".yaml")
    model = YOLO(start, task="classify")
    args = common_args(plan)
    args["pretrained"] = not scratch
    model.train(data=str(folder.resolve()), epochs=epochs, imgsz=plan.cls_imgsz, batch=plan.cls_batch,
                project=str(work.resolve() / "runs"), name=name, fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3,
                hsv_v=0.3, scale=0.1, erasing=0.0, auto_augment=None, dropout=0.1, patience=100,
                # optimizer=auto would pick AdamW at lr 0.002*5/(4+56 classes) = 0.00017 for this short run: far
                # too slow from scratch.
                optimizer="AdamW", lr0=lr0, warmup_epochs=plan.cls_warmup if scratch else 0.0, **args)
    return work / "runs" / name / "weights" / "best.pt"


def first_runs(plan: Plan, work: Path, report: TrainReport) -> Path:
    """``cls_epochs`` from scratch at ``cls_lr``, then ``cls_epochs_refine`` from those weights at
    ``cls_lr_refine``, on the renders' crops and the real training series' crops."""
    rendered = work / "synth" / "crops"
    folder = link_folder(work / "cls", {"train": [(rendered / "train", ""), (real_crops(plan, work), REAL_CROP)],
                                        "val": [(rendered / "val", "")]})
    with report.timed("classifier"):
        weights = classifier_run(plan, work, folder, SCRATCH_MODEL, "cls", plan.cls_epochs, plan.cls_lr)
    if plan.cls_epochs_refine > 0:
        with report.timed("classifier_refine"):
            weights = classifier_run(plan, work, folder, str(weights), "cls_refine", plan.cls_epochs_refine,
                                     plan.cls_lr_refine)
    return weights


def first_runs_job(plan: Plan, work: Path) -> tuple[Path, dict[str, float]]:
    """``first_runs`` in a process of its own; its console output goes to ``work/classifier.log``."""
    with open(work / "classifier.log", "w") as log:
        os.dup2(log.fileno(), sys.stdout.fileno())
        os.dup2(log.fileno(), sys.stderr.fileno())
    report = TrainReport(plan=plan.as_dict())
    weights = first_runs(plan, work, report)
    return weights, report.seconds


def detector_crops(plan: Plan, work: Path, detector: Path) -> Path:
    """Crops cut around the *detector's* boxes (matched to labels at IoU >= 0.5), so that the classifier
    learns the framing it will see when reading: ``det_crops/synth/{train,val}/<code>/`` from the renders
    and ``det_crops/real/train/<code>/`` from the real training series (each tile ``real_repeat`` times,
    the extra cuts jittered)."""
    from ultralytics import YOLO

    root = work / "det_crops"
    model = YOLO(str(detector), task="detect")
    rng = np.random.default_rng(plan.seed + plan.seed_det_crops)
    sources = [("synth", "train", 1), ("synth", "val", 1), ("real", "train", plan.real_repeat)]
    for source, split, repeat in sources:
        dataset = work / source
        for img in tqdm(list_images(dataset / "images" / split), desc=f"detector crops {source}/{split}", unit="img"):
            bgr = cv2.imread(str(img))
            if bgr is None:
                continue
            rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
            h, w = rgb.shape[:2]
            labels = read_labels(dataset / "labels" / split / (img.stem + ".txt"), CLASS_NAMES, w, h)
            if not labels:
                continue
            pred = detected_boxes(model, bgr, plan.det_imgsz, plan.det_crop_conf)
            for ti, pi in match([t.box for t in labels], pred):
                d = root / source / split / labels[ti].code
                d.mkdir(parents=True, exist_ok=True)
                for k in range(repeat):
                    crop = cut(rgb, tuple(pred[pi]), plan.crop_side, rng if k else None, plan.det_crop_jitter)
                    save_crop(d / f"{img.stem}_{ti:02d}_{k}.jpg", crop)
    return root


def refine_on_detector_crops(plan: Plan, work: Path, crops: Path, weights: Path, report: TrainReport) -> Path:
    """A short run on crops framed by the detector (renders and the real training series)."""
    folder = link_folder(work / "cls_det", {"train": [(crops / "synth" / "train", ""), (crops / "real" / "train", REAL_CROP)],
                                            "val": [(crops / "synth" / "val", "")]})
    with report.timed("classifier_detector_crops"):
        return classifier_run(plan, work, folder, str(weights), "cls_det", plan.cls_epochs_detector, plan.cls_lr_detector)


def refine_on_views(plan: Plan, work: Path, crops: Path, weights: Path, report: TrainReport) -> Path:
    """A last run on the detector-framed renders beside ``cls_views_real`` views of each real training
    tile (train only; validation stays rendered): the classifier before it misread clear tiles when
    the box moved by a few pixels."""
    views = real_views(plan, work)
    rendered = crops / "synth"
    if not any(rendered.glob("*/*/*.jpg")):  # a detector that found nothing (the smoke plan): the writer's crops
        rendered = work / "synth" / "crops"
    folder = link_folder(work / "cls_views", {"train": [(rendered / "train", ""), (views, "view_")],
                                              "val": [(rendered / "val", "")]})
    with report.timed("classifier_views"):
        return classifier_run(plan, work, folder, str(weights), "cls_views", plan.cls_epochs_views, plan.cls_lr_views)
