"""Fitting the reader's calibration (``vision.calibration.Calibration``) on rendered photos: a step
of ``rummi train``, and the one call to refit it on another render set (``refit``), such as a
"leave-styles-out" set.

Fit only on a labelled set the models never learnt from, only ever rendered photos (never the real
held-out photos, which are for reporting). The fit:

1. reads every photo once with the models (detector, classifier, recogniser) and the ink opinion,
   and keeps each tile's raw opinions and, for tiles matched to a label, the truth; a photo whose
   boxes are flat is read stretched too, as the reader reads a table seen from low down (``vision.lowview``);
2. counts how often the ink names each colour on tiles of each true colour (``InkRates.count``),
   then fits the classifier's temperature and the recogniser's behaviour by maximum likelihood of
   the true codes, the ink's evidence included (``fit_fusion``), once with the recogniser and once
   without; the classifier's 6-or-9 share and its temperature on a rack are fitted on the tiles of the set's rack scenes
   (a render's meta file names its scene), which are read as racks, as the app reads a rack photo;
3. replays the whole reading (layout, rules, copy limits; a photo of the Twist edition with the
   Twist rule on, as ``vision.evaluate`` reads it) with those numbers and chooses the
   lowest confidence threshold under which at most ``max_sure_wrong`` of the tiles shown as sure
   are wrong (``fit_threshold``), for the 6s and 9s apart, for the 1s apart (what a digit whose detail is
   lost reads as) and for the tiles of a reading stretched from a low view apart, then asks the sure tiles
   for a margin beyond it, since editions unlike the calibration's are read worse (``with_margin``).

    python -m training.calibrate DATASET [--split val] [--models DIR] [--out FILE]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from vision.calibration import CALIBRATION, Calibration, reads_one
from vision.fusion import FusionParams, fuse
from vision.ink import InkRates, ink_likelihood
from vision.types import NumberAnswers
from vision.upright import reads_turned
from vision.yolo_format import CLASS_NAMES, read_labels

# The bounds are 0.5% sure-but-wrong and 90% of errors flagged; the fit aims at half the
# room on each, because photos unlike the renders it is fitted on are read worse.
MAX_SURE_WRONG = 0.0025  # of the tiles shown as sure, at most this share may be wrong
MIN_ERRORS_FLAGGED = 0.95  # of the tiles read wrong, at least this share must be flagged
# Editions unlike the calibration's are read worse at the same confidence, so a threshold that meets the
# bounds on the calibration styles does not meet them on styles unlike those. A sure tile must therefore be
# STYLE_MARGIN times less doubtful (1 - confidence) than the fitted threshold asks. Chosen on the unseen-styles
# set, the stand-in for an edition nobody here has seen (the model card says so).
STYLE_MARGIN = 3.0
_CODE_INDEX = {c: i for i, c in enumerate(CLASS_NAMES)}


# --------------------------------------------------------------------------- what a fit learns from


@dataclass
class PhotoRecord:
    """One photo's raw opinions, replayable without the models."""

    path: str
    width: int
    height: int
    boxes: np.ndarray  # (N, 4) after the reader's cleaning, in the detector's order
    det_scores: np.ndarray  # (N,)
    classifier: np.ndarray  # (N, classes): over vision.yolo_format.CLASS_NAMES
    ocr: np.ndarray | None  # (N, 14)
    truth: list[str | None]  # the matched label's code per tile, None where no label matches
    inks: list[str | None] | None = None  # the ink opinion per tile (vision.ink); None: not recorded
    rack: bool = False  # a photo of a rack (a rendered rack scene), read as one
    joined: np.ndarray | None = None  # (N,) the boxes joined from two halves (vision.halves); None: none recorded
    ways: np.ndarray | None = None  # (N,) the way each tile lies, by the recogniser (NumberAnswers.ways); None: not recorded
    # the same photo read stretched, as the reader reads a table seen from low down (``vision.lowview``): its
    # width, height and boxes are the stretched photo's; None where the reader reads the photo once
    tall: "PhotoRecord | None" = None


