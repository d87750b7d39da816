"""Promoting a run into the shipped models: checked against the committed card, never a smoke run."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli import main
from training.pipeline import CARD, METRICS, WEIGHTS
from training.plan import Plan
from training.promote import PromotionError, promote


def _folder(path: Path, plan: str, recall: float, exact: float, tag: str) -> Path:
    path.mkdir(parents=True)
    for name in WEIGHTS:
        (path / name).write_text(f"{tag} {name}")
    (path / CARD).write_text(f"card {tag}")
    record = {"plan": Plan.named(plan).as_dict(), "heldout": {"recall": recall, "exact_accuracy": exact}}
    (path / METRICS).write_text(json.dumps(record))
    return path


@pytest.fixture
def shipped(tmp_path) -> Path:
    return _folder(tmp_path / "models", "cpu", 0.99, 0.95, "shipped")


def test_a_better_run_is_promoted(tmp_path, shipped) -> None:
    runs = tmp_path / "runs"
    _folder(runs / "cpu2" / "models", "cpu", 0.995, 0.97, "new")
    done = promote("cpu2", shipped, runs)
    assert (shipped / "detector.pt").read_text() == "new detector.pt"
    assert (shipped / CARD).read_text() == "card new"
    assert done.compared["exact_accuracy"] == (0.95, 0.97)


def test_a_worse_run_is_refused_unless_forced(tmp_path, shipped) -> None:
    run = _folder(tmp_path / "runs" / "cpu3" / "models", "cpu", 0.999, 0.90, "worse")
    with pytest.raises(PromotionError, match=r"exact_accuracy 0.9000 < 0.9500.*--force"):
        promote(run.parent, shipped)
    assert (shipped / "detector.pt").read_text() == "shipped detector.pt"
    promote(run.parent, shipped, force=True)
    assert (shipped / "detector.pt").read_text() == "worse detector.pt"


def test_a_smoke_run_is_refused_even_when_forced(tmp_path, shipped) -> None:
    run = _folder(tmp_path / "runs" / "smoke" / "models", "smoke", 1.0, 1.0, "smoke")
    with pytest.raises(PromotionError, match="never promoted"):
        promote(run.parent, shipped, force=True)
    assert (shipped / "detector.pt").read_text() == "shipped detector.pt"


def test_an_unfinished_or_unknown_run_is_refused(tmp_path, shipped) -> None:
    run = _folder(tmp_path / "runs" / "half" / "models", "cpu", 1.0, 1.0, "half")
    (run / "classifier.pt").unlink()
    with pytest.raises(PromotionError, match="did not finish.*classifier.pt"):
        promote(run.parent, shipped)
    with pytest.raises(PromotionError, match="no finished training run"):
        promote("nothing-here", shipped, tmp_path / "runs")


def test_promote_on_the_command_line(tmp_path, shipped, capsys) -> None:
    runs = tmp_path / "runs"
    _folder(runs / "cpu" / "models", "cpu", 0.5, 0.5, "bad")
    assert main(["train", "--promote", "cpu", "--runs", str(runs), "--models", str(shipped)]) == 2
    assert "below the committed card" in capsys.readouterr().err
    assert main(["train", "--promote", "cpu", "--runs", str(runs), "--models", str(shipped), "--force"]) == 0
    assert "promoted" in capsys.readouterr().out


def test_a_missing_dev_set_is_a_clear_error(tmp_path, capsys) -> None:
    missing = tmp_path / "nowhere"
    assert main(["train", "--plan", "smoke", "--real", str(missing), "--runs", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and "--real DIR" in err and "Traceback" not in err
    assert not (tmp_path / "runs").exists()


def test_plans() -> None:
    assert Plan.named("cpu").promotable and Plan.named("cuda").promotable
    assert not Plan.named("smoke").promotable
    assert Plan.named("cpu", device="0").device == "0"
    with pytest.raises(ValueError, match="unknown plan 'huge'"):
        Plan.named("huge")
