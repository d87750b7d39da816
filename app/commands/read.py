"""``rummi read PHOTO...``: read tiles from photos of the table (or of a rack with ``--rack``).

Human output by default: the melds with their verdict and value, every tile with its confidence
(doubtful tiles marked ``?``), and warnings. ``--json`` prints one ``PhotoReading.to_json()``
object per photo, one per line. ``--annotate OUT.png`` draws the reading on the photo; with
several photos the files are ``OUT-1.png``, ``OUT-2.png``... in the order given.

A photo that cannot be read is reported on stderr and skipped; the exit code is then 2 (after the
other photos). A photo with no tiles is a warning, not an error. Invalid melds are part of the
reading (exit 0): ``rummi check`` is the command that answers "is this valid?".
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from app.errors import EXIT_BAD_INPUT, EXIT_OK, BadInput
from engine.rules import DEFAULT_RULES
from vision.errors import ImageError, ModelMissing
from vision.types import PhotoReading


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "read",
        help="read the tiles in photos of the table or of a rack",
        description="Read the tiles in photos: melds on the table (checked by the rules) or a rack.",
    )
    p.add_argument("photos", nargs="+", metavar="PHOTO", help="JPEG, PNG, WebP or HEIC photos")
    p.add_argument("--rack", action="store_true", help="the photos show a rack: tiles in rack order, no melds")
    p.add_argument("--json", action="store_true", help="one JSON object per photo, one per line")
    p.add_argument(
        "--annotate", metavar="OUT.png",
        help="write the photo with the reading drawn on it (several photos: OUT-1.png, OUT-2.png, ...)",
    )
    p.add_argument("--models", metavar="DIR", help="folder with the model files (default: the committed models/)")
    p.add_argument("--no-ocr", action="store_true", help="read numbers with the classifier alone, without the text recogniser")
    p.add_argument(
        "--twist", action="store_true",
        help="Rummikub Twist: melds are checked with the special jokers' rules, and every joker read is doubtful",
    )
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from vision.load import load_image
    from vision.reader import Reader

    rules = DEFAULT_RULES.with_(twist=bool(getattr(args, "twist", False)))
    reader = Reader(rules=rules, models_dir=args.models, ocr=False if getattr(args, "no_ocr", False) else None)
    failed = 0
    for n, photo in enumerate(args.photos, start=1):
        try:
            image = load_image(photo)
        except ImageError as exc:
            print(f"rummi read: {exc}", file=sys.stderr)
            failed += 1
            continue
        try:
            reading = reader.read(image, rack=args.rack)
        except ModelMissing as exc:
            raise BadInput(str(exc)) from None
        if args.json:
            print(json.dumps(reading.to_json()), flush=True)
        else:
            print(format_reading(reading), flush=True)
        if args.annotate:
            out = annotate_path(args.annotate, n, len(args.photos))
            _write_annotated(image, reading, out)
            if not args.json:
                print(f"  drawn on {out}")
    return EXIT_BAD_INPUT if failed else EXIT_OK


def annotate_path(template: str, n: int, total: int) -> Path:
    """``OUT.png`` for one photo; ``OUT-<n>.png`` (n from 1) for several."""
    path = Path(template)
    if not path.suffix:
        path = path.with_suffix(".png")
    return path if total == 1 else path.with_name(f"{path.stem}-{n}{path.suffix}")


def _write_annotated(image, reading: PhotoReading, out: Path) -> None:
    from PIL import Image as PILImage

    from vision.annotate import annotate

    drawn = annotate(image, reading)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        PILImage.fromarray(drawn).save(out)
    except (OSError, ValueError) as exc:
        raise BadInput(f"cannot write {out}: {exc}") from None


def format_reading(reading: PhotoReading) -> str:
    """The human report of one photo."""
    what = "rack" if reading.rack else "table"
    if reading.mirrored:
        what += ", saved mirrored (a front camera's): read mirrored back"
    if reading.turned:
        what += (", its rows running down the photo: read turned a quarter" if not reading.rack
                 else ", upside down in the photo: read turned over" if reading.turned == 2
                 else ", standing sideways in the photo: read turned upright")
    head = (
        f"{reading.path or 'photo'} ({reading.width}x{reading.height}, {what}): "
        f"{len(reading.tiles)} tiles, {len(reading.melds)} melds, {reading.ms:.0f} ms"
    )
    lines = [head]

    def label(i: int) -> str:
        t = reading.tiles[i]
        return f"{t.code}?" if t.doubtful else t.code

    if reading.melds:
        lines.append("  melds:")
        for k, meld in enumerate(reading.melds):
            tiles = " ".join(label(i) for i in meld.tiles)
            if meld.valid:
                verdict = f"valid {meld.kind}, {meld.value} points"
            else:
                verdict = f"NOT VALID: {meld.reason}"
            lines.append(f"    {k + 1:>2}. {tiles:<28} {verdict}")
    lone = [i for i, t in enumerate(reading.tiles) if t.meld is None]
    if lone and not reading.rack:
        lines.append(f"  lone tiles: {' '.join(label(i) for i in lone)}")
    if reading.rack and reading.tiles:
        lines.append(f"  rack: {' '.join(label(i) for i in range(len(reading.tiles)))}")
    if reading.tiles:
        lines.append("  tiles (? = doubtful, check it):")
        for i, t in enumerate(reading.tiles):
            where = f"meld {t.meld + 1}" if t.meld is not None else ("rack" if reading.rack else "alone")
            alts = ", ".join(f"{c} {p:.0%}" for c, p in t.alternatives)
            alt_text = f"  (or {alts})" if alts else ""
            mark = "?" if t.doubtful else " "
            lines.append(f"    {i + 1:>3}  {t.code:<3}{mark} {t.confidence:4.0%}  {where:<8}{alt_text}".rstrip())
    if reading.warnings:
        lines.append("  warnings:")
        lines += [f"    - {w}" for w in reading.warnings]
    return "\n".join(lines)