def collect(dataset: str | Path, split: str, models_dir: str | Path | None = None, limit: int | None = None, progress: bool = True) -> list[PhotoRecord]:
    """Read every photo of a labelled set once with the committed models; keep the raw opinions. A photo the
    reader reads a second time stretched (a table seen from low down, ``vision.lowview``) is read that way too."""
    from tqdm import tqdm

    from datasets.synth.writer import is_rack_scene, read_meta
    from vision.evaluate import open_dataset
    from vision.ink import InkOpinion
    from vision.load import load_image
    from vision.lowview import LowView, stretched
    from vision.metrics import match
    from vision.model import load_model
    from vision.ocr import load_number_reader
    from vision.reader import clean_detections
    from vision.types import Image

    data = open_dataset(dataset, split)
    model = load_model(models_dir)
    numbers = load_number_reader()
    ink = InkOpinion()
    low_view = LowView()  # the reader's own

    def record(image: Image, label_path: Path, rack: bool) -> PhotoRecord:
        raw = clean_detections(model.predict(image.rgb), image, 0.0)
        boxes = np.array([r.box for r in raw], dtype=np.float64).reshape(-1, 4)
        probs = np.array([r.probs for r in raw], dtype=np.float64).reshape(-1, len(CLASS_NAMES))
        answers = numbers.read_with_ways(image.rgb, boxes, upright=rack)
        # the labels are fractions of the photo: read on the stretched photo, they are stretched with it
        truth_tiles = read_labels(label_path, data.names, image.width, image.height)
        truth: list[str | None] = [None] * len(raw)
        for i, j in match([t.box for t in truth_tiles], [tuple(b) for b in boxes]):
            truth[j] = truth_tiles[i].code
        return PhotoRecord(str(image.path), image.width, image.height, boxes, np.array([r.det_score for r in raw]), probs,
                           answers.probs, truth, ink.read(image.rgb, boxes), rack, np.array([r.joined for r in raw], dtype=bool),
                           answers.ways)

    out = []
    for image_path, label_path in tqdm(data.photos[:limit], desc="reading", unit="photo", disable=not progress):
        image = load_image(image_path)
        taken = record(image, label_path, is_rack_scene(read_meta(data.root, split, image_path)))
        stretch = low_view.stretch(taken.boxes)
        if stretch > 1:
            taken = dataclasses.replace(taken, tall=record(stretched(image, stretch), label_path, taken.rack))
        out.append(taken)
    return out


# --------------------------------------------------------------------------- fitting


@dataclass(frozen=True)
class Stacked:
    """The labelled tiles of a set of records, one row each."""

    classifier: np.ndarray  # (N, classes)
    ocr: np.ndarray | None  # (N, 14); None unless every record has the recogniser's answers
    truth: np.ndarray  # (N,) index of the true code in CLASS_NAMES
    inks: list[str | None] | None  # None unless every record has the ink opinions
    rack: np.ndarray  # (N,) True for the tiles of a rack photo


def _readings(record: PhotoRecord) -> list[PhotoRecord]:
    """The record's readings: as taken, and stretched where the reader reads it so too."""
    return [record] if record.tall is None else [record, record.tall]


def _stack(records: Sequence[PhotoRecord]) -> Stacked:
    cls_rows, ocr_rows, truth, inks, rack = [], [], [], [], []
    records = [read for r in records for read in _readings(r)]
    with_inks = all(r.inks is not None for r in records)
    for r in records:
        for t, code in enumerate(r.truth):
            if code is None:
                continue
            cls_rows.append(r.classifier[t])
            ocr_rows.append(r.ocr[t] if r.ocr is not None else None)
            if with_inks:
                inks.append(r.inks[t])  # type: ignore[index]
            truth.append(_CODE_INDEX[code])
            rack.append(r.rack)
    if not truth:
        raise ValueError("no labelled tiles to fit on")
    ocr = None if any(o is None for o in ocr_rows) else np.stack(ocr_rows)  # type: ignore[arg-type]
    return Stacked(np.stack(cls_rows), ocr, np.asarray(truth), inks if with_inks else None, np.asarray(rack, bool))


def _nll(classifier: np.ndarray, ocr: np.ndarray | None, truth: np.ndarray, params: FusionParams,
         evidence: np.ndarray | None = None, rack: np.ndarray | None = None) -> float:
    """The mean negative log-likelihood of the true codes; the tiles ``rack`` marks fused with the rack's numbers."""
    p = fuse(classifier, ocr, params, evidence)
    if rack is not None and rack.any():
        p[rack] = fuse(classifier[rack], None if ocr is None else ocr[rack], params.on_rack(),
                       None if evidence is None else evidence[rack])
    return float(-np.log(np.maximum(p[np.arange(len(truth)), truth], 1e-12)).mean())


