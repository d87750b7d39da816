"""Promoting a finished run into the shipped ``models/``: the only way a training run replaces them.

A run is promoted when its held-out scores are at least the committed card's (recall and exact
reads on the held-out real series), or when forced. A development run (``--plan smoke``) is never
promoted, forced or not.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from training.card import write_readme_scores
from training.pipeline import CARD, METRICS, MODELS, README, RUNS, WEIGHTS
from training.plan import Plan
from training.report import TrainReport

COMPARED = ("recall", "exact_accuracy")  # held-out scores a new run must not lose


class PromotionError(ValueError):
    """A run that cannot or may not replace the shipped models; the message says why."""


@dataclass(frozen=True)
class Promotion:
    run: Path
    models: Path
    compared: dict[str, tuple[float | None, float]]  # score -> (committed, run)


def run_models(run: str | Path, runs: Path = RUNS) -> Path:
    """The ``models/`` folder of a run given by name (under ``runs``) or by path."""
    path = Path(run)
    candidates = [path, runs / str(run)]
    for c in candidates:
        if (c / "models").is_dir():
            return c / "models"
        if (c / METRICS).is_file():
            return c
    raise PromotionError(f"{run}: no finished training run there (looked in {', '.join(str(c) for c in candidates)})")


def _heldout(folder: Path) -> dict[str, float]:
    metrics = folder / METRICS
    if not metrics.is_file():
        return {}
    return json.loads(metrics.read_text()).get("heldout") or {}


def promote(run: str | Path, models: Path = MODELS, runs: Path = RUNS, force: bool = False,
            readme: Path | None = None) -> Promotion:
    """Copy a run's weights, settings, metrics and card into ``models``, after the checks above, and
    write its scores into ``readme``'s scores block when given."""
    source = run_models(run, runs)
    missing = [n for n in (*WEIGHTS, METRICS, CARD) if not (source / n).is_file()]
    if missing:
        raise PromotionError(f"{source}: the run did not finish ({', '.join(missing)} missing)")
    record = json.loads((source / METRICS).read_text())
    plan_name = str(record.get("plan", {}).get("name", ""))
    try:
        promotable = Plan.named(plan_name).promotable if plan_name else True
    except ValueError:
        raise PromotionError(f"{source}: made by an unknown plan {plan_name!r}") from None
    if not promotable:
        raise PromotionError(f"{source}: a --plan {plan_name} run is for development and is never promoted")
    new, old = record.get("heldout") or {}, _heldout(models)
    compared = {k: (old.get(k), float(new.get(k, 0.0))) for k in COMPARED}
    worse = [f"{k} {new_v:.4f} < {old_v:.4f}" for k, (old_v, new_v) in compared.items() if old_v is not None and new_v < old_v]
    if worse and not force:
        raise PromotionError(f"{source}: held-out scores below the committed card's ({'; '.join(worse)}); "
                             "pass --force to promote it anyway")
    models.mkdir(parents=True, exist_ok=True)
    for name in (*WEIGHTS, METRICS, CARD):
        shutil.copy(source / name, models / name)
    if readme is not None:
        write_readme_scores(readme, TrainReport.load(models / METRICS))
    return Promotion(run=source, models=models, compared=compared)
