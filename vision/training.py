"""``rummi train``: reproduce the committed models from nothing.

Steps (each shows progress): render synthetic photos and crops -> export the real development split
-> train the tile detector on renders only (the realism check: its recall on real photos it never saw)
-> fine-tune it on renders + the real training series -> train the crop classifier on rendered and
real crops -> copy the weights into ``models/`` -> evaluate on the held-out real series and on a
synthetic test set -> write the model card.

Everything trains from a model YAML (``pretrained=False``); nothing is downloaded.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

os.environ.setdefault("YOLO_OFFLINE", "1")

from engine.tiles import ALL_CODES  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
REAL_CROP = "real_"  # file-name prefix of classifier crops cut from the real photos (the rest are renders)
MODELS = REPO / "models"


@dataclass
class Plan:
    """Sizes of one training run. ``cpu`` fits 2.5 hours on a 2-core machine."""

    synth_train: int = 2400
    synth_val: int = 200
    synth_test: int = 150
    render_size: int = 800
    det_imgsz: int = 416
    det_width: float = 0.1875  # channel multiplier of the YOLOv8 backbone (n is 0.25)
    det_epochs_synth: int = 8
    det_epochs_finetune: int = 4
    finetune_synth: int = 800  # rendered photos kept beside the real ones while fine-tuning
    det_batch: int = 16
    real_repeat: int = 4  # the real training photos are listed this many times in the fine-tune set
    cls_imgsz: int = 64
    cls_epochs: int = 5
    cls_lr: float = 0.002
    cls_epochs_refine: int = 4  # a second run from the first one's weights at a quarter of the rate
    cls_lr_refine: float = 0.0005
    cls_epochs_detector: int = 3  # a third run on crops framed by the trained detector
    cls_lr_detector: float = 0.0003
    cls_views_real: int = 16  # turned, reframed, shrunk views of each real training tile (datasets/views.py)
    cls_epochs_views: int = 6  # a fourth run on the detector-framed renders + those views
    cls_lr_views: float = 0.0003
    cls_turns: int = 4  # reading averages the classifier over the crop's four quarter turns
    colour_calibration: bool = False  # fit vision/colour.py on the real series (helped only before the views run)
    parallel: bool = True  # train the classifier's first runs in a second process while the detector trains
    cls_batch: int = 128
    real_crop_repeat: int = 6
    real_surfaces: bool = False  # also use the tile-free real photos as table surfaces
    device: str = "cpu"
    workers: int = 2
    seed: int = 0

    @classmethod
    def named(cls, name: str) -> "Plan":
        if name == "cpu":
            return cls()
        if name == "cuda":
            return cls(synth_train=12000, synth_val=400, render_size=1024, det_imgsz=640, det_width=0.25,
                       det_epochs_synth=60, det_epochs_finetune=20, finetune_synth=4000, det_batch=64, cls_imgsz=96, cls_epochs=30,
                       cls_batch=512, device="0", workers=8)
        if name == "smoke":  # a minute-long run that exercises every step (for development)
            return cls(synth_train=24, synth_val=8, synth_test=8, render_size=480, det_imgsz=256,
                       det_epochs_synth=1, det_epochs_finetune=1, cls_epochs=1, real_repeat=1, real_crop_repeat=1,
                       cls_epochs_refine=1, cls_epochs_detector=0, cls_views_real=2, cls_epochs_views=1)
        raise ValueError(f"unknown plan {name!r}: use cpu, cuda or smoke")


@dataclass
class TrainReport:
    plan: dict[str, Any]
    seconds: dict[str, float] = field(default_factory=dict)
    realism_recall: float | None = None  # renders-only detector, all 179 real photos
    realism_recall_heldout: float | None = None  # the same detector, held-out series only
    inference_ms: dict[str, float] = field(default_factory=dict)
    heldout: dict[str, Any] = field(default_factory=dict)
    synthetic: dict[str, Any] = field(default_factory=dict)
    wall_seconds: float | None = None  # the whole run (stages may overlap: see Plan.parallel)


def detector_yaml(width: float, dest: Path) -> Path:
    """Ultralytics' own YOLOv8 model YAML with one class and our width multiplier."""
    import yaml
    from ultralytics.utils import ROOT

    cfg = yaml.safe_load((ROOT / "cfg" / "models" / "v8" / "yolov8.yaml").read_text())
    cfg = copy.deepcopy(cfg)
    cfg["nc"] = 1
    cfg["scales"] = {"t": [0.33, width, 512]}
    cfg["scale"] = "t"
    dest.write_text(yaml.safe_dump(cfg, sort_keys=False))
    return dest