def fit_fusion(classifier: np.ndarray, ocr: np.ndarray | None, truth: np.ndarray, evidence: np.ndarray | None = None,
               rack: np.ndarray | None = None) -> FusionParams:
    """The temperature (and, with a recogniser, its behaviour) that best explain the true codes,
    other evidence (``fuse``'s) held as it is; with ``rack`` (the tiles of rack photos) and any such tile,
    also the classifier's 6-or-9 share and temperatures on a rack (``FusionParams.rack_six_nine``, ``rack_temperature``,
    ``rack_number_temperature``)."""
    from scipy.optimize import minimize

    def share(v: float) -> float:  # 0 .. 0.5
        return float(0.5 / (1 + np.exp(-np.clip(v, -30, 30))))

    racks = rack is not None and bool(np.asarray(rack).any())
    # where the optional numbers sit: the evidence's weight last, the rack share before it, the rack temperature before
    # that, the rack's number temperature before that
    at_weight, at_rack = -1, (-2 if evidence is not None else -1)
    at_rack_temperature, at_rack_number = at_rack - 1, at_rack - 2

    def rack_temperature(x: np.ndarray) -> float | None:
        return float(np.exp(np.clip(x[at_rack_temperature], -3, 3))) if racks else None

    def rack_number_temperature(x: np.ndarray) -> float | None:
        return float(np.exp(np.clip(x[at_rack_number], -3, 3))) if racks else None

    def weight(x: np.ndarray) -> float:  # 0 .. 1; the evidence's own weight, 1 where there is none
        return 1.0 if evidence is None else float(1 / (1 + np.exp(-np.clip(x[at_weight], -30, 30))))

    def rack_share(x: np.ndarray) -> float | None:
        return share(x[at_rack]) if racks else None

    def unpack(x: np.ndarray) -> FusionParams:
        temperature = float(np.exp(np.clip(x[0], -3, 3)))
        if ocr is None:
            return FusionParams(cls_temperature=temperature, six_nine=share(x[1]), evidence_weight=weight(x),
                                rack_six_nine=rack_share(x), rack_temperature=rack_temperature(x),
                                rack_number_temperature=rack_number_temperature(x))
        # hit, blank and misread as a softmax, so that they always leave room for each other
        e = np.exp(np.clip([x[2], x[3], 0.0], -12, 12))
        # the bounds keep each share strictly inside (0, 1) and hit + blank below 1 however far the search goes
        hit = float(np.clip(e[0] / e.sum(), 1e-4, 0.998))
        blank = float(np.clip(e[1] / e.sum(), 1e-4, 0.999 - hit))
        # a smooth map onto its bounds: a clipped one is flat beyond them, and a search that strays there stalls
        joker_blank = 1e-3 + (0.999 - 1e-3) / (1 + np.exp(-np.clip(x[4], -30, 30)))
        return FusionParams(
            cls_temperature=temperature,
            # the recogniser's answers are softer than its record: where it reads a number at 0.9 it is right far
            # more often than nine times in ten, so its odds are sharpened before the misread model weighs them
            ocr_temperature=float(np.exp(np.clip(x[5], -3, 3))),
            six_nine=share(x[1]),
            ocr_hit=hit,
            ocr_blank=blank,
            joker_blank=float(joker_blank),
            # one share for both readers' 6-or-9 (x[1]): where nothing on a tile shows which end is up, neither can
            # know it. Fitted apart, the calibration's editions, whose maker's mark shows the classifier the way up,
            # teach the fusion to follow the classifier on editions without one, against the recogniser and the
            # neighbours it reads with.
            ocr_six_nine=share(x[1]),
            evidence_weight=weight(x),
            # on a rack the classifier's own: the lip and the tier before hide the marks it tells a 6's way up by,
            # while the recogniser still reads with the neighbours, which show which way the rack stands
            rack_six_nine=rack_share(x),
            rack_temperature=rack_temperature(x),
            # ... and the number's apart from the colour's: the classifier reads a rack's colours well and its numbers
            # of an edition it never saw poorly, and one temperature for both is held back by the colour
            rack_number_temperature=rack_number_temperature(x),
            # on a joker the recogniser reads a number only unsurely, where it reads many a number tile's number
            # surely: how unsure, up to e^3 (20)
            joker_softness=float(np.exp(np.clip(x[6], -6, 3))),
        )

    x0 = np.array([0.0, -3.0]) if ocr is None else np.array([0.0, -3.0, 3.0, 0.5, 3.0, 0.0, 0.0])
    if racks:
        x0 = np.append(x0, [0.0, 0.0, -3.0])
    if evidence is not None:
        x0 = np.append(x0, 0.0)
    on_rack = np.asarray(rack, bool) if racks else None

    def nll(x: np.ndarray) -> float:
        return _nll(classifier, ocr, truth, unpack(x), evidence, on_rack)

    # Powell's line searches, not Nelder-Mead's simplex: a simplex that strays far out along a share's sigmoid finds
    # the loss flat there and stops (the jokers' blank rate pinned at a bound, the 6-or-9 share at none or half),
    # short of the fit that a search along each direction in turn reaches from the same start
    res = minimize(nll, x0, method="Powell", options={"xtol": 1e-4, "ftol": 1e-8, "maxiter": 5000})
    return unpack(res.x)


