"""The model card and the README's scores are written by code from the run's record."""

from __future__ import annotations

from pathlib import Path

from training.card import README_BEGIN, README_END, readme_scores, render_card, write_readme_scores
from training.report import TrainReport

REPO = Path(__file__).resolve().parents[2]


def test_the_readme_shows_the_committed_models_scores() -> None:
    report = TrainReport.load(REPO / "models" / "metrics.json")
    text = (REPO / "README.md").read_text()
    block = text[text.index(README_BEGIN): text.index(README_END) + len(README_END)]
    assert block == readme_scores(report), "run write_readme_scores (promote does) after changing models/metrics.json"


def test_the_card_counts_come_from_the_record() -> None:
    report = TrainReport.load(REPO / "models" / "metrics.json")
    card = render_card(report)
    for key in ("real_train", "real_heldout"):
        counts = report.data[key]
        assert f"{counts['photos']} photos, {counts['tiles']} tiles" in card
    assert f"{report.heldout['photos']} / {report.heldout['labelled']}" in card


def test_write_readme_scores_replaces_only_its_block(tmp_path) -> None:
    report = TrainReport.load(REPO / "models" / "metrics.json")
    readme = tmp_path / "README.md"
    readme.write_text(f"before\n{README_BEGIN}\nold numbers\n{README_END}\nafter\n")
    assert write_readme_scores(readme, report)
    text = readme.read_text()
    assert text.startswith("before\n") and text.endswith("\nafter\n") and "old numbers" not in text
    assert readme_scores(report) in text
    (tmp_path / "plain.md").write_text("no block")
    assert not write_readme_scores(tmp_path / "plain.md", report)


def test_the_card_names_the_detectors_rack_phase_only_where_the_run_had_one() -> None:
    report = TrainReport.load(REPO / "models" / "metrics.json")
    with_racks = dict(report.plan, det_epochs_racks=2, det_rack_renders=800)
    report.plan = with_racks
    assert "then 2 epochs with 800 rack renders beside the fine-tune's" in render_card(report)
    report.plan = dict(with_racks, det_epochs_racks=0)
    assert "rack renders" not in render_card(report)


def test_the_sure_boxes_on_no_tile_say_how_many_lie_on_a_tile_of_their_own() -> None:
    report = TrainReport.load(REPO / "models" / "metrics.json")
    row = dict(report.synthetic, sure_on_no_tile=11, detected=3431, matched=3196)
    row.pop("sure_on_own_tile", None)
    row.pop("sure_misread_loosely", None)
    report.synthetic = row
    assert "| 11 of 235 |" in readme_scores(report)  # a record from before the count: as it was
    report.synthetic = dict(row, sure_on_own_tile=5)
    assert "| 11 of 235 (5 on a tile of their own) |" in readme_scores(report)
    assert "| 11 of 235 (5 on a tile of their own) |" in render_card(report)
    report.synthetic = dict(row, sure_on_own_tile=5, sure_misread_loosely=2)
    assert "| 11 of 235 (5 on a tile of their own, 2 on one read wrong) |" in readme_scores(report)
