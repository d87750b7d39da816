"""Colour calibration: a second opinion on a tile's ink colour, fitted on real photos.

The crop classifier learns colour mostly from renders; real light shifts orange towards red. This
module white-balances a crop on the tile's own plastic, measures its ink (the pixels far from the
plastic in the centre of the tile) in CIE Lab, and scores the four ink colours with a Gaussian model
fitted on the real training series. ``calibrate`` multiplies the classifier's probabilities by these
colour likelihoods (jokers, printed red or black, take the mean of those two).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from engine.tiles import ALL_CODES, COLOURS

N_FEATURES = 5


def plastic_colour(rgb: np.ndarray) -> np.ndarray:
    """The tile's plastic: the median of the bright, unsaturated pixels in the centre of the crop."""
    h, w = rgb.shape[:2]
    c = rgb[h // 6 : h * 5 // 6, w // 6 : w * 5 // 6].reshape(-1, 3).astype(np.float32)
    v = c.max(1)
    s = (c.max(1) - c.min(1)) / np.maximum(v, 1)
    sel = c[(v >= np.percentile(v, 50)) & (s <= np.percentile(s, 60))]
    return np.median(sel if len(sel) > 10 else c, 0)


def ink_features(rgb: np.ndarray) -> np.ndarray:
    """(a*, b*, L*, chroma, dark fraction) of the ink in a tile crop, after white balance on the plastic."""
    p = plastic_colour(rgb)
    gains = np.clip(np.float32(220.0) / np.maximum(p, 1.0), 0.5, 2.5)
    bal = np.clip(rgb.astype(np.float32) * gains, 0, 255).astype(np.uint8)
    h, w = bal.shape[:2]
    centre = bal[h // 5 : h * 4 // 5, w // 5 : w * 4 // 5]
    lab = cv2.cvtColor(centre, cv2.COLOR_RGB2LAB).reshape(-1, 3).astype(np.float32)
    L, a, b = lab[:, 0] * 100 / 255, lab[:, 1] - 128, lab[:, 2] - 128
    chroma = np.hypot(a, b)
    plastic_L = np.percentile(L, 80)
    ink = (chroma > 18) | (L < plastic_L - 30)
    if ink.sum() < 5:
        ink = np.argsort(-(chroma + (plastic_L - L)))[:5]
    dark = float(np.mean(L[ink] < plastic_L - 40)) if np.ndim(ink) and ink.dtype == bool else 0.0
    return np.array([a[ink].mean(), b[ink].mean(), L[ink].mean(), chroma[ink].mean(), dark], np.float32)


@dataclass
class ColourModel:
    means: np.ndarray  # (4, F)
    covs: np.ndarray  # (4, F, F)
    weight: float = 1.0  # exponent on the colour likelihood when combined

    def likelihoods(self, feats: np.ndarray) -> np.ndarray:
        """(N, 4) posterior over K, R, B, O (equal priors)."""
        feats = np.atleast_2d(feats)
        logp = np.zeros((len(feats), len(COLOURS)))
        for k in range(len(COLOURS)):
            d = feats - self.means[k]
            inv = np.linalg.inv(self.covs[k])
            logp[:, k] = -0.5 * np.einsum("nf,fg,ng->n", d, inv, d) - 0.5 * np.linalg.slogdet(self.covs[k])[1]
        logp -= logp.max(1, keepdims=True)
        p = np.exp(logp)
        return p / p.sum(1, keepdims=True)

    def calibrate(self, probs: np.ndarray, crops: Sequence[np.ndarray]) -> np.ndarray:
        """Classifier probabilities (N, 53) times the colour evidence, renormalised."""
        if not len(crops):
            return probs
        col = self.likelihoods(np.stack([ink_features(c) for c in crops])) ** self.weight
        factor = np.empty_like(probs)
        for i, code in enumerate(ALL_CODES):
            factor[:, i] = (col[:, 0] + col[:, 1]) / 2 if code == "J" else col[:, COLOURS.index(code[0])]
        out = probs * factor
        return out / np.maximum(out.sum(1, keepdims=True), 1e-12)

    def save(self, path: Path) -> None:
        path.write_text(json.dumps({"means": self.means.tolist(), "covs": self.covs.tolist(), "weight": self.weight}) + "\n")

    @classmethod
    def load(cls, path: Path) -> "ColourModel":
        d = json.loads(path.read_text())
        return cls(np.asarray(d["means"], float), np.asarray(d["covs"], float), float(d.get("weight", 1.0)))

    @classmethod
    def fit(cls, feats: np.ndarray, colours: Sequence[str], weight: float = 1.0) -> "ColourModel":
        colours = np.asarray(colours)
        means, covs = [], []
        for c in COLOURS:
            f = feats[colours == c]
            means.append(f.mean(0))
            covs.append(np.cov(f.T) + np.eye(feats.shape[1]) * 1e-2 * np.trace(np.cov(f.T)) / feats.shape[1] + np.eye(feats.shape[1]) * 1e-3)
        return cls(np.array(means), np.array(covs), weight)
