"""Photo in, reading and picture for the screen out (no Streamlit here, so it is testable directly).

``read_photo(data, name, reader)`` loads the bytes (``vision.load``: EXIF, any format, clear
errors), reads the tiles at full resolution and keeps a copy of the photo downscaled for the screen;
``annotated(result, reading)`` draws a reading (corrected or not) on that small copy, so a
12-megapixel photo is never drawn or sent to the browser at full size.

The model comes from ``load_tile_model()``: the committed ``models/`` (``RUMMI_MODELS`` overrides
the folder), or, when ``RUMMI_FAKE_READER`` names a JSON file, a stand-in that replays the tiles
listed there (tests and demos without the trained weights). The JSON is either one photo
``{"width": W, "height": H, "tiles": [{"box": [x1, y1, x2, y2], "score": s, "probs": {"R10": 0.9}}]}``
or ``{"photos": [...]}`` with several; the photo whose aspect ratio is closest to the image's is
replayed, its boxes scaled to the image's size.
"""

from __future__ import annotations

import dataclasses
import json
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from engine.tiles import ALL_CODES
from vision.types import Image, PhotoReading

__all__ = [
    "DISPLAY_MAX_SIDE",
    "FAKE_ENV",
    "MODELS_ENV",
    "JsonTileModel",
    "PhotoResult",
    "annotated",
    "downscale",
    "load_tile_model",
    "read_photo",
    "scaled_reading",
]

FAKE_ENV = "RUMMI_FAKE_READER"
MODELS_ENV = "RUMMI_MODELS"
DISPLAY_MAX_SIDE = 1600  # the photo is shown (and drawn on) at most this many pixels wide/high
UPLOAD_TYPES = ["jpg", "jpeg", "png", "webp", "heic", "heif"]
_LOAD_LOCK = threading.Lock()  # the warm-up thread and a first photo must not load it twice


@dataclass
class _RawTile:
    """Same shape as vision.model.RawTile."""

    box: tuple[float, float, float, float]
    det_score: float
    probs: np.ndarray


class JsonTileModel:
    """A stand-in for vision.model.TileModel that replays tiles listed in a JSON file."""

    def __init__(self, path: str | Path) -> None:
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as exc:
            raise ValueError(f"{FAKE_ENV}={path}: cannot read the fake reader's JSON ({exc})") from None
        self.photos: list[dict[str, Any]] = list(data["photos"]) if "photos" in data else [data]
        self.calls = 0

    def predict(self, rgb: np.ndarray) -> list[_RawTile]:
        self.calls += 1
        h, w = rgb.shape[:2]
        spec = min(self.photos, key=lambda p: abs(np.log((p["width"] / p["height"]) / (w / h))))
        sx, sy = w / spec["width"], h / spec["height"]
        out = []
        for t in spec["tiles"]:
            x1, y1, x2, y2 = (float(v) for v in t["box"])
            out.append(_RawTile((x1 * sx, y1 * sy, x2 * sx, y2 * sy), float(t.get("score", 0.95)), _probs(t["probs"])))
        return out


def _probs(spec: dict[str, float]) -> np.ndarray:
    p = np.zeros(len(ALL_CODES))
    for code, value in spec.items():
        p[ALL_CODES.index(code)] = float(value)
    p += max(1.0 - p.sum(), 0.0) / len(ALL_CODES)
    return p / p.sum()


def load_tile_model() -> Any:
    """The tile model: the fake one when ``RUMMI_FAKE_READER`` is set, else the committed weights
    (raises vision.errors.ModelMissing when they are not there)."""
    fake = os.environ.get(FAKE_ENV, "").strip()
    if fake:
        return JsonTileModel(fake)
    from vision.model import load_model  # loads once per process (lru_cache)

    with _LOAD_LOCK:
        return load_model(os.environ.get(MODELS_ENV, "").strip() or None)


@dataclass
class PhotoResult:
    """One photo, read: the reading (boxes in the photo's pixels), the screen copy and timings."""

    name: str
    reading: PhotoReading
    display: Image
    scale: float  # screen-copy pixels per photo pixel (<= 1)
    timings: dict[str, float] = field(default_factory=dict)  # milliseconds: load, read, total

    @property
    def size(self) -> tuple[int, int]:
        return self.reading.width, self.reading.height


def downscale(image: Image, max_side: int = DISPLAY_MAX_SIDE) -> tuple[Image, float]:
    """A copy at most ``max_side`` pixels on its longer side (the image itself if already small)."""
    h, w = image.rgb.shape[:2]
    scale = min(1.0, max_side / max(h, w, 1))
    if scale >= 1.0:
        return image, 1.0
    import cv2

    size = (max(1, round(w * scale)), max(1, round(h * scale)))
    small = cv2.resize(image.rgb, size, interpolation=cv2.INTER_AREA)
    return Image(rgb=np.ascontiguousarray(small), path=image.path), scale


def read_photo(
    data: bytes, name: str, reader: Any, rack: bool = False, known: Iterable[str] = ()
) -> PhotoResult:
    """Load and read one photo. Raises vision.errors.ImageError for a file that is not a usable
    photo and vision.errors.ModelMissing when there is no model."""
    from vision.load import load_image

    t0 = time.perf_counter()
    image = load_image(data, name=name)
    t1 = time.perf_counter()
    reading = reader.read(image, rack=rack, known=list(known))
    t2 = time.perf_counter()
    display, scale = downscale(image)
    del image
    t3 = time.perf_counter()
    return PhotoResult(
        name=name,
        reading=reading,
        display=display,
        scale=scale,
        timings={"load": (t1 - t0) * 1e3, "read": (t2 - t1) * 1e3, "downscale": (t3 - t2) * 1e3, "total": (t3 - t0) * 1e3},
    )


def scaled_reading(reading: PhotoReading, scale: float) -> PhotoReading:
    """The reading with every box scaled (for drawing on the screen copy)."""
    if scale == 1.0:
        return reading
    tiles = [dataclasses.replace(t, box=tuple(v * scale for v in t.box)) for t in reading.tiles]
    return dataclasses.replace(
        reading, tiles=tiles, width=round(reading.width * scale), height=round(reading.height * scale)
    )


def annotated(result: PhotoResult, reading: PhotoReading | None = None) -> np.ndarray:
    """The screen copy with ``reading`` (default: the photo's own) drawn on it (RGB)."""
    from vision.annotate import annotate

    return annotate(result.display, scaled_reading(reading or result.reading, result.scale))