def fit_threshold(confidence: np.ndarray, flagged: np.ndarray, wrong: np.ndarray, max_sure_wrong: float = MAX_SURE_WRONG,
                  min_errors_flagged: float = MIN_ERRORS_FLAGGED) -> float:
    """The lowest confidence threshold under which at most ``max_sure_wrong`` of the sure tiles are
    wrong and at least ``min_errors_flagged`` of the wrong tiles are flagged (0.999 if none does).

    confidence, flagged (by the other doubt rules), wrong: per matched tile. A tile is sure when it
    is not flagged and its confidence is at least the threshold.
    """
    confidence, flagged, wrong = (np.asarray(a) for a in (confidence, flagged, wrong))
    if not (len(confidence) == len(flagged) == len(wrong)):
        raise ValueError("confidence, flagged and wrong need one entry per tile")
    candidates = np.unique(np.concatenate([[0.0], confidence[~flagged]]))
    for tau in candidates:  # ascending: the first that meets the target flags the fewest tiles
        sure = ~flagged & (confidence >= tau)
        caught = (wrong & ~sure).sum() >= min_errors_flagged * wrong.sum()
        if not sure.any() or (wrong[sure].mean() <= max_sure_wrong and caught):
            return float(min(max(tau, 0.0), 0.999))
    return 0.999


