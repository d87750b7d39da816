"""``rummi train``: reproduce the committed models from nothing (render, train, export, evaluate)."""

from __future__ import annotations

import argparse
import json
from dataclasses import asdict
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="render data and train the tile detector and classifier", description=__doc__)
    p.add_argument("--device", default="cpu", help="cpu (fits 2.5 h on 2 cores) or cuda (a bigger, longer run)")
    p.add_argument("--plan", default=None, choices=["cpu", "cuda", "smoke"], help="sizes of the run (default: from --device)")
    p.add_argument("--work", default="data", help="folder for generated data and training runs (git-ignored)")
    p.add_argument("--models", default=None, help="where to write the weights (default: models/)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from app.cli import BadInput
    from vision.training import MODELS, Plan, train_all

    name = args.plan or ("cuda" if args.device.startswith("cuda") else "cpu")
    try:
        plan = Plan.named(name)
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
    if args.device.startswith("cuda"):
        plan.device = "0"
    report = train_all(plan, Path(args.work), Path(args.models) if args.models else MODELS)
    print(json.dumps(asdict(report), indent=2))
    return 0