def _common(plan: Plan) -> dict[str, Any]:
    return dict(device=plan.device, workers=plan.workers, pretrained=False, amp=plan.device != "cpu", plots=False,
                seed=plan.seed, deterministic=False, exist_ok=True, verbose=False)


def _det_args(plan: Plan) -> dict[str, Any]:
    # fliplr mirrors digits (a mirrored 2 is not a tile); a large hsv_h turns red into orange.
    return dict(imgsz=plan.det_imgsz, batch=plan.det_batch, single_cls=True, fliplr=0.0, flipud=0.0, hsv_h=0.0,
                hsv_s=0.3, hsv_v=0.3, degrees=0.0, scale=0.5, translate=0.1, mosaic=1.0, mixup=0.0,
                close_mosaic=2, cache="ram", patience=100, **_common(plan))


def _write_yaml(path: Path, train: list[str], val: list[str]) -> Path:
    lines = ["train:"] + [f"  - {p}" for p in train] + ["val:"] + [f"  - {p}" for p in val] + ["names:"]
    lines += [f"  {i}: {c}" for i, c in enumerate(ALL_CODES)]
    path.write_text("\n".join(lines) + "\n")
    return path


def _repeat_list(images_dir: Path, times: int, dest: Path) -> Path:
    files = sorted(str(p.absolute()) for p in images_dir.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    dest.write_text("\n".join(files * times) + "\n")
    return dest


def render_data(plan: Plan, work: Path) -> None:
    from datasets.real import real_dir
    from datasets.synth.writer import write_dataset

    synth = work / "synth"
    surfaces = work / "surfaces"
    surfaces.mkdir(parents=True, exist_ok=True)
    if plan.real_surfaces:
        for img in sorted((real_dir() / "images").glob("rummyBackground-*")):  # real tile-free table tops
            if not (surfaces / img.name).exists():
                (surfaces / img.name).symlink_to(img.resolve())
    if not (synth / "images" / "train").exists() or len(list((synth / "images" / "train").iterdir())) < plan.synth_train:
        write_dataset(synth, plan.synth_train, seed=plan.seed + 1, size=plan.render_size, split="train", real_surfaces=str(surfaces), workers=plan.workers)
    if not (synth / "images" / "val").exists() or len(list((synth / "images" / "val").iterdir())) < plan.synth_val:
        write_dataset(synth, plan.synth_val, seed=plan.seed + 2, size=plan.render_size, split="val", workers=plan.workers)
    if not (synth / "images" / "test").exists() or len(list((synth / "images" / "test").iterdir())) < plan.synth_test:
        write_dataset(synth, plan.synth_test, seed=plan.seed + 3, size=1024, split="test", crops=False, workers=plan.workers)


def real_tiles(work: Path, split: str = "train"):
    """Each labelled tile of the exported real split: (photo stem, index, RGB photo, code, box)."""
    import cv2

    from vision.evaluate import read_labels

    real = work / "real"
    for lab in sorted((real / "labels" / split).glob("*.txt")):
        bgr = cv2.imread(str(real / "images" / split / (lab.stem + ".jpg")))
        if bgr is None:
            continue
        rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
        for k, tile in enumerate(read_labels(lab, ALL_CODES, rgb.shape[1], rgb.shape[0])):
            yield lab.stem, k, rgb, tile.code, tile.box


def real_crops(work: Path, repeat: int, seed: int) -> Path:
    """Classifier crops from the real training series, each cut several times with a jittered box."""
    import cv2
    import numpy as np

    from vision.crops import crop_tile

    out = work / "real_crops"
    if out.exists():
        return out
    rng = np.random.default_rng(seed)
    for stem, k, rgb, code, (x1, y1, x2, y2) in real_tiles(work, "train"):
        d = out / code
        d.mkdir(parents=True, exist_ok=True)
        for r in range(repeat):
            j = rng.normal(0, 0.05, 4) * np.array([x2 - x1, y2 - y1, x2 - x1, y2 - y1]) if r else np.zeros(4)
            crop = crop_tile(rgb, (x1 + j[0], y1 + j[1], x2 + j[2], y2 + j[3]), 72)
            cv2.imwrite(str(d / f"{stem}_{k:02d}_{r}.jpg"), cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))
    return out


