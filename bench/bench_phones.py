"""The reader on the same photos as other phones, other light and other apps would hand them over.

Each photo of a labelled set is changed the way a photo from elsewhere differs from ours, then read with the
committed models exactly as ``rummi evaluate`` reads it (``vision.evaluate.evaluate_dataset``):

- ``jpeg``: saved again at JPEG quality 30 (a photo passed on by a messaging app);
- ``small``: shrunk to 800 px on its long side (an old phone, a forwarded photo);
- ``dark``: a room lit dimly: a third of the light, and the sensor noise that comes with it;
- ``blur``: out of focus (a disc 3 px across per 1000 px of photo);
- ``shake``: the phone moved while it took the photo (a streak 8 px long per 1000 px of photo, any way);
- ``warm``: a lamp's yellow light the phone did not balance (red up, blue down);
- ``cold``: a shaded window's blue light the phone did not balance;
- ``vivid``: a phone's "vivid" look: colours pushed and edges sharpened;
- ``mono``: a phone's black-and-white filter (each pixel its luma): no tile's colour can be read, and none may be
  shown as sure;
- ``sepia``: a phone's sepia filter (each pixel a shade of one brown, the lightest clipped to cream): the same;
- ``faded``: a phone's faded look, the colours' saturation cut to an eighth: faint, and read as no colour;
- ``slant``, ``steep``: the table seen from lower down (``Slant``): the photo warped as its plane would look to a
  camera lower over it, the far side narrower than the near one and everything shorter, the labels warped with it
  (the near corners fall outside the photo, and their tiles with them);
- ``quarter``, ``half``, ``three``: the photo turned a quarter, a half or three quarters clockwise (``Turn``), as a
  phone held flat over the table saves it when it guessed its own way up wrong, or an app that drops the photo's
  orientation tag hands it over; the labels turned with it;
- ``mirror``: the photo mirrored left to right (``Mirror``), as a front camera that saves what its screen showed
  hands it over; the labels mirrored with it.

For each it prints the share of tiles found, read exactly, and shown as sure, the sure tiles read wrong, the
readings shown as sure on a box that matches no labelled tile (``EvalReport.sure_on_no_tile``: sure but wrong never
counts them, and under a steep view of a rack most are one digit of a 10-13 boxed alone and read as a number of its
own), and what share of the errors were flagged, each beside its ratio to the unchanged photos. The renders' own camera
(``datasets.synth.photo``) draws milder versions of some of these; the changes here go further on purpose.

    .venv/bin/python bench/bench_phones.py DATASET [--split SPLIT] [--rack] [--limit N] [--only warm,slant] [--models DIR]

e.g. ``RUN/real --split heldout`` (measure only: never choose by the held-out photos) or ``RUN/synth --split
calib``.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402
from tqdm import tqdm  # noqa: E402

from vision.evaluate import EvalReport, evaluate_dataset, open_dataset  # noqa: E402
from vision.load import load_image  # noqa: E402
from vision.mirror import mirrored  # noqa: E402
from vision.turn import turned  # noqa: E402
from vision.types import Image  # noqa: E402
from vision.yolo_format import LabelledTile, label_line, read_label_file, read_labels  # noqa: E402

Change = Callable[[np.ndarray, np.random.Generator], np.ndarray]
TilesChange = Callable[[np.ndarray, Sequence[LabelledTile]], np.ndarray]


def _jpeg(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 30])
    return cv2.cvtColor(cv2.imdecode(data, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def _small(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    scale = 800 / max(rgb.shape[:2])
    if scale >= 1:
        return rgb
    return cv2.resize(rgb, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)


def _linear(rgb: np.ndarray) -> np.ndarray:
    """The photo's light (0-1), undoing the phone's tone curve (a 2.2 gamma)."""
    return (rgb.astype(np.float32) / 255.0) ** 2.2


def _photo(linear: np.ndarray) -> np.ndarray:
    """Light (0-1, clipped) back through the tone curve to a uint8 photo."""
    return (np.clip(linear, 0.0, 1.0) ** (1 / 2.2) * 255.0 + 0.5).astype(np.uint8)


def _dark(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    # a third of the light, brightened back by the phone: its noise is brightened with it
    noisy = _linear(rgb) / 3.0 + rng.normal(0.0, 0.004, rgb.shape).astype(np.float32) + rng.normal(0.0, 0.003, rgb.shape[:2] + (1,)).astype(np.float32)
    return _photo(noisy * 3.0)


def _blur(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    radius = max(1, round(1.5 * max(rgb.shape[:2]) / 1000))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1)).astype(np.float32)
    return cv2.filter2D(rgb, -1, disc / disc.sum())


def _shake(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    length = max(3, round(8 * max(rgb.shape[:2]) / 1000)) | 1
    streak = np.zeros((length, length), np.float32)
    streak[length // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D(((length - 1) / 2, (length - 1) / 2), float(rng.uniform(0.0, 180.0)), 1.0)
    streak = cv2.warpAffine(streak, turn, (length, length))
    return cv2.filter2D(rgb, -1, streak / streak.sum())


def _gains(gains: tuple[float, float, float]) -> Change:
    def change(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        # the light's colour applies to the light, before the phone's tone curve
        return _photo(_linear(rgb) * np.array(gains, np.float32))

    return change


def _vivid(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV).astype(np.float32)
    hsv[..., 1] = np.clip(hsv[..., 1] * 1.4, 0, 255)
    vivid = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2RGB)
    soft = cv2.GaussianBlur(vivid, (0, 0), 1.5)
    return cv2.addWeighted(vivid, 1.8, soft, -0.8, 0)


def _mono(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return cv2.cvtColor(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), cv2.COLOR_GRAY2RGB)


# the usual sepia filter: each channel out of all three, in nearly one proportion (one brown), clipped at white
SEPIA = np.array([[0.393, 0.769, 0.189], [0.349, 0.686, 0.168], [0.272, 0.534, 0.131]], np.float32)


def _sepia(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return np.clip(rgb.astype(np.float32) @ SEPIA.T, 0.0, 255.0).astype(np.uint8)


def _faded(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    hsv = cv2.cvtColor(rgb, cv2.COLOR_RGB2HSV)
    hsv[..., 1] = (hsv[..., 1].astype(np.float32) / 8.0 + 0.5).astype(np.uint8)
    return cv2.cvtColor(hsv, cv2.COLOR_HSV2RGB)


def as_taken(rgb: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """No change (for a copy that only warps, ``VIEWS``, or changes tiles, ``bench_editions``)."""
    return rgb


CHANGES: dict[str, Change] = {
    "jpeg": _jpeg,
    "small": _small,
    "dark": _dark,
    "blur": _blur,
    "shake": _shake,
    "warm": _gains((1.3, 1.0, 0.6)),
    "cold": _gains((0.8, 1.0, 1.35)),
    "vivid": _vivid,
    "mono": _mono,
    "sepia": _sepia,
    "faded": _faded,
}


@dataclass(frozen=True)
class Slant:
    """The photo as a camera lower over the table would see it, a perspective warp of the table's plane: the far
    (top) side ``top`` times as wide as the near one, relative to the photo, and the whole ``height`` as tall. The
    photo's trapezoid whose foot is ``top`` as wide as its top fills the changed photo, so that every pixel is the
    photo's own (the near corners fall outside). The labels are warped with it (each box round its warped corners);
    a tile less than ``KEEP`` inside the changed photo loses its label."""

    top: float
    height: float

    def matrix(self, width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        """The warp (photo to changed photo) and the changed photo's size (width, height)."""
        inset = (1.0 - self.top) / 2.0 * width
        out_h = max(1, round(height * self.height))
        src = np.float32([[0, 0], [width, 0], [width - inset, height], [inset, height]])
        dst = np.float32([[0, 0], [width, 0], [width, out_h], [0, out_h]])
        return cv2.getPerspectiveTransform(src, dst), (width, out_h)

    def warp(self, rgb: np.ndarray) -> np.ndarray:
        h, w = rgb.shape[:2]
        m, size = self.matrix(w, h)
        return cv2.warpPerspective(rgb, m, size, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


@dataclass(frozen=True)
class Turn:
    """The photo turned ``quarters`` quarter turns clockwise, pixel for pixel; the labels turned with it."""

    quarters: int

    def matrix(self, width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        """The turn (photo to turned photo, in the photo's continuous coordinates) and the turned photo's size."""
        q = self.quarters % 4
        m = {0: [[1, 0, 0], [0, 1, 0]],
             1: [[0, -1, height], [1, 0, 0]],
             2: [[-1, 0, width], [0, -1, height]],
             3: [[0, 1, 0], [-1, 0, width]]}[q]
        size = (width, height) if q % 2 == 0 else (height, width)
        return np.array(m + [[0, 0, 1]], np.float64), size

    def warp(self, rgb: np.ndarray) -> np.ndarray:
        return turned(Image(rgb), self.quarters).rgb


@dataclass(frozen=True)
class Mirror:
    """The photo mirrored left to right, pixel for pixel; the labels mirrored with it."""

    def matrix(self, width: int, height: int) -> tuple[np.ndarray, tuple[int, int]]:
        """The mirroring (photo to mirrored photo, in the photo's continuous coordinates) and the photo's size."""
        return np.array([[-1, 0, width], [0, 1, 0], [0, 0, 1]], np.float64), (width, height)

    def warp(self, rgb: np.ndarray) -> np.ndarray:
        return mirrored(Image(rgb)).rgb


View = Slant | Turn | Mirror

KEEP = 0.6  # a warped label box this much inside the changed photo stays labelled (clipped to it)


VIEWS: dict[str, View] = {
    "slant": Slant(top=0.75, height=0.8),  # a table seen from a chair rather than from above
    "steep": Slant(top=0.55, height=0.6),  # from the table's edge, low
    "quarter": Turn(1),
    "half": Turn(2),
    "three": Turn(3),
    "mirror": Mirror(),
}


def _warped_labels(label_path: Path, m: np.ndarray, width: int, height: int, size: tuple[int, int]) -> str:
    """The label file's boxes (of a ``width`` x ``height`` photo) warped by ``m``, for a photo of ``size``."""
    lines = []
    for _, cls, (x1, y1, x2, y2) in read_label_file(label_path):
        corners = np.float32([[[x1 * width, y1 * height], [x2 * width, y1 * height],
                               [x2 * width, y2 * height], [x1 * width, y2 * height]]])
        warped = cv2.perspectiveTransform(corners, m)[0]
        (x1, y1), (x2, y2) = warped.min(0), warped.max(0)
        cx1, cy1, cx2, cy2 = max(x1, 0.0), max(y1, 0.0), min(x2, float(size[0])), min(y2, float(size[1]))
        if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < KEEP * (x2 - x1) * (y2 - y1):
            continue
        lines.append(label_line(cls, (cx1, cy1, cx2, cy2), size[0], size[1]) + "\n")
    return "".join(lines)


def changed_copy(dataset: str, split: str, change: Change, out: Path, limit: int | None, seed: int = 0,
                 tiles_change: TilesChange | None = None, view: View | None = None) -> Path:
    """``out`` as a dataset holding the split's photos, each changed (seeded per photo), beside their labels.

    tiles_change: a change that needs the photo's labelled tiles (``bench_editions``), made first; view: a warp of
    the photo and its labels (``VIEWS``), made last."""
    source = open_dataset(dataset, split)
    photos = source.photos[:limit] if limit is not None else source.photos
    (out / "images" / split).mkdir(parents=True)
    (out / "labels" / split).mkdir(parents=True)
    names = "\n".join(f"  {k}: {code}" for k, code in enumerate(source.names))
    (out / "data.yaml").write_text(f"path: .\n{split}: images/{split}\nnames:\n{names}\n")
    for k, (image_path, label_path) in enumerate(photos):
        rgb = load_image(image_path).rgb  # EXIF turned, as the reader sees it
        if tiles_change is not None:
            h, w = rgb.shape[:2]
            rgb = tiles_change(rgb, read_labels(label_path, source.names, w, h) if label_path.is_file() else [])
        rgb = change(rgb, np.random.default_rng(seed + k))
        labels = out / "labels" / split / f"{image_path.stem}.txt"
        if view is not None:
            h, w = rgb.shape[:2]
            m, size = view.matrix(w, h)
            rgb = view.warp(rgb)
            if label_path.is_file():
                labels.write_text(_warped_labels(label_path, m, w, h, size))
        elif label_path.is_file():
            shutil.copy(label_path, labels)
        cv2.imwrite(str(out / "images" / split / f"{image_path.stem}.png"), cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR))
    return out


def row(name: str, r: EvalReport, base: EvalReport | None) -> str:
    def share(part: int, whole: int) -> float:
        return part / whole if whole else 0.0

    found, exact, sure = share(r.matched, r.labelled), share(r.exact, r.labelled), share(r.sure, r.matched)
    flagged = share(r.wrong_flagged, r.wrong) if r.wrong else 1.0
    cells = [f"{name:<6}", f"{100 * found:6.1f}%", f"{100 * exact:6.1f}%", f"{100 * sure:6.1f}%",
             f"{r.sure_wrong:5d} ({100 * share(r.sure_wrong, r.sure):4.1f}%)", f"{r.sure_on_no_tile:8d}",
             f"{100 * flagged:6.1f}%"]
    if base is not None:
        b_found, b_exact, b_sure = (share(base.matched, base.labelled), share(base.exact, base.labelled),
                                    share(base.sure, base.matched))
        cells.append(f"{found / b_found if b_found else 0:5.2f} {exact / b_exact if b_exact else 0:5.2f} "
                     f"{sure / b_sure if b_sure else 0:5.2f}")
    return "  ".join(cells)


def bench_args(description: str, known: Sequence[str], kind: str) -> tuple[argparse.Namespace, list[str]]:
    """The command line shared by this bench and ``bench_editions``, and the ``known`` changes asked for (--only);
    exits naming any unknown one."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("dataset")
    ap.add_argument("--split", default="val")
    ap.add_argument("--rack", action="store_true", help="read each photo as a rack")
    ap.add_argument("--limit", type=int, default=None, help="the first N photos only")
    ap.add_argument("--only", default="", help=f"comma-separated {kind}s (default: all): " + ", ".join(known))
    ap.add_argument("--models", default=None, help="models folder (default: the committed models/)")
    args = ap.parse_args()
    wanted = [c for c in args.only.split(",") if c] or list(known)
    unknown = [c for c in wanted if c not in known]
    if unknown:
        sys.exit(f"unknown {kind} {', '.join(unknown)}: use {', '.join(known)}")
    return args, wanted


def run_bench(args: argparse.Namespace, wanted: Sequence[str], header: str,
              line: Callable[[str, EvalReport, EvalReport | None], str], copy: Callable[[str, Path], Path]) -> None:
    """Read the set as it is, then each change of ``wanted`` (``copy(name, folder)`` writes the changed set), and
    print a ``line`` for each below ``header``."""
    from vision.reader import Reader

    reader = Reader(models_dir=args.models)
    print(f"{args.dataset} ({args.split}){', each photo as a rack' if args.rack else ''}")
    print(header)
    base = evaluate_dataset(args.dataset, reader, limit=args.limit, progress=False, split=args.split, rack=args.rack)
    print(line("as is", base, None), flush=True)
    for name in tqdm(wanted, desc="changes", unit="change", leave=False):
        with tempfile.TemporaryDirectory(prefix=f"bench_{name}_") as tmp:
            report = evaluate_dataset(copy(name, Path(tmp)), reader, progress=False, split=args.split, rack=args.rack)
        tqdm.write(line(name, report, base))


def main() -> None:
    args, wanted = bench_args(__doc__.splitlines()[0], [*CHANGES, *VIEWS], "change")

    def copy(name: str, folder: Path) -> Path:
        change, view = (CHANGES[name], None) if name in CHANGES else (as_taken, VIEWS[name])
        return changed_copy(args.dataset, args.split, change, folder, args.limit, view=view)

    header = (f"{'':<6}  {'found':>7}  {'exact':>7}  {'sure':>7}  {'sure, wrong':>12}  {'no tile':>8}  {'flagged':>7}  "
              "ratio found exact sure")
    run_bench(args, wanted, header, row, copy)


if __name__ == "__main__":
    main()
