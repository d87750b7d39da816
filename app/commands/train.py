"""``rummi train``: reproduce the committed models from nothing, into a run folder of their own.

    rummi train [--plan cpu|cuda|smoke] [--name NAME] [--real DIR]   # a run in data/runs/NAME/
    rummi train --promote NAME [--force]                              # copy a run into models/

A run never touches the shipped ``models/``: promoting is its own step, which refuses a run whose
held-out scores are below the committed card's (unless ``--force``) and never takes a smoke run.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("train", help="train the tile detector and classifier into a run folder, or promote a run",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--device", default="cpu", help="cpu (fits 2.5 h on 2 cores) or cuda (a bigger, longer run)")
    p.add_argument("--plan", default=None, choices=["cpu", "cuda", "smoke"],
                   help="sizes of the run (default: from --device); smoke is a one-minute development run")
    p.add_argument("--name", default=None, help="run folder name under --runs (default: the plan's name, numbered)")
    p.add_argument("--runs", default="data/runs", help="folder of the run folders (git-ignored)")
    p.add_argument("--real", metavar="DIR", default=None,
                   help="the real development photos (default: ../shared/datasets/rummikub-real-dev, or $RUMMI_REAL_DEV)")
    p.add_argument("--promote", metavar="RUN", default=None, help="copy a finished run (name or folder) into models/")
    p.add_argument("--force", action="store_true", help="with --promote: promote even if its held-out scores are lower")
    p.add_argument("--models", default=None, help="with --promote: the models folder to write (default: models/)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    if args.promote:
        return _promote(args)
    from app.errors import BadInput
    from datasets.real import check_real_dir, real_dir
    from training.pipeline import new_run_dir, train_all
    from training.plan import Plan

    name = args.plan or ("cuda" if args.device.startswith("cuda") else "cpu")
    plan = Plan.named(name, device="0") if args.device.startswith("cuda") else Plan.named(name)
    real = Path(args.real) if args.real else real_dir()
    try:
        check_real_dir(real)
    except FileNotFoundError as exc:
        raise BadInput(str(exc)) from None
    runs = Path(args.runs)
    work = runs / args.name if args.name else new_run_dir(runs, plan.name)
    report = train_all(plan, work, real)
    print(json.dumps(report.to_json(), indent=2))
    hint = (f"promote it with: rummi train --promote {work}" if plan.promotable
            else "a smoke run is for development and cannot be promoted")
    print(f"run folder: {work} (weights, metrics and card in {work / 'models'}); {hint}")
    return 0


def _promote(args: argparse.Namespace) -> int:
    from app.errors import BadInput
    from training.pipeline import MODELS, README
    from training.promote import PromotionError, promote

    try:
        # the README's scores are the shipped models': written only when promoting into models/
        done = promote(args.promote, Path(args.models) if args.models else MODELS, Path(args.runs), force=args.force,
                       readme=None if args.models else README)
    except PromotionError as exc:
        raise BadInput(str(exc)) from None
    scores = ", ".join(f"{k} {old if old is None else f'{old:.4f}'} -> {new:.4f}" for k, (old, new) in done.compared.items())
    print(f"promoted {done.run} into {done.models} (held out: {scores})")
    return 0