def classifier_folder(work: Path, plan: Plan) -> Path:
    """``cls/{train,val}/<code>/`` for ultralytics: rendered crops + real training crops (train only)."""
    root = work / "cls"
    if root.exists():
        shutil.rmtree(root)
    rc = real_crops(work, plan.real_crop_repeat, plan.seed)
    for split in ("train", "val"):
        for code in ALL_CODES:
            d = root / split / code
            d.mkdir(parents=True, exist_ok=True)
            src = work / "synth" / "crops" / split / code
            for f in sorted(src.glob("*.jpg")) if src.exists() else []:
                (d / f.name).symlink_to(f.resolve())
            if split == "train" and (rc / code).exists():
                for f in sorted((rc / code).glob("*.jpg")):
                    (d / (REAL_CROP + f.name)).symlink_to(f.resolve())
    return root


def export_real(work: Path) -> None:
    """The real development photos as ``work/real/{images,labels}/{train,heldout}`` (see datasets/real.py)."""
    from datasets.real import export_split

    export_split(work / "real", "train")
    export_split(work / "real", "heldout")


def _classifier_job(plan: Plan, work: Path) -> tuple[Path, dict[str, float]]:
    """``train_classifier`` in a process of its own; its console output goes to ``work/classifier.log``."""
    import sys

    with open(work / "classifier.log", "w") as log:
        os.dup2(log.fileno(), sys.stdout.fileno())
        os.dup2(log.fileno(), sys.stderr.fileno())
    report = TrainReport(plan=asdict(plan))
    cls = train_classifier(plan, work, report)
    return cls, report.seconds


def train_detector(plan: Plan, work: Path, report: TrainReport) -> Path:
    """Phase A on renders only, then phase B with the real training series (``export_real`` first);
    returns phase B's best."""
    synth_weights = train_detector_synth(plan, work, report)
    return finetune_detector(plan, work, report, synth_weights)


def train_detector_synth(plan: Plan, work: Path, report: TrainReport) -> Path:
    from ultralytics import YOLO

    cfg = detector_yaml(plan.det_width, work / "tile-detector.yaml")
    synth = work / "synth"
    data_a = _write_yaml(work / "det_synth.yaml", [str((synth / "images" / "train").resolve())], [str((synth / "images" / "val").resolve())])
    t = time.time()
    model = YOLO(str(cfg), task="detect")
    model.train(data=str(data_a), epochs=plan.det_epochs_synth, project=str(work.resolve() / "runs"), name="det_synth", **_det_args(plan))
    report.seconds["detector_synth"] = round(time.time() - t, 1)
    return work / "runs" / "det_synth" / "weights" / "best.pt"


def finetune_detector(plan: Plan, work: Path, report: TrainReport, start: Path) -> Path:
    from ultralytics import YOLO

    synth = work / "synth"
    real_list = _repeat_list(work / "real" / "images" / "train", plan.real_repeat, work / "real_train_list.txt")
    synth_list = work / "synth_finetune_list.txt"
    synth_files = sorted(str(p.resolve()) for p in (synth / "images" / "train").glob("*.jpg"))[: plan.finetune_synth]
    synth_list.write_text("\n".join(synth_files) + "\n")
    data_b = _write_yaml(work / "det_finetune.yaml", [str(synth_list.resolve()), str(real_list.resolve())], [str((synth / "images" / "val").resolve())])
    t = time.time()
    model = YOLO(str(start), task="detect")
    args = _det_args(plan)
    args["pretrained"] = True  # continue from phase A's weights (a local file, nothing downloaded)
    model.train(data=str(data_b), epochs=plan.det_epochs_finetune, project=str(work.resolve() / "runs"), name="det_finetune",
                optimizer="AdamW", lr0=0.0005, warmup_epochs=0.3, **args)
    report.seconds["detector_finetune"] = round(time.time() - t, 1)
    return work / "runs" / "det_finetune" / "weights" / "best.pt"


