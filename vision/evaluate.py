"""How well does the reader read? Measured on a labelled photo set in YOLO format.

A dataset is a folder with ``data.yaml`` (ultralytics style: ``path``, ``train``/``val``/``test``
entries that are folders of images, ``.txt`` lists of image paths, or lists of either, and
``names``), or a plain folder with ``images/`` and ``labels/`` (optionally ``images/<split>/``).
A photo's labels are the ``.txt`` file at the same place under ``labels/`` (one
``class x_centre y_centre width height`` line per tile, normalised; a polygon line is reduced to
its box); a photo without one has no tiles.

Class names may be tile codes (``K1``..``O13``, ``J``, the Twist jokers ``JD`` ``JM`` ``JC``) or
names such as ``black_1``, ``red_13``, ``joker`` (the real dev set; its ``classes.json`` is used
when present). A plain folder without ``data.yaml`` uses ``classes.txt`` if there is one, else the
reader's class order (``vision.yolo_format.CLASS_NAMES``).

Metrics: detection recall and precision (a read tile matches a labelled one at IoU >= 0.5,
greedily, best overlap first); exact-read accuracy over all labelled tiles (number, colour and
joker all right; a missed tile counts as wrong); number-only and colour-only accuracy over the
matched tiles (a joker of any kind has no number and no colour: it is right only as that joker);
the most frequent confusions; time per photo. And whether the reader's doubt can be
trusted: the sure-but-wrong rate (of the matched tiles not flagged doubtful, the share read wrong)
and the errors flagged (of the matched tiles read wrong, the share flagged doubtful).

A photo whose labels hold a Twist joker is read with the Twist rule on, as a family with that
edition reads it (the rule is theirs to set); every other photo with the reader's own rules.
"""

from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Protocol, Sequence

import numpy as np

from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import TWIST_CODES
from vision.errors import ImageError
from vision.load import load_image
from vision.metrics import match as match_tiles
from vision.types import Image, PhotoReading
from vision.yolo_format import CLASS_NAMES, DatasetError, class_code, label_path, list_images, read_data_yaml, read_labels, split_images

IOU_MATCH = 0.5
LOOSE_IOU = 0.3  # a box overlapping a labelled tile this much, and no other box overlapping it by IOU_MATCH, is on it


class PhotoReader(Protocol):
    def read(self, image: Image, rack: bool = False) -> PhotoReading: ...


def edition_rules(reader: PhotoReader, codes: Iterable[str | None]) -> HouseRules | None:
    """The rules a family reads a photo of these labelled codes with: for the Twist edition (a Twist joker
    among them) the reader's own with the Twist rule on; otherwise None, the reader's own as they are."""
    if not any(code in TWIST_CODES for code in codes if code is not None):
        return None
    return getattr(reader, "rules", DEFAULT_RULES).with_(twist=True)


