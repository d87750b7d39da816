"""Reading time per photo with the committed model, after it is loaded (median of several runs),
for 1000x750 photos and for 4000x3000 phone photos, with every reader switched on (detector,
classifier and the number recogniser where it is installed) and, with ``--both``, also with the
classifier alone. Prints the ratio to the targets (400 ms for 1000x750, 1 s for 4000x3000) and the
machine's load, since the timings depend on it; the mean and the slowest photo show the pauses a median
hides (a photo that waits for an import or for the garbage collector).

Only photos of the sizes' 4:3 shape (either way up) are timed: another shape would be distorted by the resizing.
The targets are for a table of about 40 tiles: ``--min-tiles 35`` keeps only photos whose labels
(``labels/`` beside ``images/``) list at least that many tiles, e.g. the synthetic renders in
``data/final/synth/images/test`` and ``.../unseen`` (several ``--photos`` folders may be given).
``--stages`` also prints the time per stage (detect, classify, OCR plan / cut / inference /
decoding, fusion, consistent reading); ``--profile N`` prints cProfile's N costliest functions.

``--plain`` times the reader without its speed-ups (classifier through ultralytics/torch, the
recogniser as shipped on one thread), for a before/after on the same machine.

    .venv/bin/python bench/bench_read.py [--photos DIR ...] [--n 10] [--min-tiles 35] [--both] [--stages] [--plain]
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import cProfile
import functools
import os
import pstats
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import cv2  # noqa: E402
import numpy as np  # noqa: E402

from vision.model import load_model  # noqa: E402
from vision.reader import Reader  # noqa: E402
from vision.types import Image  # noqa: E402
from vision.yolo_format import label_path, list_images  # noqa: E402

TARGET_MS = {"1000x750": 400.0, "4000x3000": 1000.0}
FRAME = 4 / 3  # the timed sizes' long side / short side
DEFAULT_PHOTOS = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "real" / "images"


def labelled_tiles(photo: Path) -> int | None:
    """How many tiles the photo's label file lists (None without one)."""
    label = label_path(photo)
    if not label.is_file():
        return None
    return sum(1 for line in label.read_text().splitlines() if line.strip())


def frame_of(photo: Path) -> bool:
    """Is the photo of the timed sizes' shape, 4:3 either way up? Resized to them, a photo of another shape
    would be distorted, its tiles squashed or stretched: a tile squashed flat reads as a table seen from low
    down, and is read twice (``vision.lowview``)."""
    h, w = cv2.imread(str(photo), cv2.IMREAD_REDUCED_GRAYSCALE_8).shape[:2]
    return abs(max(w, h) / min(w, h) - FRAME) <= 0.02 * FRAME


def pick_photos(folders: list[str], n: int, min_tiles: int) -> list[Path]:
    """The first ``n`` photos of ``folders`` in the timed sizes' shape with at least ``min_tiles`` labelled."""
    files: list[Path] = []
    for folder in folders:
        for f in list_images(Path(folder)):
            if min_tiles and (labelled_tiles(f) or 0) < min_tiles:
                continue
            if frame_of(f):
                files.append(f)
    return files[:n]


class StageTimer:
    """Wall time per stage, by wrapping the stages' functions for the duration of the bench."""

    def __init__(self) -> None:
        self.ms: dict[str, float] = collections.defaultdict(float)
        self._undo: list = []

    def wrap(self, owner, attr: str, stage: str) -> None:
        original = getattr(owner, attr)

        @functools.wraps(original)
        def timed(*a, **k):
            t = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                self.ms[stage] += (time.perf_counter() - t) * 1000

        setattr(owner, attr, timed)
        self._undo.append((owner, attr, original))

    def restore(self) -> None:
        for owner, attr, original in reversed(self._undo):
            setattr(owner, attr, original)
        self._undo.clear()


def stage_timer(reader: Reader) -> StageTimer:
    import vision.ink as ink
    import vision.ocr as ocr
    import vision.reader as reader_module

    timer = StageTimer()
    model = reader.model
    timer.wrap(model, "detect", "detect")
    timer.wrap(model, "classify", "classify (all turns)")
    timer.wrap(reader_module, "fuse", "fusion")
    timer.wrap(reader_module, "disagreement", "fusion")
    timer.wrap(reader_module, "colour_disagreement", "fusion")
    timer.wrap(reader_module, "ink_likelihood", "fusion")
    timer.wrap(reader_module, "read_consistently", "consistent")
    timer.wrap(reader.ink_reader, "read", "ink colour")
    if reader.uses_ocr:
        timer.wrap(reader.number_reader, "read", "ocr total")
        timer.wrap(ocr.NumberReader, "plan", "ocr plan (tilt, ink)")
        timer.wrap(ocr, "face_warp", "ocr warps (incl. those in plan)")
        timer.wrap(ocr, "cut", "ocr warps (incl. those in plan)")
        timer.wrap(ocr, "to_batch", "ocr batch prep")
        timer.wrap(ocr.NumberReader, "recognise", "ocr recognise (incl. batch prep)")
        timer.wrap(ocr, "number_probs", "ocr CTC decoding")
    return timer