def train_classifier(plan: Plan, work: Path, report: TrainReport) -> Path:
    """Two runs: ``cls_epochs`` at ``cls_lr``, then ``cls_epochs_refine`` from those weights at ``cls_lr_refine``."""
    folder = classifier_folder(work, plan)
    t = time.time()
    first = _classifier_run(plan, work, folder, "yolov8n-cls.yaml", "cls", plan.cls_epochs, plan.cls_lr, pretrained=False)
    report.seconds["classifier"] = round(time.time() - t, 1)
    if plan.cls_epochs_refine <= 0:
        return first
    t = time.time()
    second = _classifier_run(plan, work, folder, str(first), "cls_refine", plan.cls_epochs_refine, plan.cls_lr_refine, pretrained=True)
    report.seconds["classifier_refine"] = round(time.time() - t, 1)
    return second


def _classifier_run(plan: Plan, work: Path, folder: Path, start: str, name: str, epochs: int, lr0: float, pretrained: bool) -> Path:
    from ultralytics import YOLO

    model = YOLO(start, task="classify")
    common = _common(plan)
    common["pretrained"] = pretrained
    model.train(data=str(folder.resolve()), epochs=epochs, imgsz=plan.cls_imgsz, batch=plan.cls_batch,
                project=str(work.resolve() / "runs"), name=name, fliplr=0.0, flipud=0.0, hsv_h=0.0, hsv_s=0.3,
                hsv_v=0.3, scale=0.1, erasing=0.0, auto_augment=None, dropout=0.1, patience=100,
                # optimizer=auto would pick AdamW at lr 0.002*5/(4+53) = 0.00018 for this short run: far
                # too slow from scratch.
                optimizer="AdamW", lr0=lr0, warmup_epochs=0.5 if not pretrained else 0.0, **common)
    return work / "runs" / name / "weights" / "best.pt"


def realism_check(det: Path, work: Path, report: TrainReport) -> None:
    """Recall (IoU >= 0.5) of the renders-only detector on real photos: none was seen in training."""
    from datasets.real import real_dir
    from vision.metrics import detector_recall

    report.realism_recall = detector_recall(det, real_dir())
    held = work / "real_heldout_view"
    if not held.exists():
        held.mkdir(parents=True)
        (held / "images").symlink_to((work / "real" / "images" / "heldout").resolve())
        (held / "labels").symlink_to((work / "real" / "labels" / "heldout").resolve())
    report.realism_recall_heldout = detector_recall(det, held)


def fit_colour(work: Path, models: Path) -> Path:
    """The colour calibration (``vision/colour.py``), fitted on the real training series' tiles."""
    import numpy as np

    from vision.colour import ColourModel, ink_features
    from vision.crops import CROP_SIZE, crop_tile

    feats, colours = [], []
    for _stem, _k, rgb, code, box in real_tiles(work, "train"):
        if code != "J":
            feats.append(ink_features(crop_tile(rgb, box, CROP_SIZE)))
            colours.append(code[0])
    model = ColourModel.fit(np.stack(feats), colours, weight=1.0)
    path = models / "colour.json"
    model.save(path)
    return path


def install(det: Path, cls: Path, plan: Plan, models: Path) -> None:
    """Copy the weights into ``models/`` with the inference settings they were trained for."""
    models.mkdir(parents=True, exist_ok=True)
    shutil.copy(det, models / "detector.pt")
    shutil.copy(cls, models / "classifier.pt")
    (models / "settings.json").write_text(json.dumps({"det_imgsz": plan.det_imgsz, "cls_imgsz": plan.cls_imgsz, "cls_turns": plan.cls_turns}, indent=2) + "\n")


