"""The model card: what the committed models are, what they learned from and how well they read."""

from __future__ import annotations

import datetime as _dt
from pathlib import Path
from typing import Any

from datasets.real import HELD_OUT_SERIES, TRAIN_SERIES
from engine.tiles import TWIST_CODES
from training.plan import Plan
from vision.model import ModelSettings
from vision.yolo_format import CLASS_NAMES


def _pct(x: Any) -> str:
    return "-" if x is None else f"{100 * float(x):.1f}%"


def _no_tile(e: dict[str, Any]) -> str:
    """Tiles read where none is labelled and shown as sure, of all read where none is, and how many of those lie
    loosely on a tile of their own, read right, and read wrong (older records: -, or without the last ones)."""
    if "sure_on_no_tile" not in e:
        return "-"
    misread = f", {e['sure_misread_loosely']} on one read wrong" if "sure_misread_loosely" in e else ""
    own = f" ({e['sure_on_own_tile']} on a tile of their own{misread})" if "sure_on_own_tile" in e else ""
    return f"{e['sure_on_no_tile']} of {e['detected'] - e['matched']}{own}"


def _eval_rows(name: str, e: dict[str, Any]) -> str:
    if not e:
        return f"| {name} | not measured | | | | | | | | | |\n"
    return (f"| {name} | {e['photos']} / {e['labelled']} | {_pct(e['recall'])} | {_pct(e['precision'])} | "
            f"{_pct(e['exact_accuracy'])} | {_pct(e['number_accuracy'])} | {_pct(e['colour_accuracy'])} | "
            f"{_pct(e.get('sure_wrong_rate'))} | {_pct(e.get('errors_flagged'))} | {_no_tile(e)} | {e['ms_median']:.0f} |\n")


def _sizes(looks: tuple[tuple[int, float], ...]) -> str:
    return ", ".join(str(size) for size, _ in looks)


def _count(data: dict[str, Any], key: str, planned: int) -> int:
    return int(data[key]["photos"]) if key in data else planned


def _photos_tiles(counts: dict[str, int] | None) -> str:
    return f"{counts['photos']} photos, {counts['tiles']} tiles" if counts else "counts not recorded"