@dataclass
class EvalReport:
    """The numbers ``rummi evaluate`` prints (fractions in 0-1)."""

    dataset: str
    split: str
    photos: int  # photos read
    labelled: int  # labelled tiles
    detected: int  # tiles the reader found
    matched: int  # found tiles that match a labelled one (IoU >= 0.5)
    exact: int  # labelled tiles read exactly right
    number_right: int  # matched tiles with the right number (joker read as joker counts)
    colour_right: int  # matched tiles with the right colour (joker read as joker counts)
    recall: float
    precision: float
    exact_accuracy: float  # exact / labelled: a missed tile counts as wrong
    number_accuracy: float  # over matched tiles
    colour_accuracy: float  # over matched tiles
    confusions: list[tuple[str, str, int]] = field(default_factory=list)  # (true, read, count)
    ms_median: float = 0.0
    ms_p90: float = 0.0
    failed: list[str] = field(default_factory=list)  # photos that could not be loaded, with why
    sure: int = 0  # matched tiles not flagged doubtful
    sure_wrong: int = 0  # ... of them read wrong
    wrong: int = 0  # matched tiles read wrong
    wrong_flagged: int = 0  # ... of them flagged doubtful
    sure_wrong_rate: float | None = None  # sure_wrong / sure (None: no sure tile)
    errors_flagged: float | None = None  # wrong_flagged / wrong (None: nothing read wrong)
    ocr: bool | None = None  # the number recogniser was used (None: the reader does not say)
    # tiles read where no labelled tile is (a box on a digit, a hand, half of two tiles), shown as sure: a sure
    # reading of a tile that is not there is as wrong as a sure misread
    sure_on_no_tile: int = 0
    # ... of them, boxes on a labelled tile that no other box found, only loosely (IoU under IOU_MATCH, at least
    # LOOSE_IOU), read as that tile: a right reading, boxed too tight or too wide; the rest are as wrong as a sure
    # misread (a half, a tile found twice, a hand)
    sure_on_own_tile: int = 0
    # ... and those lying only loosely on a labelled tile that no other box found, read as another tile: a sure misread
    # whose box is too tight or too wide to be matched (counted in sure_on_no_tile, not in sure_wrong)
    sure_misread_loosely: int = 0
    rack: bool = False  # every photo read as a rack (tiles in rack order, no melds), as the app reads a rack photo

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["confusions"] = [{"true": t, "read": r, "count": n} for t, r, n in self.confusions]
        for key in ("recall", "precision", "exact_accuracy", "number_accuracy", "colour_accuracy", "sure_wrong_rate", "errors_flagged"):
            out[key] = None if out[key] is None else round(out[key], 4)
        out["ms_median"] = round(self.ms_median, 1)
        out["ms_p90"] = round(self.ms_p90, 1)
        return out

    def format(self) -> str:
        def pct(part: int, whole: int) -> str:
            return f"{100.0 * part / whole:5.1f}%" if whole else "    -"

        readers = {None: "", True: " with the number recogniser", False: " with the classifier alone"}[self.ocr]
        lines = [
            f"{self.dataset} ({self.split}): {self.photos} photos, {self.labelled} labelled tiles, "
            f"{self.detected} tiles read{readers}{', each photo as a rack' if self.rack else ''}",
            f"  tiles found (recall)       {pct(self.matched, self.labelled)}  "
            f"({self.matched} of {self.labelled} labelled tiles, IoU >= {IOU_MATCH})",
            f"  reads on a tile (precision){pct(self.matched, self.detected)}  "
            f"({self.matched} of {self.detected} tiles read)",
            f"  exact reads                {pct(self.exact, self.labelled)}  "
            f"({self.exact} of {self.labelled} labelled tiles; a missed tile counts as wrong)",
            f"  number right               {pct(self.number_right, self.matched)}  "
            f"(of the {self.matched} matched tiles)",
            f"  colour right               {pct(self.colour_right, self.matched)}  "
            f"(of the {self.matched} matched tiles)",
            f"  sure but wrong             {pct(self.sure_wrong, self.sure)}  "
            f"({self.sure_wrong} of the {self.sure} matched tiles shown as sure)",
            f"  errors flagged             {pct(self.wrong_flagged, self.wrong)}  "
            f"({self.wrong_flagged} of the {self.wrong} matched tiles read wrong were marked doubtful)",
            f"  read on no tile, as sure   {pct(self.sure_on_no_tile, self.detected - self.matched)}  "
            f"({self.sure_on_no_tile} of the {self.detected - self.matched} tiles read where no tile is labelled; "
            f"{self.sure_on_own_tile} of those loosely on a tile no other box found, read right, "
            f"{self.sure_misread_loosely} read wrong)",
            f"  time per photo             median {self.ms_median:.0f} ms, p90 {self.ms_p90:.0f} ms",
        ]
        if self.confusions:
            lines.append("  most frequent confusions (true -> read):")
            lines += [f"    {t:>3} -> {r:<3} {n}" for t, r, n in self.confusions]
        if self.failed:
            lines.append(f"  {len(self.failed)} photos could not be read:")
            lines += [f"    {f}" for f in self.failed]
        return "\n".join(lines)


# --------------------------------------------------------------------------- the dataset


@dataclass
class Dataset:
    root: Path
    split: str
    photos: list[tuple[Path, Path]]  # (image, labels file - may not exist)
    names: list[str]  # class index -> tile code