def evaluate_models(work: Path, models: Path, report: TrainReport) -> None:
    """Scores for the model card: the held-out real series and a synthetic test set."""
    from vision.evaluate import evaluate_dataset
    from vision.model import TileModel
    from vision.reader import Reader

    reader = Reader(TileModel(models))
    report.heldout = evaluate_dataset(work / "real", reader, split="heldout").to_json()
    report.synthetic = evaluate_dataset(work / "synth", reader, split="test").to_json()


def write_card(report: TrainReport, models: Path) -> Path:
    """``models/MODEL_CARD.md`` and ``models/metrics.json`` from a training report."""
    from vision.model_card import render_card

    (models / "metrics.json").write_text(json.dumps(asdict(report), indent=2) + "\n")
    path = models / "MODEL_CARD.md"
    path.write_text(render_card(report))
    return path


def train_all(plan: Plan, work: Path, models: Path = MODELS) -> TrainReport:
    work.mkdir(parents=True, exist_ok=True)
    report = TrainReport(plan=asdict(plan))
    start = t = time.time()
    render_data(plan, work)
    report.seconds["render"] = round(time.time() - t, 1)
    export_real(work)
    if plan.parallel:
        # The classifier's first runs need only the renders and the real crops. On 2 cores they run beside the
        # detector at almost no cost to it: in the run behind the committed model the detector read 0.18 s per
        # photo and epoch with the classifier beside it, the same rate as its fine-tuning alone.
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
            job = pool.submit(_classifier_job, plan, work)
            det = train_detector(plan, work, report)
            cls, seconds = job.result()
        report.seconds.update(seconds)
    else:
        det = train_detector(plan, work, report)
        cls = train_classifier(plan, work, report)
    realism_check(work / "runs" / "det_synth" / "weights" / "best.pt", work, report)
    if plan.cls_epochs_detector > 0 or plan.cls_epochs_views > 0:
        t = time.time()
        det_crops = detector_box_crops(plan, work, det)
        report.seconds["detector_crops"] = round(time.time() - t, 1)
        if plan.cls_epochs_detector > 0:
            cls = refine_on_detector_crops(plan, work, det_crops, cls, report)
        if plan.cls_epochs_views > 0:
            cls = refine_on_views(plan, work, det_crops, cls, report)
    install(det, cls, plan, models)
    if plan.colour_calibration:
        fit_colour(work, models)
    else:
        (models / "colour.json").unlink(missing_ok=True)
    evaluate_models(work, models, report)
    report.wall_seconds = round(time.time() - start, 1)
    write_card(report, models)
    (work / "train_report.json").write_text(json.dumps(asdict(report), indent=2))
    return report


def detector_box_crops(plan: Plan, work: Path, det: Path) -> Path:
    """Classifier crops cut around the *detector's* boxes (matched to labels at IoU >= 0.5), so that the
    classifier learns the framing it will see when reading: renders (train and val) and the real
    training series (each real tile cut ``real_repeat`` times from the detector box, jittered)."""
    import cv2
    import numpy as np
    from tqdm import tqdm
    from ultralytics import YOLO

    from vision.crops import crop_tile
    from vision.evaluate import read_labels
    from vision.metrics import match

    root = work / "det_cls"
    if root.exists():
        shutil.rmtree(root)
    model = YOLO(str(det), task="detect")
    rng = np.random.default_rng(plan.seed + 11)
    sources = [("train", work / "synth" / "images" / "train", 1, ""), ("val", work / "synth" / "images" / "val", 1, ""),
               ("train", work / "real" / "images" / "train", plan.real_repeat, REAL_CROP)]
    for split, folder, repeat, prefix in sources:
        images = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        for img in tqdm(images, desc=f"detector crops {folder.parent.parent.name}/{split}", unit="img"):
            bgr = cv2.imread(str(img))
            if bgr is None:
                continue
            rgb = cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)
            h, w = rgb.shape[:2]
            labels = read_labels(folder.parent.parent / "labels" / folder.name / (img.stem + ".txt"), ALL_CODES, w, h)
            if not labels:
                continue
            r = model.predict(bgr, imgsz=plan.det_imgsz, conf=0.3, verbose=False)[0]
            pred = r.boxes.xyxy.cpu().numpy() if r.boxes is not None else np.zeros((0, 4))
            for ti, pi in match([t.box for t in labels], pred):
                code = labels[ti].code
                x1, y1, x2, y2 = pred[pi]
                d = root / split / code
                d.mkdir(parents=True, exist_ok=True)
                for k in range(repeat):
                    j = rng.normal(0, 0.03, 4) * np.array([x2 - x1, y2 - y1, x2 - x1, y2 - y1]) if k else np.zeros(4)
                    crop = crop_tile(rgb, (x1 + j[0], y1 + j[1], x2 + j[2], y2 + j[3]), 72)
                    cv2.imwrite(str(d / f"{prefix}{img.stem}_{ti:02d}_{k}.jpg"), cv2.cvtColor(crop, cv2.COLOR_RGB2BGR))
    for split in ("train", "val"):
        for code in ALL_CODES:
            (root / split / code).mkdir(parents=True, exist_ok=True)
    return root


