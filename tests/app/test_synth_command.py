"""``rummi synth``: the tile styles it draws from are the caller's choice (the held-out ones for a test set)."""

from __future__ import annotations

import json

from app.cli import main
from datasets.synth.styles import HELD_OUT, TRAIN


def _editions(root, split: str) -> list[dict]:
    return [json.loads(p.read_text())["edition"] for p in sorted((root / "meta" / split).glob("*.json"))]


def test_synth_renders_the_held_out_styles_when_asked(tmp_path, capsys) -> None:
    common = ["synth", "--kind", "rack", "--n", "2", "--size", "320", "--seed", "5", "--no-crops", "--workers", "1"]
    assert main([*common, "--out", str(tmp_path / "held"), "--split", "unseen", "--styles", "heldout"]) == 0
    assert main([*common, "--out", str(tmp_path / "train"), "--split", "train"]) == 0
    held, train = _editions(tmp_path / "held", "unseen"), _editions(tmp_path / "train", "train")
    assert len(held) == len(train) == 2
    assert all(set(e["fonts"]) <= HELD_OUT.fonts for e in held)
    assert all(set(e["fonts"]) <= TRAIN.fonts for e in train)
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["images"] == 2


def test_synth_names_a_style_side_it_does_not_know(tmp_path, capsys) -> None:
    try:
        code = main(["synth", "--n", "1", "--out", str(tmp_path), "--styles", "elsewhere"])
    except SystemExit as stop:  # argparse's own exit
        code = stop.code
    assert code == 2
    assert "--styles" in capsys.readouterr().err
