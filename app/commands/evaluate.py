"""``rummi evaluate DATASET``: how well the photo reader reads a labelled (YOLO-format) photo set.

Prints tile recall and precision (IoU >= 0.5), exact-read accuracy over all labelled tiles (a
missed tile counts as wrong), number-only and colour-only accuracy over the matched tiles, the
most frequent confusions and the time per photo, and how far the doubt flags can be trusted: the
sure-but-wrong rate and the share of errors flagged. ``--no-ocr`` reads with the classifier alone
(to see what the number recogniser adds). ``--rack`` reads each photo as a rack (tiles in rack order, no
melds), as the app reads the photo of a rack. ``--json`` prints the same as one JSON object.
"""

from __future__ import annotations

import argparse
import json

from app.errors import EXIT_OK, BadInput
from vision.errors import ModelMissing


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "evaluate",
        help="measure the photo reader on a labelled photo set",
        description=(
            "Measure the photo reader on a labelled YOLO-format set: a folder with data.yaml, "
            "or with images/ and labels/."
        ),
    )
    p.add_argument("dataset", metavar="DATASET", help="dataset folder (or its data.yaml)")
    p.add_argument("--split", default="val", help="which split of data.yaml to read (default: val)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--limit", type=int, metavar="N", help="read only the first N photos")
    p.add_argument("--models", metavar="DIR", help="folder with the model files (default: the committed models/)")
    p.add_argument("--rack", action="store_true", help="read each photo as a rack (tiles in rack order, no melds), as the app reads a rack")
    p.add_argument("--no-ocr", action="store_true", help="read numbers with the classifier alone, without the text recogniser")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from vision.evaluate import evaluate_dataset, open_dataset
    from vision.reader import Reader
    from vision.yolo_format import DatasetError

    if args.limit is not None and args.limit < 1:
        raise BadInput(f"--limit must be at least 1, got {args.limit}")
    try:
        open_dataset(args.dataset, args.split)  # fail on a bad folder before loading the model
        reader = Reader(models_dir=args.models, ocr=False if args.no_ocr else None)
        _ = reader.model
        report = evaluate_dataset(
            args.dataset, reader, limit=args.limit, progress=True, split=args.split, rack=args.rack
        )
    except (DatasetError, ModelMissing) as exc:
        raise BadInput(str(exc)) from None
    print(json.dumps(report.to_json()) if args.json else report.format())
    return EXIT_OK