def replay(records: Sequence[PhotoRecord], calibration: Calibration, with_ocr: bool
           ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Read the records again, models replaced by their recorded answers: per matched tile (confidence, flagged by
    a rule other than the thresholds, wrong, read as a 6 or a 9, of a photo read stretched as a low view, read as
    a 1).

    With no thresholds, the reader keeps the reading of a low view with more tiles no other rule doubts."""
    from vision.evaluate import edition_rules
    from vision.reader import Reader
    from vision.types import Image

    flat = dataclasses.replace(calibration, doubt_below=0.0, doubt_below_alone=0.0, six_nine_below=0.0, six_nine_below_alone=0.0,
                               low_view_below=0.0, low_view_below_alone=0.0, one_below=0.0, one_below_alone=0.0)
    confidence, flagged, wrong, six_nine, low, one = [], [], [], [], [], []
    for r in records:
        if not len(r.boxes):
            continue
        model = _ReplayModel(r)
        reader = Reader(model, number_reader=_ReplayNumbers(r) if with_ocr else None, ocr=with_ocr, calibration=flat,
                        ink_reader=_ReplayInks(r), sideways=False, mirror=False)
        # read with the rules the evaluation reads the photo with (the Twist rule on for the Twist edition)
        reading = reader.read(Image(np.zeros((r.height, r.width, 3), np.uint8), r.path), rack=r.rack,
                              rules=edition_rules(reader, r.truth))
        read = r if reading.stretch == 1 else r.tall  # the record of the reading the reader kept
        assert read is not None, "the replay stretched a photo the collection read once"
        kept = _ReplayModel(read)
        for tile in reading.tiles:
            x1, y1, x2, y2 = tile.box  # on the photo as taken: on the stretched photo, stretched back
            t = kept.index_of((x1, y1 * reading.stretch, x2, y2 * reading.stretch))
            if read.truth[t] is None:
                continue
            confidence.append(tile.confidence)
            flagged.append(tile.doubtful)
            wrong.append(tile.code != read.truth[t])
            six_nine.append(reads_turned(tile.code))
            low.append(reading.stretch > 1)
            one.append(reads_one(tile.code))
    return (np.asarray(confidence), np.asarray(flagged, bool), np.asarray(wrong, bool), np.asarray(six_nine, bool),
            np.asarray(low, bool), np.asarray(one, bool))


def with_margin(threshold: float, margin: float = STYLE_MARGIN) -> float:
    """``threshold`` with its doubt (1 - threshold) divided by ``margin``, no higher than 0.999 (some tiles stay
    sure), never lower than ``threshold``."""
    if margin < 1:
        raise ValueError(f"a style margin below 1 ({margin}) would loosen the fitted threshold")
    return float(max(threshold, min(1.0 - (1.0 - threshold) / margin, 0.999)))


def fit(records: Sequence[PhotoRecord], max_sure_wrong: float = MAX_SURE_WRONG, fitted_on: str = "",
        min_errors_flagged: float = MIN_ERRORS_FLAGGED, margin: float = STYLE_MARGIN) -> Calibration:
    """A calibration from recorded readings of a labelled, rendered set (the defaults, saying so in
    its notes, when no read tile matches a label: a development run's untrained detector)."""
    if not any(code is not None for r in records for code in r.truth):
        return Calibration(fitted_on=fitted_on, notes={"tiles": 0})
    stacked = _stack(records)
    classifier, ocr, truth = stacked.classifier, stacked.ocr, stacked.truth
    ink = None if stacked.inks is None else InkRates.count([CLASS_NAMES[t] for t in truth], stacked.inks)
    evidence = None if ink is None else ink_likelihood(stacked.inks, CLASS_NAMES, ink)  # type: ignore[arg-type]
    alone = fit_fusion(classifier, None, truth, evidence, stacked.rack)
    both = fit_fusion(classifier, ocr, truth, evidence, stacked.rack) if ocr is not None else FusionParams()
    cal = Calibration(fusion=both, alone=alone, ink=ink, fitted_on=fitted_on)
    notes: dict = {"tiles": int(len(truth)), "max_sure_wrong": max_sure_wrong, "min_errors_flagged": min_errors_flagged,
                   "style_margin": margin}
    thresholds = {}
    for with_ocr in ((False, True) if ocr is not None else (False,)):
        conf, flagged, wrong, six_nine, low, one = replay(records, cal, with_ocr)

        def threshold(kind: np.ndarray) -> float:
            if not kind.any():  # no such tile among the calibration's photos: no bound of its own
                return 0.0
            return with_margin(fit_threshold(conf[kind], flagged[kind], wrong[kind], max_sure_wrong, min_errors_flagged), margin)

        # each kind of tile meets the bounds on its own, so all of them together do too. The notes count the sure
        # tiles as the reader shows them: every tile is held to the threshold every tile meets, a 6 or a 9 and a 1 to
        # their kind's too, and a low view's tiles to their own (the reader takes the highest)
        tau, tau69 = threshold(~six_nine & ~one & ~low), threshold(six_nine & ~low)
        tau_one, tau_low = threshold(one & ~low), threshold(low)
        thresholds[with_ocr] = (tau, tau69, tau_low, tau_one)
        kind = np.where(six_nine, tau69, np.where(one, tau_one, 0.0))
        sure = ~flagged & (conf >= np.maximum(np.maximum(kind, tau), np.where(low, tau_low, 0.0)))
        key = "ocr" if with_ocr else "alone"
        notes[key] = {
            "nll": round(_nll(classifier, ocr if with_ocr else None, truth, cal.params(with_ocr), evidence, stacked.rack), 4),
            "wrong": int(wrong.sum()),
            "sure": int(sure.sum()),
            "sure_wrong": int((sure & wrong).sum()),
            "errors_flagged": int((~sure & wrong).sum()),
            "doubtful": int((~sure).sum()),
            "threshold": round(tau, 4),
            "six_nine_threshold": round(tau69, 4),
            "low_view_threshold": round(tau_low, 4),
            "low_view_tiles": int(low.sum()),
            "low_view_sure": int((sure & low).sum()),
            "low_view_sure_wrong": int((sure & low & wrong).sum()),
            "one_threshold": round(tau_one, 4),
            "one_tiles": int((one & ~low).sum()),
            "one_sure": int((sure & one & ~low).sum()),
            "one_sure_wrong": int((sure & one & ~low & wrong).sum()),
        }
    with_ocr_t = thresholds.get(True, (cal.doubt_below, cal.six_nine_below, cal.low_view_below, cal.one_below))
    return dataclasses.replace(
        cal, doubt_below=with_ocr_t[0], six_nine_below=with_ocr_t[1], low_view_below=with_ocr_t[2],
        one_below=with_ocr_t[3], doubt_below_alone=thresholds[False][0], six_nine_below_alone=thresholds[False][1],
        low_view_below_alone=thresholds[False][2], one_below_alone=thresholds[False][3], notes=notes,
    )


def refit(dataset: str | Path, split: str | Sequence[str] = "val", models_dir: str | Path | None = None,
          out: str | Path | None = None, max_sure_wrong: float = MAX_SURE_WRONG, limit: int | None = None,
          progress: bool = True) -> Calibration:
    """Read a labelled rendered set (one split, or several fitted on together) with the models, fit, and write
    ``calibration.json`` (default: into the models folder). The one call to recalibrate on another render set."""
    from vision.model import MODELS_DIR

    splits = [split] if isinstance(split, str) else list(split)
    records = [r for s in splits for r in collect(dataset, s, models_dir, limit=limit, progress=progress)]
    cal = fit(records, max_sure_wrong, fitted_on=f"{dataset} ({', '.join(splits)}, {len(records)} photos)")
    cal.save(Path(out) if out else Path(models_dir or MODELS_DIR) / CALIBRATION)
    return cal


# --------------------------------------------------------------------------- replay stand-ins


def _reading_of(record: PhotoRecord, rgb: np.ndarray) -> PhotoRecord:
    """The record of the reading the reader asks about: the photo as taken, or stretched (told by its height)."""
    for read in _readings(record):
        if rgb.shape[0] == read.height:
            return read
    raise ValueError(f"{record.path}: the reader asks about a photo {rgb.shape[0]} px tall, none recorded")


class _ReplayModel:
    """Gives back a record's detections (same contract as vision.model.TileModel.predict)."""

    def __init__(self, record: PhotoRecord) -> None:
        self.record = record

    def predict(self, rgb: np.ndarray) -> list:
        from vision.model import RawTile

        r = _reading_of(self.record, rgb)
        joined = np.zeros(len(r.boxes), dtype=bool) if r.joined is None else r.joined
        return [RawTile(tuple(float(v) for v in b), float(s), p, bool(j))
                for b, s, p, j in zip(r.boxes, r.det_scores, r.classifier, joined)]

    def index_of(self, box: Sequence[float]) -> int:
        d = np.abs(self.record.boxes - np.asarray(box, dtype=np.float64)).sum(1)
        return int(np.argmin(d))


def _rows_of(record: PhotoRecord, boxes: np.ndarray) -> list[int]:
    """The record's tile for each box the reader asks about (it asks in its own order)."""
    model = _ReplayModel(record)
    return [model.index_of(b) for b in np.asarray(boxes).reshape(-1, 4)]


class _ReplayNumbers:
    def __init__(self, record: PhotoRecord) -> None:
        self.record = record

    def read(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> np.ndarray:
        return self.read_with_ways(rgb, boxes, upright).probs

    def read_with_ways(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> NumberAnswers:
        r = _reading_of(self.record, rgb)
        assert r.ocr is not None
        rows = _rows_of(r, boxes)
        return NumberAnswers(r.ocr[rows], np.full(len(rows), np.nan) if r.ways is None else r.ways[rows])


class _ReplayInks:
    """Gives back a record's ink opinions (none where they were not recorded)."""

    def __init__(self, record: PhotoRecord) -> None:
        self.record = record

    def read(self, rgb: np.ndarray, boxes: np.ndarray) -> list[str | None]:
        r = _reading_of(self.record, rgb)
        return [None if r.inks is None else r.inks[i] for i in _rows_of(r, boxes)]


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m training.calibrate", description=__doc__.split("\n")[0])
    ap.add_argument("dataset", help="a labelled, rendered set (YOLO format)")
    ap.add_argument("--split", default="val", help="a split, or several fitted on together: calib,calib_racks")
    ap.add_argument("--models", default=None, help="models folder (default: the committed models/)")
    ap.add_argument("--out", default=None, help="where to write the calibration (default: MODELS/calibration.json)")
    ap.add_argument("--max-sure-wrong", type=float, default=MAX_SURE_WRONG)
    ap.add_argument("--limit", type=int, default=None)
    args = ap.parse_args(argv)
    cal = refit(args.dataset, args.split.split(","), args.models, args.out, args.max_sure_wrong, args.limit)
    print(json.dumps(cal.to_json(), indent=2))


if __name__ == "__main__":
    main()