def photo(f: Path, size: tuple[int, int]) -> np.ndarray:
    rgb = cv2.cvtColor(cv2.imread(str(f)), cv2.COLOR_BGR2RGB)
    h, w = rgb.shape[:2]
    target = size if w >= h else size[::-1]
    return np.ascontiguousarray(cv2.resize(rgb, target, interpolation=cv2.INTER_CUBIC))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--photos", nargs="+", default=[str(DEFAULT_PHOTOS)], help="one or more folders of photos")
    ap.add_argument("--n", type=int, default=10)
    ap.add_argument("--min-tiles", type=int, default=0, help="only photos whose labels list at least this many tiles")
    ap.add_argument("--both", action="store_true", help="also time the classifier alone (no recogniser)")
    ap.add_argument("--stages", action="store_true", help="print the time per stage")
    ap.add_argument("--profile", type=int, default=0, metavar="N", help="print cProfile's N costliest functions")
    ap.add_argument(
        "--plain", action="store_true",
        help="without the speed-ups, for comparison: classifier in torch, recogniser as shipped on one thread",
    )
    ap.add_argument("--sizes", nargs="+", default=list(TARGET_MS), choices=list(TARGET_MS))
    args = ap.parse_args()
    files = pick_photos(args.photos, args.n, args.min_tiles)
    if not files:
        sys.exit(f"no photos in {' '.join(args.photos)}" + (f" with >= {args.min_tiles} labelled tiles" if args.min_tiles else ""))
    labelled = [labelled_tiles(f) for f in files]
    if all(n is not None for n in labelled):
        print(f"{len(files)} photos, labelled tiles per photo: median {statistics.median(labelled):.0f} (min {min(labelled)}, max {max(labelled)})")
    model = load_model()
    if args.plain:
        import dataclasses

        model.settings = dataclasses.replace(model.settings, cls_onnx=False)
        model._fast = None
    modes = [None, False] if args.both else [None]
    for ocr in modes:
        reader = Reader(model, ocr=ocr)
        if args.plain and ocr is None and reader.uses_ocr:
            from vision.ocr import NumberReader, OcrSettings

            reader._numbers = NumberReader(settings=OcrSettings(threads=1))
        reader.read(Image(cv2.cvtColor(cv2.imread(str(files[0])), cv2.COLOR_BGR2RGB)))  # warm-up (loads the recogniser)
        name = "every reader" if reader.uses_ocr else "classifier alone"
        for label in args.sizes:
            size = tuple(int(v) for v in label.split("x"))
            photos = [photo(f, size) for f in files]
            reader.read(Image(photos[0]))  # warm-up at this size
            timer = stage_timer(reader) if args.stages else None
            profiler = cProfile.Profile() if args.profile else None
            times, tiles = [], []
            with contextlib.ExitStack() as stack:
                if timer:
                    stack.callback(timer.restore)
                for rgb in photos:
                    if profiler:
                        profiler.enable()
                    t = time.perf_counter()
                    reading = reader.read(Image(rgb))
                    times.append((time.perf_counter() - t) * 1000)
                    if profiler:
                        profiler.disable()
                    tiles.append(len(reading.tiles))
            med, target_ms = statistics.median(times), TARGET_MS[label]
            print(
                f"{name:<16} {label:>9}: median {med:6.0f} ms over {len(times)} photos, {statistics.median(tiles):.0f} tiles "
                f"each  ({med / target_ms:.2f}x the {target_ms:.0f} ms target)  load {os.getloadavg()[0]:.1f}"
            )
            print(f"{'':16} {'':>9}  mean {statistics.mean(times):.0f} ms, slowest {max(times):.0f} ms")
            print(f"{'':16} {'':>9}  tiles read per photo: {' '.join(str(n) for n in tiles)}")
            if timer:
                for stage, ms in sorted(timer.ms.items(), key=lambda kv: -kv[1]):
                    print(f"{'':16} {'':>9}  {stage:<34} {ms / len(times):7.1f} ms/photo")
            if profiler:
                pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)


if __name__ == "__main__":
    main()
