"""``rummi export-corrections OUT [--db FILE] [--kind table|rack|all]``: the photos a family
corrected in the app, as a YOLO dataset a model can learn from.

Each reading a person corrected (``app.store``: the photo, the model's reading and the edits are
kept together) becomes ``OUT/images/<id>-<name>.jpg`` (the photo the way the app saw it: EXIF
orientation applied) and ``OUT/labels/<id>-<name>.txt`` with one line per tile of the corrected
reading, and ``OUT/data.yaml`` lists them (train and val: the same photos; split them as you
like). The format is ``vision.yolo_format``'s, in our class order (``CLASS_NAMES``), so
``rummi evaluate OUT`` and the training steps read it as they read the real development set.

Exit codes: 0 written (or nothing to write, said so), 2 bad input (no database, OUT is a file).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any, Mapping

from app.errors import EXIT_OK, BadInput

KINDS = ("table", "rack", "all")
JPEG_QUALITY = 95


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "export-corrections",
        help="write the photos corrected in the app as a YOLO dataset (training data)",
        description="Write every photo a person corrected in the app, with the corrected tiles as labels, "
        "as a YOLO dataset (images/, labels/, data.yaml) in OUT.",
    )
    p.add_argument("out", metavar="OUT", help="the dataset folder (created; files of the same name are replaced)")
    p.add_argument("--db", metavar="FILE", help="the app's database (default: the app's, or $RUMMI_DB)")
    p.add_argument("--kind", choices=KINDS, default="all", help="table photos, rack photos or both (default)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from app.store import Store, StoreError, default_db_path

    db = Path(args.db).expanduser() if args.db else default_db_path()
    if not db.is_file():
        raise BadInput(f"no database at {db} (use --db FILE, or correct a photo in the app first)")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise BadInput(f"{out} is a file: OUT must be a folder")
    try:
        store = Store(db)
        readings = store.readings(kind=None if args.kind == "all" else args.kind, corrected=True)
    except StoreError as exc:
        raise BadInput(str(exc)) from None
    if not readings:
        print(f"rummi export-corrections: no corrected photos in {db}: nothing written")
        return EXIT_OK
    written, tiles, skipped = export(store, readings, out)
    for why in skipped:
        print(f"rummi export-corrections: skipped {why}", file=sys.stderr)
    print(f"{written} photo(s), {tiles} tile(s) -> {out} (data.yaml, images/, labels/)")
    return EXIT_OK


def export(store: Any, readings: list[Mapping[str, Any]], out: Path) -> tuple[int, int, list[str]]:
    """Write ``readings`` (``Store.readings(corrected=True)`` rows) into ``out``; returns (photos
    written, tiles labelled, why each skipped one was skipped)."""
    from vision.errors import ImageError
    from vision.load import load_image
    from vision.yolo_format import CLASS_INDEX, label_text, write_data_yaml

    images, labels = out / "images", out / "labels"
    images.mkdir(parents=True, exist_ok=True)
    labels.mkdir(parents=True, exist_ok=True)
    written, count, skipped = 0, 0, []
    for row in readings:
        name = f"{int(row['id']):05d}-{_stem(row.get('photo') or 'photo')}"
        try:
            image = load_image(store.photo(row["photo_sha"]), name=row.get("photo") or name)
        except (ImageError, ValueError) as exc:
            skipped.append(f"reading {row['id']} ({row.get('photo')}): {exc}")
            continue
        reading = row["reading"]
        size = reading.get("image", {})
        if (size.get("width"), size.get("height")) not in ((image.width, image.height), (None, None)):
            skipped.append(f"reading {row['id']}: the photo is {image.width}x{image.height}, "
                           f"the reading {size.get('width')}x{size.get('height')}")
            continue
        boxes = [(t["code"], tuple(float(v) for v in t["box"])) for t in reading.get("tiles", [])
                 if t.get("code") in CLASS_INDEX]
        from PIL import Image

        Image.fromarray(image.rgb).save(images / f"{name}.jpg", format="JPEG", quality=JPEG_QUALITY)
        (labels / f"{name}.txt").write_text(label_text(boxes, image.width, image.height))
        written += 1
        count += len(boxes)
    write_data_yaml(out / "data.yaml", {"train": "images", "val": "images"}, root=out.resolve())
    return written, count, skipped


def _stem(photo: str) -> str:
    """A file-name-safe stem of the photo's name."""
    stem = Path(photo).stem
    return re.sub(r"[^A-Za-z0-9._-]+", "_", stem).strip("._") or "photo"
