"""A stand-in tile model for the app tests: replays the tiles listed in a JSON file.

The app takes it by injection: ``RUMMI_TILE_MODEL=json_tile_model:from_env`` (with ``tests/app`` on
the import path) and ``RUMMI_FAKE_READER=path/to.json``. The JSON is either one photo
``{"width": W, "height": H, "tiles": [{"box": [x1, y1, x2, y2], "score": s, "probs": {"R10": 0.9}}]}``
or ``{"photos": [...]}`` with several; the photo whose aspect ratio is closest to the image's is
replayed, its boxes scaled to the image's size.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.yolo_format import CLASS_NAMES

FAKE_ENV = "RUMMI_FAKE_READER"
SPEC = "json_tile_model:from_env"  # the value of RUMMI_TILE_MODEL that injects it


@dataclass
class RawTile:
    """Same shape as vision.model.RawTile."""

    box: tuple[float, float, float, float]
    det_score: float
    probs: np.ndarray
    joined: bool = False


class JsonTileModel:
    def __init__(self, path: str | Path) -> None:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"{FAKE_ENV}={path}: cannot read the fake reader's JSON ({exc})") from None
        self.photos: list[dict[str, Any]] = list(data["photos"]) if "photos" in data else [data]
        self.calls = 0

    def predict(self, rgb: np.ndarray) -> list[RawTile]:
        self.calls += 1
        h, w = rgb.shape[:2]
        spec = min(self.photos, key=lambda p: abs(np.log((p["width"] / p["height"]) / (w / h))))
        sx, sy = w / spec["width"], h / spec["height"]
        out = []
        for t in spec["tiles"]:
            x1, y1, x2, y2 = (float(v) for v in t["box"])
            out.append(RawTile((x1 * sx, y1 * sy, x2 * sx, y2 * sy), float(t.get("score", 0.95)), _probs(t["probs"])))
        return out


def _probs(spec: dict[str, float]) -> np.ndarray:
    p = np.zeros(len(CLASS_NAMES))
    for code, value in spec.items():
        p[CLASS_NAMES.index(code)] = float(value)
    p += max(1.0 - p.sum(), 0.0) / len(CLASS_NAMES)
    return p / p.sum()


def from_env() -> JsonTileModel:
    """The model ``RUMMI_TILE_MODEL`` injects: replays the JSON that ``RUMMI_FAKE_READER`` names."""
    return JsonTileModel(os.environ[FAKE_ENV])


def injected_env(json_path: Path) -> dict[str, str]:
    """Environment for a separate app process (``streamlit run``) that reads with this model."""
    here = str(Path(__file__).resolve().parent)
    path = os.pathsep.join(p for p in (here, os.environ.get("PYTHONPATH", "")) if p)
    return {"RUMMI_TILE_MODEL": SPEC, FAKE_ENV: str(json_path), "PYTHONPATH": path}
