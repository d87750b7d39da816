"""Photo in, reading and picture for the screen out (no Streamlit here, so it is testable directly).

``read_photo(data, name, reader)`` loads the bytes (``vision.load``: EXIF, any format, clear
errors), reads the tiles at full resolution and keeps a copy of the photo downscaled for the screen;
``annotated(result, reading)`` draws a reading (corrected or not) on that small copy, so a
12-megapixel photo is never drawn or sent to the browser at full size.

The model comes from ``load_tile_model()``: the committed ``models/`` (``RUMMI_MODELS`` overrides
the folder), or whatever ``RUMMI_TILE_MODEL=module:function`` names: a callable that returns an
object with ``predict(rgb) -> list of raw tiles`` (the tests inject a stand-in this way).
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import numpy as np

from vision.types import Image, PhotoReading
from vision.yolo_format import IMAGE_SUFFIXES

__all__ = [
    "DISPLAY_MAX_SIDE",
    "MODEL_ENV",
    "MODELS_ENV",
    "PhotoResult",
    "annotated",
    "downscale",
    "load_tile_model",
    "model_factory",
    "read_photo",
    "scaled_reading",
]

MODEL_ENV = "RUMMI_TILE_MODEL"
MODELS_ENV = "RUMMI_MODELS"
DISPLAY_MAX_SIDE = 1600  # the photo is shown (and drawn on) at most this many pixels wide/high
Box = tuple[float, float, float, float]
UPLOAD_TYPES = sorted(s.lstrip(".") for s in IMAGE_SUFFIXES)
_LOAD_LOCK = threading.Lock()  # the warm-up thread and a first photo must not load it twice


def load_tile_model() -> Any:
    """The tile model: the one ``RUMMI_TILE_MODEL`` names when set, else the committed weights
    (raises vision.errors.ModelMissing when they are not there)."""
    spec = os.environ.get(MODEL_ENV, "").strip()
    if spec:
        return model_factory(spec)()
    from vision.model import load_model  # loads once per process (lru_cache)

    with _LOAD_LOCK:
        return load_model(os.environ.get(MODELS_ENV, "").strip() or None)


def model_factory(spec: str) -> Callable[[], Any]:
    """The callable a ``module:function`` spec names (raises ModelMissing, saying why, when it can't be had)."""
    from vision.errors import ModelMissing

    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ModelMissing(f"{MODEL_ENV}={spec!r}: expected 'module:function'")
    try:
        factory = getattr(importlib.import_module(module_name), attr)
    except (ImportError, AttributeError) as exc:
        raise ModelMissing(f"{MODEL_ENV}={spec!r}: cannot be loaded ({exc})") from None
    if not callable(factory):
        raise ModelMissing(f"{MODEL_ENV}={spec!r}: {attr} is not callable")
    return factory


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
    """A copy at most ``max_side`` pixels on its longer side (the image itself if already small), shrunk as the
    model shrinks a photo it looks at (``vision.model.shrunk``), and the scale from the photo to the copy."""
    from vision.model import shrunk

    small, _ = shrunk(image.rgb, max_side)
    if small is image.rgb:
        return image, 1.0
    return Image(rgb=np.ascontiguousarray(small), path=image.path), max_side / max(image.rgb.shape[:2])


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


SELECT_COLOUR = (230, 0, 200)  # magenta: the tile the person tapped / where a tile will be added


def annotated(
    result: PhotoResult,
    reading: PhotoReading | None = None,
    selected: Box | None = None,
    pending: Box | None = None,
) -> np.ndarray:
    """The screen copy with ``reading`` (default: the photo's own) drawn on it (RGB); the tapped
    tile (``selected``) framed and the spot a tile will be added at (``pending``) marked with a
    ``+`` (both boxes in photo pixels)."""
    from vision.annotate import annotate

    picture = annotate(result.display, scaled_reading(reading or result.reading, result.scale))
    for box, plus in ((selected, False), (pending, True)):
        if box is not None:
            picture = _mark(picture, tuple(v * result.scale for v in box), plus)  # type: ignore[arg-type]
    return picture


def _mark(picture: np.ndarray, box: Box, plus: bool) -> np.ndarray:
    import cv2

    x1, y1, x2, y2 = (int(round(v)) for v in box)
    pad = max(3, (x2 - x1) // 8)
    width = max(3, min(picture.shape[:2]) // 150)
    out = np.ascontiguousarray(picture.copy())
    cv2.rectangle(out, (x1 - pad, y1 - pad), (x2 + pad, y2 + pad), SELECT_COLOUR, width)
    if plus:
        cx, cy, arm = (x1 + x2) // 2, (y1 + y2) // 2, max(4, (x2 - x1) // 3)
        cv2.line(out, (cx - arm, cy), (cx + arm, cy), SELECT_COLOUR, width)
        cv2.line(out, (cx, cy - arm), (cx, cy + arm), SELECT_COLOUR, width)
    return out
