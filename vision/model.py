"""The model stage: a one-class tile detector and a crop classifier, both trained by ``rummi train``.

``load_model()`` loads the committed weights from ``models/`` once per process; ``predict`` turns an
RGB photo into raw tiles: a box, a detection score and a probability for each of the 53 codes.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import ALL_CODES

from .crops import CROP_SIZE, crop_tile
from .errors import ModelMissing

os.environ.setdefault("YOLO_OFFLINE", "1")

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DETECTOR, CLASSIFIER, SETTINGS = "detector.pt", "classifier.pt", "settings.json"


@dataclass
class RawTile:
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels of the input array
    det_score: float
    probs: np.ndarray  # (53,) over engine.tiles.ALL_CODES


@dataclass(frozen=True)
class ModelSettings:
    det_imgsz: int = 416
    det_conf: float = 0.3
    det_iou: float = 0.6
    cls_imgsz: int = CROP_SIZE
    max_det: int = 300
    small_tile_px: float = 18.0  # tiles smaller than this at det_imgsz trigger a second, finer pass
    cls_turns: int = 1  # 4: average the classifier over the crop's four quarter turns (exact, no resampling)
    ocr: bool = True  # also read each number with the text recogniser (vision.ocr) where it is installed

    @classmethod
    def load(cls, folder: Path) -> "ModelSettings":
        path = folder / SETTINGS
        if path.exists():
            data = json.loads(path.read_text())
            return cls(**{k: v for k, v in data.items() if k in cls.__dataclass_fields__})
        return cls()


class TileModel:
    def __init__(self, folder: str | Path | None = None) -> None:
        folder = Path(folder) if folder else MODELS_DIR
        missing = [n for n in (DETECTOR, CLASSIFIER) if not (folder / n).exists()]
        if missing:
            raise ModelMissing(f"model files missing in {folder}: {', '.join(missing)} (run `rummi train` or restore models/)")
        from ultralytics import YOLO

        self.folder = folder
        self.settings = ModelSettings.load(folder)
        self.detector = YOLO(str(folder / DETECTOR), task="detect")
        self.classifier = YOLO(str(folder / CLASSIFIER), task="classify")
        names = self.classifier.names
        self._to_codes = np.array([ALL_CODES.index(names[i]) for i in range(len(names))])

    def detect(self, bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        s = self.settings
        h, w = bgr.shape[:2]
        boxes, scores = self._detect_at(bgr, s.det_imgsz)
        if len(boxes):
            scale = s.det_imgsz / max(h, w)
            short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]) * scale
            if np.median(short) < s.small_tile_px and max(h, w) > s.det_imgsz * 1.5:
                boxes, scores = self._detect_at(bgr, min(s.det_imgsz * 2, int(np.ceil(max(h, w) / 32) * 32)))
        return boxes, scores

    def _detect_at(self, bgr: np.ndarray, imgsz: int) -> tuple[np.ndarray, np.ndarray]:
        s = self.settings
        r = self.detector.predict(bgr, imgsz=imgsz, conf=s.det_conf, iou=s.det_iou, max_det=s.max_det, verbose=False)[0]
        if r.boxes is None or not len(r.boxes):
            return np.zeros((0, 4)), np.zeros(0)
        return r.boxes.xyxy.cpu().numpy(), r.boxes.conf.cpu().numpy()

    def classify(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        """(N, 53) probabilities over ALL_CODES for the tiles in ``boxes``."""
        if not len(boxes):
            return np.zeros((0, len(ALL_CODES)))
        rgb_crops = [crop_tile(rgb, tuple(b), self.settings.cls_imgsz) for b in boxes]
        turns = max(1, min(4, self.settings.cls_turns))
        # the classifier was trained on tiles at every angle: each quarter turn is another honest look
        crops = [np.ascontiguousarray(np.rot90(cv2.cvtColor(c, cv2.COLOR_RGB2BGR), k)) for k in range(turns) for c in rgb_crops]
        out = np.zeros((len(crops), len(ALL_CODES)))
        for start in range(0, len(crops), 64):
            res = self.classifier.predict(crops[start : start + 64], imgsz=self.settings.cls_imgsz, verbose=False)
            for k, r in enumerate(res):
                p = r.probs.data.cpu().numpy().astype(float)
                out[start + k, self._to_codes] = p
        # a geometric mean: a code must look right from every side
        out = np.exp(np.log(np.maximum(out.reshape(turns, len(boxes), len(ALL_CODES)), 1e-9)).mean(0))
        return out / np.maximum(out.sum(1, keepdims=True), 1e-12)

    def predict(self, rgb: np.ndarray) -> list[RawTile]:
        bgr = cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR)
        boxes, scores = self.detect(bgr)
        probs = self.classify(rgb, boxes)
        return [RawTile(tuple(float(v) for v in b), float(s), p) for b, s, p in zip(boxes, scores, probs)]


@functools.lru_cache(maxsize=4)
def _load(folder: str) -> TileModel:
    return TileModel(folder)


def load_model(models_dir: str | Path | None = None) -> TileModel:
    """The model in ``models_dir`` (default: the committed ``models/``), loaded once per process."""
    return _load(str(Path(models_dir) if models_dir else MODELS_DIR))
