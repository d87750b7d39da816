"""The YOLO dataset format, in one place: ``data.yaml``, label lines, image lists, class names and
which files are photos.

Everything that writes a dataset (the renders, the real photos' export, the training steps) and
everything that reads one (``rummi evaluate``, the training checks) goes through this module, so
the format has one owner. It lives in ``vision/`` because evaluation reads labelled sets; the
writers in ``datasets/`` and ``training/`` sit above it.

The format is ultralytics': a ``data.yaml`` with ``path`` (a folder the entries are relative to),
``train``/``val``/``test`` (and here ``heldout``) entries that are folders of images, ``.txt`` lists
of image paths, or lists of either, and ``names`` (class index -> name). A photo's labels are the
``.txt`` file at the same place under the last ``labels/`` folder instead of ``images/``: one
``class x_centre y_centre width height`` line per tile, normalised to 0-1 (a polygon line is read
as its bounding box).

The class list (``CLASS_NAMES``) is the reader's: the base game's 53 codes (``engine.tiles.ALL_CODES``,
in that order, so that every index written before the Twist jokers keeps its meaning) and then the
Rummikub Twist special jokers ``JD``, ``JM``, ``JC`` (``engine.tiles.TWIST_CODES``). Everything that
sizes an array by the reader's classes (the classifier, the fusion, the calibration, evaluation)
takes it from here. A set with other names (the real photos: ``black_7``, ``joker``) is mapped by
name through ``class_code``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

from engine.errors import InputError
from engine.tiles import ALL_CODES, TWIST_CODES, NotationError, parse_tile

IMAGE_SUFFIXES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff", ".heic", ".heif"})
CLASS_NAMES: tuple[str, ...] = tuple(ALL_CODES) + tuple(TWIST_CODES)  # class index -> tile code, in every set we write
CLASS_INDEX: dict[str, int] = {c: i for i, c in enumerate(CLASS_NAMES)}
_NOT_SPLITS = {"path", "names", "nc", "download", "roboflow", "channels"}
_COLOUR_WORDS = {"black": "K", "red": "R", "blue": "B", "orange": "O", "yellow": "O"}

Box = tuple[float, float, float, float]


class DatasetError(InputError):
    """A dataset that cannot be used (missing, no images, unknown class names, a bad label line)."""


@dataclass(frozen=True)
class LabelledTile:
    box: Box  # x1, y1, x2, y2 in pixels
    code: str


@dataclass(frozen=True)
class DataYaml:
    """A parsed ``data.yaml``: the split entries resolved against ``root``, and the class names."""

    file: Path
    root: Path
    splits: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    names: tuple[str, ...] | None = None


# --------------------------------------------------------------------------- class names


def class_code(name: str, info: Mapping[str, Any] | None = None) -> str:
    """A dataset class name as a tile code: ``K7``, ``black_7``, ``Red 13``, ``joker`` -> ``J``; the
    Twist jokers as ``JD``/``double_joker``, ``JM``/``mirror joker``, ``JC``/``colour-change joker``."""
    if info:
        if info.get("joker"):
            return "J"
        colour = _COLOUR_WORDS.get(str(info.get("colour", "")).lower())
        number = info.get("number")
        if colour and isinstance(number, int):
            return parse_tile(f"{colour}{number}").code
    text = str(name).strip()
    if re.fullmatch(r"(?i)(red|black)?[_\- ]?joker([_\- ]?(red|black))?|j", text):
        return "J"
    m = re.fullmatch(r"(?i)(double|mirror|colou?r(?:[_\- ]?change)?)[_\- ]?joker", text)
    if m:
        return "J" + m.group(1)[0].upper()  # the special's letter: D, M or C
    m = re.fullmatch(r"(?i)(black|red|blue|orange|yellow)[_\- ]?(\d{1,2})", text)
    if m:
        return parse_tile(f"{_COLOUR_WORDS[m.group(1).lower()]}{int(m.group(2))}").code
    try:
        return parse_tile(text, twist=True).code
    except NotationError:
        raise DatasetError(f"class {name!r} is not a tile: use codes like K7/J/JD or names like black_7/joker") from None


# --------------------------------------------------------------------------- images and image lists


def is_image(path: Path) -> bool:
    return path.suffix.lower() in IMAGE_SUFFIXES


def list_images(folder: Path, recursive: bool = True) -> list[Path]:
    """The photos in ``folder`` (and below it), sorted by path."""
    found = folder.rglob("*") if recursive else folder.iterdir()
    return sorted(p for p in found if is_image(p))


def write_image_list(dest: Path, images: Iterable[Path], repeat: int = 1) -> Path:
    """An ultralytics image list: one absolute path a line, the whole list ``repeat`` times."""
    files = [str(Path(p).absolute()) for p in images]
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text("".join(f + "\n" for f in files * repeat))
    return dest


def read_image_list(listing: Path, root: Path) -> list[Path]:
    """The photos of an image list; relative lines are taken from the list's folder, else ``root``."""
    out = []
    for line in listing.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        p = Path(line)
        if not p.is_absolute():
            first = (listing.parent / p).resolve()
            p = first if first.exists() else (root / p).resolve()
        out.append(p)
    return out


def label_path(image: Path) -> Path:
    """ultralytics' convention: .../images/x.jpg -> .../labels/x.txt (the last images/ folder)."""
    parts = list(image.parts)
    for k in range(len(parts) - 2, -1, -1):
        if parts[k] == "images":
            parts[k] = "labels"
            break
    return Path(*parts).with_suffix(".txt")


