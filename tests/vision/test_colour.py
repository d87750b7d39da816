"""Colour calibration: ink features separate the four inks, and calibration reweights the classifier."""

from __future__ import annotations

import numpy as np

from datasets.synth.faces import random_style, render_face
from engine.tiles import ALL_CODES, COLOURS
from vision.colour import ColourModel, ink_features


def _faces(n: int, seed: int) -> tuple[list[np.ndarray], list[str]]:
    rng = np.random.default_rng(seed)
    crops, colours = [], []
    for i in range(n):
        colour = COLOURS[i % 4]
        face = render_face(f"{colour}{1 + i % 13}", random_style(rng, colour), rng)
        rgb = face[..., :3].astype(np.float32)
        # a warm or cold cast, as real light gives
        rgb = np.clip(rgb * rng.uniform(0.85, 1.1, 3), 0, 255).astype(np.uint8)
        crops.append(rgb)
        colours.append(colour)
    return crops, colours


def test_ink_features_separate_the_inks() -> None:
    crops, colours = _faces(80, 0)
    model = ColourModel.fit(np.stack([ink_features(c) for c in crops]), colours)
    test, truth = _faces(40, 1)
    p = model.likelihoods(np.stack([ink_features(c) for c in test]))
    assert p.shape == (40, 4)
    np.testing.assert_allclose(p.sum(1), 1.0)
    accuracy = np.mean([COLOURS[k] == t for k, t in zip(p.argmax(1), truth)])
    assert accuracy >= 0.9


def test_calibration_moves_a_red_orange_doubt_to_the_ink_seen(tmp_path) -> None:
    crops, colours = _faces(80, 2)
    model = ColourModel.fit(np.stack([ink_features(c) for c in crops]), colours)
    model.save(tmp_path / "colour.json")
    model = ColourModel.load(tmp_path / "colour.json")
    orange, _ = _faces(4, 3)  # index 3 is orange
    probs = np.zeros((1, len(ALL_CODES)))
    probs[0, ALL_CODES.index("R4")] = 0.55
    probs[0, ALL_CODES.index("O4")] = 0.45
    out = model.calibrate(probs, [orange[3]])
    assert ALL_CODES[int(out.argmax())] == "O4"
    np.testing.assert_allclose(out.sum(), 1.0)
    # no crops: nothing to calibrate
    assert model.calibrate(probs[:0], []).shape == (0, len(ALL_CODES))
