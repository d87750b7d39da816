"""``rummi synth``: render labelled synthetic photos (YOLO dataset + sidecars + crops), or a contact sheet."""

from __future__ import annotations

import argparse
import json
import time


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("synth", help="render synthetic training photos", description=__doc__)
    p.add_argument("--kind", default="mix", choices=["table", "rack", "loose", "mix", "empty"],
                   help="scene kind; 'mix' mixes every kind (tables most often, some photos with no tiles)")
    p.add_argument("--n", type=int, default=100, help="number of photos")
    p.add_argument("--out", default="data/synth", help="output dataset folder")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--size", type=int, default=1024, help="long side of the photos, pixels")
    p.add_argument("--split", default="train")
    p.add_argument("--styles", default="train", choices=["train", "calib", "heldout"],
                   help="the side of the tile-style split to draw from: the training styles, the calibration's, or "
                        "those held out of both (a stand-in for an edition nobody here has seen)")
    p.add_argument("--no-crops", action="store_true", help="skip the single-tile crops")
    p.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    p.add_argument("--real-surfaces", default=None, help="folder of tile-free photos to use as table tops")
    p.add_argument("--preview", action="store_true", help="write one PNG contact sheet instead (to --out, a .png path)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from app.errors import BadInput

    if args.n < 1:
        raise BadInput("--n must be at least 1")
    if args.size < 128 or args.size > 8192:
        raise BadInput("--size must be 128-8192 pixels")
    if args.preview:
        from datasets.synth.preview import contact_sheet

        out = args.out if args.out.endswith(".png") else args.out.rstrip("/") + "/preview.png"
        path = contact_sheet(out, seed=args.seed, n=min(args.n, 24) if args.n != 100 else 12, size=args.size,
                             kind="cycle" if args.kind == "mix" else args.kind)
        print(f"contact sheet: {path}")
        return 0
    from datasets.synth.writer import write_dataset

    kind = "mix-all" if args.kind == "mix" else args.kind
    t = time.time()
    totals = write_dataset(args.out, args.n, seed=args.seed, kind=kind, size=args.size, split=args.split,
                           crops=not args.no_crops, workers=args.workers, real_surfaces=args.real_surfaces,
                           styles=args.styles)
    dt = time.time() - t
    totals["seconds"] = round(dt, 1)
    totals["photos_per_second"] = round(totals["images"] / dt, 2)
    print(json.dumps(totals))
    return 0