# --------------------------------------------------------------------------- label lines


def label_line(cls: int, box: Box, width: float, height: float) -> str:
    """One label line for a box in pixels of a ``width`` x ``height`` photo."""
    x1, y1, x2, y2 = box
    return (f"{cls} {(x1 + x2) / 2 / width:.6f} {(y1 + y2) / 2 / height:.6f} "
            f"{(x2 - x1) / width:.6f} {(y2 - y1) / height:.6f}")


def label_text(tiles: Iterable[tuple[str, Box]], width: float, height: float) -> str:
    """A label file's text for (tile code, box in pixels) pairs, in our class order."""
    lines = [label_line(CLASS_INDEX[code], box, width, height) for code, box in tiles]
    return "".join(line + "\n" for line in lines)


def parse_label_line(line: str) -> tuple[int, Box] | None:
    """(class, normalised x1 y1 x2 y2) of one label line; None for a blank line. Raises ValueError."""
    values = line.split()
    if not values:
        return None
    cls = int(float(values[0]))
    nums = [float(v) for v in values[1:]]
    if len(nums) == 4:
        xc, yc, w, h = nums
        return cls, (xc - w / 2, yc - h / 2, xc + w / 2, yc + h / 2)
    if len(nums) >= 6 and len(nums) % 2 == 0:  # a polygon: its bounding box
        xs, ys = nums[0::2], nums[1::2]
        return cls, (min(xs), min(ys), max(xs), max(ys))
    raise ValueError("wrong number of values")


def read_label_file(label_file: Path) -> list[tuple[int, int, Box]]:
    """Every (line number, class, normalised box) of a label file; none if the file does not exist."""
    if not label_file.is_file():
        return []
    out = []
    for n, line in enumerate(label_file.read_text().splitlines(), start=1):
        try:
            parsed = parse_label_line(line)
        except ValueError:
            raise DatasetError(f"{label_file}, line {n}: expected 'class x y w h', got {line!r}") from None
        if parsed is not None:
            out.append((n, *parsed))
    return out


def read_labels(label_file: Path, names: Sequence[str], width: int, height: int) -> list[LabelledTile]:
    """The labelled tiles of one photo, boxes in pixels; none if the file does not exist."""
    out = []
    for n, cls, (x1, y1, x2, y2) in read_label_file(label_file):
        if not 0 <= cls < len(names):
            raise DatasetError(f"{label_file}, line {n}: class {cls} is not in the {len(names)} names")
        out.append(LabelledTile(box=(x1 * width, y1 * height, x2 * width, y2 * height), code=names[cls]))
    return out


# --------------------------------------------------------------------------- data.yaml


def write_data_yaml(dest: Path, splits: Mapping[str, str | Path | Sequence[str | Path]], root: Path | None = None,
                    names: Sequence[str] = CLASS_NAMES) -> Path:
    """``dest`` (a ``data.yaml``) with the given split entries, relative to ``root`` when given."""
    import yaml

    data: dict[str, Any] = {}
    if root is not None:
        data["path"] = str(root)
    for split, entry in splits.items():
        data[split] = [str(e) for e in entry] if isinstance(entry, (list, tuple)) else str(entry)
    data["names"] = {i: n for i, n in enumerate(names)}
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return dest


def read_data_yaml(yaml_file: Path) -> DataYaml:
    import yaml

    try:
        data = yaml.safe_load(yaml_file.read_text()) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise DatasetError(f"{yaml_file}: cannot be read ({exc})") from None
    if not isinstance(data, dict):
        raise DatasetError(f"{yaml_file}: expected keys such as path, val and names")
    root = Path(str(data.get("path") or "."))
    if not root.is_absolute():
        root = (yaml_file.parent / root).resolve()
    splits = {}
    for key, entry in data.items():  # every entry that is not one of the format's own keys is a split
        if key in _NOT_SPLITS or entry is None or not isinstance(entry, (str, list)):
            continue
        splits[str(key)] = tuple(str(e) for e in entry) if isinstance(entry, list) else (str(entry),)
    names = data.get("names")
    if isinstance(names, dict):
        names = tuple(str(names[k]) for k in sorted(names, key=int))
    elif isinstance(names, list):
        names = tuple(str(n) for n in names)
    else:
        names = None
    return DataYaml(file=yaml_file, root=root, splits=splits, names=names)


def split_images(spec: DataYaml, split: str) -> list[Path]:
    """The photos of one split of a ``data.yaml`` (``val`` also finds Roboflow's ``valid``)."""
    key = "valid" if split == "val" and "val" not in spec.splits and "valid" in spec.splits else split
    if key not in spec.splits:
        raise DatasetError(f"{spec.file}: no {split!r} entry (it has: {', '.join(spec.splits) or 'none'})")
    images: list[Path] = []
    for entry in spec.splits[key]:
        target = Path(entry)
        if not target.is_absolute():
            target = spec.root / target
        if target.is_dir():
            images += list_images(target)
        elif target.is_file() and target.suffix.lower() == ".txt":
            images += read_image_list(target, spec.root)
        elif target.is_file() and is_image(target):
            images.append(target)
        else:
            raise DatasetError(f"{spec.file}: {entry!r} is neither a folder of images nor a .txt list ({target})")
    return images
