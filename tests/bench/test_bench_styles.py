"""bench/bench_styles.py: each set is the training side with one dimension taken whole from the held-out sides,
and a tile is counted by what each reader reads at its box."""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_styles import BASELINE, Tally, one_dimension_sets  # noqa: E402

from datasets.synth.styles import CALIB, HELD_OUT, TRAIN  # noqa: E402
from vision.yolo_format import CLASS_NAMES  # noqa: E402

FIELDS = ("sizes", "fonts", "inks", "plastics", "jokers")
CHANGED = {"sizes": {"sizes"}, "fonts": {"fonts"}, "inks": {"inks", "plastics"}, "jokers": {"jokers"}}


def test_the_baseline_is_the_training_side_with_every_font_drawn_as_it_is() -> None:
    base = one_dimension_sets()[BASELINE]
    assert not base.weights and not base.stretches
    assert all(getattr(base, f) == getattr(TRAIN, f) for f in FIELDS)


@pytest.mark.parametrize("name", sorted(CHANGED))
def test_each_set_takes_one_dimension_whole_from_the_held_out_sides(name: str) -> None:
    sets = one_dimension_sets()
    base, styles = sets[BASELINE], sets[name]
    for field in FIELDS:
        if field in CHANGED[name]:
            assert getattr(styles, field) != getattr(base, field)
        else:
            assert getattr(styles, field) == getattr(base, field), field
    assert dataclasses.replace(styles, name=BASELINE, **{f: getattr(base, f) for f in CHANGED[name]}) == base
    if name == "sizes":
        assert set(styles.sizes) == set(CALIB.sizes) | set(HELD_OUT.sizes)
    if name == "fonts":
        assert styles.fonts == CALIB.fonts | HELD_OUT.fonts
    if name == "inks":
        for c in "KRBO":
            assert set(styles.inks[c]) == set(CALIB.inks[c]) | set(HELD_OUT.inks[c])
        assert set(styles.plastics) == set(CALIB.plastics) | set(HELD_OUT.plastics)
    if name == "jokers":
        assert set(styles.jokers) == set(CALIB.jokers) | set(HELD_OUT.jokers)


def _onehot(codes: list[str]) -> np.ndarray:
    p = np.zeros((len(codes), len(CLASS_NAMES)))
    for i, c in enumerate(codes):
        p[i, CLASS_NAMES.index(c)] = 1.0
    return p


def test_a_tile_counts_by_its_number_its_colour_and_a_joker_apart() -> None:
    tally = Tally()
    recogniser = np.zeros((4, 14))
    recogniser[[0, 1, 2, 3], [6, 5, 13, 13]] = 1.0  # 7, 6, no number, no number
    tally.add(["R7", "B7", "K13", "J"], _onehot(["R7", "K7", "K3", "J"]), recogniser)
    assert (tally.numbered, tally.classifier, tally.colours, tally.recogniser) == (3, 2, 2, 1)
    assert (tally.jokers, tally.jokers_read) == (1, 1)
    tally.add(["O2"], _onehot(["O2"]), None)  # without the recogniser: its count stands
    assert (tally.numbered, tally.classifier, tally.recogniser) == (4, 3, 1)