def _series(names: tuple[str, ...]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def _all_real(data: dict[str, Any]) -> str:
    parts = [data.get("real_train"), data.get("real_heldout")]
    return str(sum(p["photos"] for p in parts)) if all(parts) else "the"


def render_card(report: Any, notes: str = "") -> str:
    """The card's text, from a run's report (``TrainReport`` or its JSON as loaded by ``TrainReport.load``)."""
    plan = report.plan
    data = getattr(report, "data", None) or {}
    sec = report.seconds
    wall = getattr(report, "wall_seconds", None)
    total_min = (wall or sum(sec.values())) / 60
    conf = (report.heldout or {}).get("confusions", [])[:8]
    looks = ModelSettings()  # the detector's looks the reader uses
    lines = [
        "# Model card: rummi tile reader",
        "",
        f"Date: {getattr(report, 'date', None) or _dt.date.today().isoformat()}. Trained by "
        f"`rummi train --plan {plan.get('name', 'cuda' if str(plan['device']) != 'cpu' else 'cpu')}` "
        f"on {'a GPU' if str(plan['device']) != 'cpu' else 'the 2-core CPU development machine'}"
        + (f" in {total_min:.0f} minutes." if wall else f"; its stage times below add up to {total_min:.0f} minutes (see the notes)."),
        "",
        "## What it is",
        f"- `detector.pt`: a one-class YOLOv8 detector (\"a face-up tile\"), depth 0.33, width {plan['det_width']} "
        f"(narrower than yolov8n, for the CPU budget), input {plan['det_imgsz']} px; the reader also looks at each photo at "
        f"{_sizes(looks.det_more_looks)} px and adds the tiles only those looks find; a close-up (tiles whose "
        f"short side is {looks.det_close_px:.0f} px or more at {looks.det_close_imgsz} px) is looked at "
        f"{looks.det_close_imgsz}, then {_sizes(looks.det_close_looks)} px instead, coarsest first; a photo larger "
        f"than {looks.det_fine_imgsz} px whose tiles found are still small (under {looks.det_fine_px:.0f} px at that "
        f"size), or where none were found, gets one more look at {looks.det_fine_imgsz} px "
        "(`vision/model.py`; the network runs in onnxruntime where it gives ultralytics' boxes). Trained from the model YAML, "
        "no pretrained weights.",
        f"- `classifier.pt`: a YOLOv8n-cls crop classifier over the {len(CLASS_NAMES)} codes (K1..O13, J and the Rummikub Twist "
        f"jokers {', '.join(TWIST_CODES)}), input {plan['cls_imgsz']} px "
        "squares cut around each detected tile (`vision/crops.py`). Upside-down tiles are read by the classifier "
        "itself: it was trained on tiles in every rotation, with the maker's mark telling 6 from 9.",
        "- `settings.json`: the inference sizes the weights were trained for"
        + (f"; `cls_turns` {plan.get('cls_turns', 1)}: reading averages the classifier over the crop's four quarter turns."
           if plan.get("cls_turns", 1) > 1 else "."),
        "",
        "## Data",
        f"- {_count(data, 'synth_train', plan['synth_train'])} synthetic photos ({plan['render_size']} px; tables, racks, "
        f"loose tiles, mixes, empty tables) + {_count(data, 'synth_val', plan['synth_val'])} for validation, rendered by "
        f"`datasets/synth` (seed {plan['seed']}).",
        f"- The real development photos of the series {_series(TRAIN_SERIES)} ({_photos_tiles(data.get('real_train'))}): "
        f"fine-tuning the detector (listed {plan['real_repeat']} times beside {plan.get('finetune_synth', 'all')} renders) and "
        f"the classifier ({plan['real_crop_repeat']} jittered crops per tile, then {plan.get('cls_views_real', 0)} augmented views per tile).",
        f"- The Twist jokers ({', '.join(TWIST_CODES)}) are in the renders only, drawn as simple marks (`datasets/synth/faces.py`): "
        "no real photo shows one, so the reader always marks a tile read as one doubtful.",
        f"- Held out, never seen by any training step: the series {_series(HELD_OUT_SERIES)} ({_photos_tiles(data.get('real_heldout'))}).",
        "- Source of the real photos: \"Rummikub v1\" (2026-01-04), Roboflow Universe project `rummikue/rummikub-nvypk-8cwem`, "
        "CC BY 4.0, via github.com/conner-replogle/rummikub-detector.",
        "",
        "## Training",
        f"- Detector: {plan['det_epochs_synth']} epochs on renders only, then {plan['det_epochs_finetune']} epochs of fine-tuning "
        "with the real training series"
        + (f", then {plan['det_epochs_racks']} epochs with {plan['det_rack_renders']} rack renders beside the fine-tune's "
           "(standing tiles in tiers, close up)" if plan.get("det_epochs_racks", 0) > 0 else "")
        + f"; batch {plan['det_batch']}; `fliplr=0` (mirrored digits are not tiles), `hsv_h=0` "
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
        f"{_pct(report.realism_recall)} on all {_all_real(data)} real photos, {_pct(report.realism_recall_heldout)} on the held-out series.",
        "",
        "| set | photos / tiles | recall | precision | exact reads | number | colour | sure but wrong | errors flagged | sure on no tile | median ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
        _eval_rows(f"real, held out ({', '.join(HELD_OUT_SERIES)})", report.heldout).rstrip("\n"),
        _eval_rows("synthetic test (1024 px)", report.synthetic).rstrip("\n"),
        _eval_rows("synthetic, styles held out of training and calibration", getattr(report, "unseen", None) or {}).rstrip("\n"),
        _eval_rows("the same held-out styles, racks only (close up, from the seat, from above), read as racks", getattr(report, "unseen_racks", None) or {}).rstrip("\n"),
        _eval_rows(f"the same racks at a phone's resolution ({plan.get('phone_render_size', Plan.phone_render_size)} px), read as racks", getattr(report, "phone_racks", None) or {}).rstrip("\n"),
        "",
        "Exact reads count a missed tile as wrong; number and colour are over the tiles found. Sure but wrong: of "
        "the tiles found and not marked doubtful, the share read wrong; errors flagged: of the tiles found and read "
        "wrong, the share marked doubtful; sure on no tile: of the tiles read where no tile is labelled (a box on a digit, "
        "a hand, half of two tiles), those shown as sure, and in brackets how many of those lie loosely (IoU 0.3-0.5) on a "
        "labelled tile that no other box found, read as that tile: right for the player, only boxed too tight or too "
        "wide, and how many lie so on one and read it wrong: a sure misread; the rest are as wrong as a sure misread too (the reader's calibration: `calibration.json`, fitted on renders only, in the "
        "calibration styles: tile styles that neither the models nor the unseen set ever draw from). "
        "Reproduce with `rummi evaluate RUN/real --split heldout`, `rummi evaluate RUN/synth --split test` (and `--split unseen`, `--split unseen_racks --rack`, `--split phone_racks --rack`), "
        "where RUN is the run folder `rummi train` wrote (`data/runs/NAME`).",
    ]
    if conf:
        lines += ["", "Most frequent confusions on the held-out real photos (true -> read): " + ", ".join(
            f"{c['true']} -> {c['read']} ({c['count']})" for c in conf)]
    if report.inference_ms:
        lines += ["", "Inference on this 2-core CPU (model loaded): " + ", ".join(f"{k}: {v:.0f} ms median" for k, v in report.inference_ms.items())]
    if notes:
        lines += ["", "## Notes", notes]
    return "\n".join(lines) + "\n"


README_BEGIN = "<!-- scores: written by training.card.write_readme_scores from models/metrics.json -->"
README_END = "<!-- /scores -->"


def readme_scores(report: Any) -> str:
    """The README's scores table, from a run's report (the same numbers as the card's)."""
    rows = [("real photos, held-out series", report.heldout), ("synthetic test set", report.synthetic),
            ("synthetic, tile styles held out of training and calibration", getattr(report, "unseen", None) or {}),
            ("the same held-out styles, racks only, read as racks", getattr(report, "unseen_racks", None) or {}),
            ("the same racks at a phone's resolution, read as racks", getattr(report, "phone_racks", None) or {})]
    lines = [README_BEGIN, "",
             "| | photos / tiles | recall | precision | exact reads | number | colour | sure but wrong | errors flagged | sure on no tile |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, e in rows:
        if not e:
            continue
        lines.append(f"| {name} | {e['photos']} / {e['labelled']} | {_pct(e['recall'])} | {_pct(e['precision'])} | "
                     f"{_pct(e['exact_accuracy'])} | {_pct(e['number_accuracy'])} | {_pct(e['colour_accuracy'])} | "
                     f"{_pct(e.get('sure_wrong_rate'))} | {_pct(e.get('errors_flagged'))} | {_no_tile(e)} |")
    return "\n".join(lines + ["", README_END])


def write_readme_scores(readme: Path, report: Any) -> bool:
    """Replace the scores block of ``readme`` (between the markers); False when it has none."""
    text = readme.read_text()
    if README_BEGIN not in text or README_END not in text:
        return False
    start, end = text.index(README_BEGIN), text.index(README_END) + len(README_END)
    readme.write_text(text[:start] + readme_scores(report) + text[end:])
    return True
