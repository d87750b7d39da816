"""Fakes for the photo-reader tests: a tile model that needs no trained weights."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from vision.model import ModelSettings, TileModel
from vision.yolo_format import CLASS_NAMES

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
_INDEX = {c: i for i, c in enumerate(CLASS_NAMES)}


@dataclass
class FakeRawTile:
    """Same shape as vision.model.RawTile (the model stage's contract)."""

    box: tuple[float, float, float, float]
    det_score: float
    probs: np.ndarray
    joined: bool = False


def prob_vector(spec: dict[str, float]) -> np.ndarray:
    """A probability vector over the reader's classes: the given codes, the rest of the mass spread evenly."""
    p = np.zeros(len(CLASS_NAMES))
    for code, value in spec.items():
        p[_INDEX[code]] = value
    rest = 1.0 - p.sum()
    assert rest >= -1e-9
    p += max(rest, 0.0) / len(CLASS_NAMES)
    return p / p.sum()


def raw_tile(box, probs: dict[str, float], score: float = 0.95) -> FakeRawTile:
    return FakeRawTile(box=tuple(float(v) for v in box), det_score=score, probs=prob_vector(probs))


class FakeModel:
    """Returns fixed tiles (or ``tiles_for(rgb)``); counts its calls and remembers the shapes."""

    def __init__(self, tiles: list[FakeRawTile] | Callable[[np.ndarray], list[FakeRawTile]]) -> None:
        self._tiles = tiles
        self.calls = 0
        self.shapes: list[tuple[int, ...]] = []

    def predict(self, rgb: np.ndarray) -> list[FakeRawTile]:
        assert rgb.dtype == np.uint8 and rgb.ndim == 3 and rgb.shape[2] == 3
        self.calls += 1
        self.shapes.append(rgb.shape)
        return list(self._tiles(rgb) if callable(self._tiles) else self._tiles)


def fixture_tiles() -> tuple[dict, list[FakeRawTile]]:
    data = json.loads((FIXTURES / "vision_fake_tiles.json").read_text())
    return data, [raw_tile(t["box"], t["probs"], t["score"]) for t in data["tiles"]]


def number_vector(spec: dict[int | None, float]) -> np.ndarray:
    """A (14,) number-reader answer: numbers 1-13 (None: "no number"), the rest spread evenly."""
    p = np.zeros(14)
    for number, value in spec.items():
        p[13 if number is None else number - 1] = value
    rest = 1.0 - p.sum()
    assert rest >= -1e-9
    p += max(rest, 0.0) / 14
    return p / p.sum()


class FakeNumberReader:
    """A number reader (vision.ocr.NumberReader's contract) that answers from a table of boxes.

    ``answers``: box -> {number or None: p}; a box not in the table reads as "no number".
    Remembers the boxes it was asked about, and whether it was told they stand upright (a rack).
    """

    def __init__(self, answers: dict[tuple[float, float, float, float], dict[int | None, float]]) -> None:
        self.answers = {tuple(float(v) for v in b): a for b, a in answers.items()}
        self.asked: list[list[tuple[float, ...]]] = []
        self.upright: list[bool] = []

    def read(self, rgb: np.ndarray, boxes: np.ndarray, upright: bool = False) -> np.ndarray:
        assert rgb.dtype == np.uint8 and rgb.ndim == 3
        keys = [tuple(float(v) for v in b) for b in np.asarray(boxes).reshape(-1, 4)]
        self.asked.append(keys)
        self.upright.append(upright)
        return np.stack([number_vector(self.answers.get(k, {None: 1.0})) for k in keys]) if keys else np.zeros((0, 14))


# the detector's first look only: no further sizes, no close-up or fine look, no darkest-channel look
ONE_LOOK = {"det_more_looks": (), "det_close_imgsz": 0, "det_fine_imgsz": 0, "det_darkest_conf": 0}


class DetectorStandIn(TileModel):
    """A tile model with no weights whose detector is its subclass's ``_detect_at``: only the looks' logic
    (``TileModel.detect``) runs. ``settings``: ``ModelSettings`` fields (``ONE_LOOK`` for the first look alone)."""

    def __init__(self, **settings) -> None:
        self.settings = ModelSettings(**settings)
        self._fast_det, self._photos = False, 0  # no network to export
