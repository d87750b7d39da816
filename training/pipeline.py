"""``rummi train``: one run, from nothing to scored weights, in its own run folder.

Steps (each named and timed in the report): render synthetic photos -> export the real development
split -> train the detector on renders only (its recall on real photos is the realism check) ->
fine-tune it with the real training series -> a phase on rack renders -> train the crop classifier
on rendered and real crops (in a second process, beside the detector) -> refine it on detector-framed
crops and on views of the real tiles -> write the weights -> fit the reader's calibration on renders
of its own -> evaluate on the held-out real series and a synthetic test set -> write the metrics and
the model card.

The run writes only into its folder (``data/runs/NAME/``, the weights under ``models/`` there);
``training.promote`` is the separate, checked step that copies a run into the shipped ``models/``.
Everything trains from a model YAML (``pretrained=False``); nothing is downloaded.
"""

from __future__ import annotations

import datetime as _dt
import json
import multiprocessing as mp
import os
import shutil
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

from datasets.real import check_real_dir  # noqa: E402
from training import classifier, detector  # noqa: E402
from training.calibrate import refit  # noqa: E402
from training.card import render_card  # noqa: E402
from training.data import export_real, render  # noqa: E402
from training.plan import Plan  # noqa: E402
from training.report import TrainReport  # noqa: E402
from vision.calibration import CALIBRATION  # noqa: E402

REPO = Path(__file__).resolve().parent.parent
MODELS = REPO / "models"
RUNS = REPO / "data" / "runs"
README = REPO / "README.md"
WEIGHTS = ("detector.pt", "classifier.pt", "settings.json", CALIBRATION)
CARD, METRICS = "MODEL_CARD.md", "metrics.json"


def new_run_dir(runs: Path, name: str) -> Path:
    """``runs/name``, or ``name2``, ``name3``... when taken (ultralytics' convention)."""
    path, k = runs / name, 2
    while path.exists():
        path, k = runs / f"{name}{k}", k + 1
    return path


def write_weights(det: Path, cls: Path, plan: Plan, out: Path) -> None:
    """The weights with the inference settings they were trained for."""
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy(det, out / "detector.pt")
    shutil.copy(cls, out / "classifier.pt")
    settings = {"det_imgsz": plan.det_imgsz, "cls_imgsz": plan.cls_imgsz, "cls_turns": plan.cls_turns, "ocr": plan.ocr}
    (out / "settings.json").write_text(json.dumps(settings, indent=2) + "\n")


def evaluate(work: Path, models: Path, report: TrainReport) -> None:
    """Scores for the model card: the held-out real series, the synthetic test set and the renders of the
    styles held out of training (all scenes, and racks alone, read as racks as the app reads a rack photo, at the
    test renders' size and at a phone's)."""
    from vision.evaluate import evaluate_dataset
    from vision.model import load_model
    from vision.reader import Reader

    reader = Reader(load_model(models))  # the model the calibration step already loaded
    report.heldout = evaluate_dataset(work / "real", reader, split="heldout").to_json()
    report.synthetic = evaluate_dataset(work / "synth", reader, split="test").to_json()
    report.unseen = evaluate_dataset(work / "synth", reader, split="unseen").to_json()
    report.unseen_racks = evaluate_dataset(work / "synth", reader, split="unseen_racks", rack=True).to_json()
    report.phone_racks = evaluate_dataset(work / "synth", reader, split="phone_racks", rack=True).to_json()


def write_card(report: TrainReport, out: Path, notes: str = "") -> Path:
    """``metrics.json`` and ``MODEL_CARD.md`` in ``out`` from the report."""
    report.save(out / METRICS)
    path = out / CARD
    path.write_text(render_card(report, notes))
    return path


def train_all(plan: Plan, work: Path, real: Path) -> TrainReport:
    """Run every step into ``work``; the weights, metrics and card land in ``work/models``."""
    check_real_dir(real)
    work.mkdir(parents=True, exist_ok=True)
    (work / "plan.json").write_text(json.dumps(plan.as_dict(), indent=2) + "\n")
    report = TrainReport(plan=plan.as_dict())
    start = time.time()
    with report.timed("render"):
        report.data.update(render(plan, work))
    with report.timed("export_real"):
        report.data.update(export_real(work, real))
    if plan.parallel:
        # The classifier's first runs need only the renders and the real crops: on 2 cores they run
        # beside the detector at almost no cost to it.
        with ProcessPoolExecutor(1, mp_context=mp.get_context("spawn")) as pool:
            job = pool.submit(classifier.first_runs_job, plan, work)
            renders_only = detector.train_on_renders(plan, work, report)
            det = detector.finetune(plan, work, report, renders_only)
            if plan.det_epochs_racks > 0:
                det = detector.on_racks(plan, work, report, det)
            cls, seconds = job.result()
        report.seconds.update(seconds)
    else:
        renders_only = detector.train_on_renders(plan, work, report)
        det = detector.finetune(plan, work, report, renders_only)
        if plan.det_epochs_racks > 0:
            det = detector.on_racks(plan, work, report, det)
        cls = classifier.first_runs(plan, work, report)
    detector.realism_check(plan, renders_only, work, report)
    if plan.cls_epochs_detector > 0 or plan.cls_epochs_views > 0:
        with report.timed("detector_crops"):
            crops = classifier.detector_crops(plan, work, det)
        if plan.cls_epochs_detector > 0:
            cls = classifier.refine_on_detector_crops(plan, work, crops, cls, report)
        if plan.cls_epochs_views > 0:
            cls = classifier.refine_on_views(plan, work, crops, cls, report)
    models = work / "models"
    write_weights(det, cls, plan, models)
    with report.timed("calibrate"):
        # on renders the models never saw; the real held-out photos are only ever reported on
        refit(work / "synth", ("calib", "calib_racks"), models, progress=True)
    with report.timed("evaluate"):
        evaluate(work, models, report)
    report.wall_seconds = round(time.time() - start, 1)
    report.date = _dt.date.today().isoformat()
    write_card(report, models)
    return report