def open_dataset(path: str | Path, split: str = "val") -> Dataset:
    """Find the photos of ``split`` and the class names of a YOLO-format dataset."""
    path = Path(path)
    if not path.exists():
        raise DatasetError(f"{path}: no such dataset folder")
    yaml_file = path if path.is_file() else path / "data.yaml"
    folder = yaml_file.parent if path.is_file() else path
    classes_json = _read_classes_json(folder)
    if yaml_file.is_file():
        spec = read_data_yaml(yaml_file)
        images, names = split_images(spec, split), spec.names
    else:
        images, names = _from_folder(folder, split)
    if names is None:
        names = CLASS_NAMES
    codes = [class_code(n, classes_json.get(n)) for n in names]
    images = sorted(dict.fromkeys(images))
    if not images:
        raise DatasetError(f"{path}: no photos found for split {split!r}")
    return Dataset(root=folder, split=split, photos=[(p, label_path(p)) for p in images], names=codes)


def _read_classes_json(folder: Path) -> dict[str, dict[str, Any]]:
    f = folder / "classes.json"
    if not f.is_file():
        return {}
    try:
        data = json.loads(f.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise DatasetError(f"{f}: cannot be read ({exc})") from None
    return {str(k): v for k, v in data.items() if isinstance(v, dict)} if isinstance(data, dict) else {}


def _from_folder(folder: Path, split: str) -> tuple[list[Path], tuple[str, ...] | None]:
    images_dir = folder / "images"
    if (images_dir / split).is_dir():
        images_dir = images_dir / split
    elif not images_dir.is_dir():
        raise DatasetError(f"{folder}: expected a data.yaml or an images/ folder")
    names_file = folder / "classes.txt"
    names = tuple(n.strip() for n in names_file.read_text().splitlines() if n.strip()) if names_file.is_file() else None
    return list_images(images_dir), names


# --------------------------------------------------------------------------- matching and scoring


def _is_joker(code: str) -> bool:
    return code.startswith("J")


def same_number(a: str, b: str) -> bool:
    """Whether a tile read as ``b`` has the number of ``a`` as the scores count it: the same number, or the same kind of joker."""
    return a == b if _is_joker(a) or _is_joker(b) else a[1:] == b[1:]


def _same_colour(a: str, b: str) -> bool:
    return a == b if _is_joker(a) or _is_joker(b) else a[0] == b[0]


def loosely_on_own_tile(truth: Sequence[Any], found: Sequence[Any], pairs: Iterable[tuple[int, int]]) -> list[int]:
    """The found tiles (indices) matched to no labelled tile that lie only loosely (IoU ``LOOSE_IOU`` or more) on
    one that no found tile matched, and are read as its code. The tiles and boxes left over are matched as
    ``match_tiles`` matches, at ``LOOSE_IOU``: each labelled tile goes with its nearest such box, read right or
    not. ``truth`` and ``found`` have ``box`` and ``code``; ``pairs`` is ``match_tiles``'s."""
    return sorted(j for i, j in _loose_pairs(truth, found, pairs) if found[j].code == truth[i].code)


def loosely_misread(truth: Sequence[Any], found: Sequence[Any], pairs: Iterable[tuple[int, int]]) -> list[int]:
    """The found tiles (indices) that lie so on a tile of their own (``loosely_on_own_tile``) but are read as another
    code: a misread whose box is too tight or too wide to be matched."""
    return sorted(j for i, j in _loose_pairs(truth, found, pairs) if found[j].code != truth[i].code)


def _loose_pairs(truth: Sequence[Any], found: Sequence[Any], pairs: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """(labelled, found) index pairs of the tiles and boxes ``pairs`` left over, matched at ``LOOSE_IOU``."""
    pairs = list(pairs)
    taken_truth, taken_found = {i for i, _ in pairs}, {j for _, j in pairs}
    free_truth = [i for i in range(len(truth)) if i not in taken_truth]
    free_found = [j for j in range(len(found)) if j not in taken_found]
    if not free_truth or not free_found:
        return []
    loose = match_tiles([truth[i].box for i in free_truth], [found[j].box for j in free_found], iou=LOOSE_IOU)
    return [(free_truth[a], free_found[b]) for a, b in loose]


def evaluate_dataset(
    path: str | Path,
    reader: PhotoReader,
    limit: int | None = None,
    progress: bool = True,
    split: str = "val",
    top_confusions: int = 10,
    rack: bool = False,
) -> EvalReport:
    """Read every photo of the split (the first ``limit`` by name) and compare with the labels; with ``rack``,
    each photo as a rack."""
    from tqdm import tqdm

    dataset = open_dataset(path, split)
    photos = dataset.photos[:limit] if limit is not None else dataset.photos
    labelled = detected = matched = exact = number_right = colour_right = 0
    sure = sure_wrong = wrong = wrong_flagged = sure_on_no_tile = sure_on_own_tile = sure_misread_loosely = 0
    confusions: Counter[tuple[str, str]] = Counter()
    times: list[float] = []
    failed: list[str] = []
    for image_path, label_path in tqdm(photos, desc="evaluating", unit="photo", disable=not progress):
        try:
            image = load_image(image_path)
        except ImageError as exc:
            failed.append(str(exc))
            continue
        truth = read_labels(label_path, dataset.names, image.width, image.height)
        start = time.perf_counter()
        rules = edition_rules(reader, (t.code for t in truth))
        reading = reader.read(image, rack=rack) if rules is None else reader.read(image, rack=rack, rules=rules)  # type: ignore[call-arg]
        elapsed = (time.perf_counter() - start) * 1000.0
        times.append(reading.ms if reading.ms > 0 else elapsed)
        found = reading.tiles
        labelled += len(truth)
        detected += len(found)
        pairs = match_tiles([t.box for t in truth], [t.box for t in found])
        on_tile = {j for _, j in pairs}
        sure_on_no_tile += sum(not t.doubtful for j, t in enumerate(found) if j not in on_tile)
        sure_on_own_tile += sum(not found[j].doubtful for j in loosely_on_own_tile(truth, found, pairs))
        sure_misread_loosely += sum(not found[j].doubtful for j in loosely_misread(truth, found, pairs))
        for i, j in pairs:
            matched += 1
            true_code, read_code = truth[i].code, found[j].code
            exact += true_code == read_code
            number_right += same_number(true_code, read_code)
            colour_right += _same_colour(true_code, read_code)
            flagged = bool(found[j].doubtful)
            sure += not flagged
            if true_code != read_code:
                confusions[(true_code, read_code)] += 1
                wrong += 1
                wrong_flagged += flagged
                sure_wrong += not flagged
    order = {c: k for k, c in enumerate(CLASS_NAMES)}
    top = sorted(confusions.items(), key=lambda kv: (-kv[1], order.get(kv[0][0], 99), order.get(kv[0][1], 99)))
    return EvalReport(
        dataset=str(path),
        split=split,
        photos=len(times),
        labelled=labelled,
        detected=detected,
        matched=matched,
        exact=exact,
        number_right=number_right,
        colour_right=colour_right,
        recall=matched / labelled if labelled else 0.0,
        precision=matched / detected if detected else 0.0,
        exact_accuracy=exact / labelled if labelled else 0.0,
        number_accuracy=number_right / matched if matched else 0.0,
        colour_accuracy=colour_right / matched if matched else 0.0,
        confusions=[(t, r, n) for (t, r), n in top[:top_confusions]],
        ms_median=float(np.median(times)) if times else 0.0,
        ms_p90=float(np.percentile(times, 90)) if times else 0.0,
        failed=failed,
        sure=sure,
        sure_wrong=sure_wrong,
        wrong=wrong,
        wrong_flagged=wrong_flagged,
        sure_wrong_rate=sure_wrong / sure if sure else None,
        errors_flagged=wrong_flagged / wrong if wrong else None,
        ocr=getattr(reader, "uses_ocr", None),
        sure_on_no_tile=sure_on_no_tile,
        sure_on_own_tile=sure_on_own_tile,
        sure_misread_loosely=sure_misread_loosely,
        rack=rack,
    )