def refine_on_detector_crops(plan: Plan, work: Path, det_crops: Path, cls: Path, report: TrainReport) -> Path:
    """A short classifier run on crops framed by the detector (``det_crops``, see ``detector_box_crops``)."""
    t = time.time()
    out = _classifier_run(plan, work, det_crops, str(cls), "cls_det", plan.cls_epochs_detector, plan.cls_lr_detector, pretrained=True)
    report.seconds["classifier_detector_crops"] = round(time.time() - t, 1)
    return out


def real_views(work: Path, n: int, seed: int) -> Path:
    """``n`` augmented views (``datasets/views.py``) of each tile of the real training series."""
    import cv2
    import numpy as np
    from tqdm import tqdm

    from datasets.views import tile_view

    out = work / "real_views"
    if out.exists():
        shutil.rmtree(out)
    rng = np.random.default_rng(seed + 23)
    tiles = list(real_tiles(work, "train"))
    for stem, k, rgb, code, box in tqdm(tiles, desc="real tile views", unit="tile"):
        d = out / code
        d.mkdir(parents=True, exist_ok=True)
        for v in range(n):
            cv2.imwrite(str(d / f"{stem}_{k:02d}_{v:02d}.jpg"), cv2.cvtColor(tile_view(rgb, box, rng), cv2.COLOR_RGB2BGR),
                        [cv2.IMWRITE_JPEG_QUALITY, 95])
    return out


def views_folder(plan: Plan, work: Path, det_crops: Path) -> Path:
    """``cls_views/{train,val}/<code>/``: the detector-framed rendered crops of ``detector_box_crops`` plus
    ``cls_views_real`` views of every real training tile (train only; validation stays rendered)."""
    views = real_views(work, plan.cls_views_real, plan.seed)
    root = work / "cls_views"
    if root.exists():
        shutil.rmtree(root)
    for split in ("train", "val"):
        rendered = det_crops / split
        if not any(rendered.glob("*/*.jpg")):  # a detector that found nothing (the smoke plan): the writer's crops
            rendered = work / "synth" / "crops" / split
        for code in ALL_CODES:
            d = root / split / code
            d.mkdir(parents=True, exist_ok=True)
            for f in sorted((rendered / code).glob("*.jpg")):
                if not f.name.startswith(REAL_CROP):  # the real tiles come as views instead
                    (d / f.name).symlink_to(f.resolve())
            if split == "train" and (views / code).exists():
                for f in sorted((views / code).glob("*.jpg")):
                    (d / ("view_" + f.name)).symlink_to(f.resolve())
    return root


def refine_on_views(plan: Plan, work: Path, det_crops: Path, cls: Path, report: TrainReport) -> Path:
    """A last classifier run on many views of each real tile beside the detector-framed renders: the
    classifier before it misread clear tiles when the box moved by a few pixels."""
    t = time.time()
    folder = views_folder(plan, work, det_crops)
    out = _classifier_run(plan, work, folder, str(cls), "cls_views", plan.cls_epochs_views, plan.cls_lr_views, pretrained=True)
    report.seconds["classifier_views"] = round(time.time() - t, 1)
    return out
