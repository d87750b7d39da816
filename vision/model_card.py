"""The model card: what the committed models are, what they learned from and how well they read."""

from __future__ import annotations

import datetime as _dt
from typing import Any


def _pct(x: Any) -> str:
    return "-" if x is None else f"{100 * float(x):.1f}%"


def _eval_rows(name: str, e: dict[str, Any]) -> str:
    if not e:
        return f"| {name} | not measured | | | | | | |\n"
    return (f"| {name} | {e['photos']} / {e['labelled']} | {_pct(e['recall'])} | {_pct(e['precision'])} | "
            f"{_pct(e['exact_accuracy'])} | {_pct(e['number_accuracy'])} | {_pct(e['colour_accuracy'])} | "
            f"{e['ms_median']:.0f} |\n")


def render_card(report: Any, notes: str = "") -> str:
    plan = report.plan
    sec = report.seconds
    wall = getattr(report, "wall_seconds", None)
    total_min = (wall or sum(sec.values())) / 60
    conf = (report.heldout or {}).get("confusions", [])[:8]
    lines = [
        "# Model card: rummi tile reader",
        "",
        f"Date: {_dt.date.today().isoformat()}. Trained by `rummi train --device {'cuda' if str(plan['device']) not in ('cpu',) else 'cpu'}` "
        f"on {'a GPU' if str(plan['device']) != 'cpu' else 'the 2-core CPU development machine'}"
        + (f" in {total_min:.0f} minutes." if wall else f"; its stage times below add up to {total_min:.0f} minutes (see the notes)."),
        "",
        "## What it is",
        f"- `detector.pt`: a one-class YOLOv8 detector (\"a face-up tile\"), depth 0.33, width {plan['det_width']} "
        f"(narrower than yolov8n, for the CPU budget), input {plan['det_imgsz']} px. Trained from the model YAML, no pretrained weights.",
        f"- `classifier.pt`: a YOLOv8n-cls crop classifier over the 53 codes (K1..O13, J), input {plan['cls_imgsz']} px "
        "squares cut around each detected tile (`vision/crops.py`). Upside-down tiles are read by the classifier "
        "itself: it was trained on tiles in every rotation, with the maker's mark telling 6 from 9.",
        ("- `colour.json`: the colour calibration (`vision/colour.py`): a Gaussian model of the ink colour, measured in "
         "CIE Lab after white-balancing each crop on its own plastic, fitted on the real training series; it multiplies the "
         "classifier's probabilities." if plan.get("colour_calibration", True) else
         "- No colour calibration (`vision/colour.py`, `colour_calibration` in the plan): the classifier trained on the views "
         "of real tiles reads colour better without it."),
        "- `settings.json`: the inference sizes the weights were trained for"
        + (f"; `cls_turns` {plan.get('cls_turns', 1)}: reading averages the classifier over the crop's four quarter turns."
           if plan.get("cls_turns", 1) > 1 else "."),
        "",
        "## Data",
        f"- {plan['synth_train']} synthetic photos ({plan['render_size']} px; tables, racks, loose tiles, mixes, empty tables) "
        f"+ {plan['synth_val']} for validation, rendered by `datasets/synth` (seed {plan['seed']}).",
        f"- The real development photos of the series `rummy-`, `rummy4-`, `rummyBackground-` (122 photos, 1349 tiles): "
        f"fine-tuning the detector (listed {plan['real_repeat']} times beside {plan.get('finetune_synth', 'all')} renders) and "
        f"the classifier ({plan['real_crop_repeat']} jittered crops per tile, then {plan.get('cls_views_real', 0)} augmented views per tile).",
        "- Held out, never seen by any training step: the series `rummy2-` and `rummy3-` (57 photos, 441 tiles).",
        "- Source of the real photos: \"Rummikub v1\" (2026-01-04), Roboflow Universe project `rummikue/rummikub-nvypk-8cwem`, "
        "CC BY 4.0, via github.com/conner-replogle/rummikub-detector.",
        "",
        "## Training",
        f"- Detector: {plan['det_epochs_synth']} epochs on renders only, then {plan['det_epochs_finetune']} epochs of fine-tuning "
        f"with the real training series; batch {plan['det_batch']}; `fliplr=0` (mirrored digits are not tiles), `hsv_h=0` "
        "(red must stay red), mosaic on.",
        f"- Classifier: {plan['cls_epochs']} epochs at lr {plan['cls_lr']}"
        + (" (in a second process, beside the detector's training)" if plan.get("parallel") else "")
        + f", then {plan.get('cls_epochs_refine', 0)} epochs from those weights at "
        f"lr {plan['cls_lr_refine']} (AdamW), then {plan.get('cls_epochs_detector', 0)} epochs at lr "
        f"{plan['cls_lr_detector']} on crops framed by the trained "
        f"detector's own boxes, then {plan.get('cls_epochs_views', 0)} epochs at lr {plan['cls_lr_views']} on those rendered crops beside "
        f"{plan.get('cls_views_real', 0)} views of each real training tile (turned, reframed, shrunk, re-photographed: "
        "`datasets/views.py`); "
        f"batch {plan['cls_batch']}, no flips, no hue shift, no auto-augment.",
        f"- Time (s): " + ", ".join(f"{k} {v:.0f}" for k, v in sec.items()),
        "",
        "## Scores",
        "Realism check (the renders-only detector, before it saw any real photo): tile recall at IoU >= 0.5 "
        f"{_pct(report.realism_recall)} on all 179 real photos, {_pct(report.realism_recall_heldout)} on the held-out series.",
        "",
        "| set | photos / tiles | recall | precision | exact reads | number | colour | median ms |",
        "|---|---|---|---|---|---|---|---|",
        _eval_rows("real, held out (rummy2-, rummy3-)", report.heldout).rstrip("\n"),
        _eval_rows("synthetic test (1024 px)", report.synthetic).rstrip("\n"),
        "",
        "Exact reads count a missed tile as wrong; number and colour are over the tiles found. "
        "Reproduce with `rummi evaluate data/real --split heldout` and `rummi evaluate data/synth --split test` "
        "(after `rummi train` has written `data/`).",
    ]
    if conf:
        lines += ["", "Most frequent confusions on the held-out real photos (true -> read): " + ", ".join(
            f"{c['true']} -> {c['read']} ({c['count']})" for c in conf)]
    if report.inference_ms:
        lines += ["", "Inference on this 2-core CPU (model loaded): " + ", ".join(f"{k}: {v:.0f} ms median" for k, v in report.inference_ms.items())]
    if notes:
        lines += ["", "## Notes", notes]
    return "\n".join(lines) + "\n"
