"""Box overlap (IoU, and how much of a box lies inside another) and matching tiles by it: read tiles to labelled ones, and one reading's boxes to another's."""

from __future__ import annotations

from typing import Sequence

import numpy as np

Box = tuple[float, float, float, float]


def _intersection(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M) intersection areas between (N, 4) and (M, 4) x1y1x2y2 boxes."""
    a = np.asarray(a, float).reshape(-1, 4)
    b = np.asarray(b, float).reshape(-1, 4)
    x1 = np.maximum(a[:, None, 0], b[None, :, 0])
    y1 = np.maximum(a[:, None, 1], b[None, :, 1])
    x2 = np.minimum(a[:, None, 2], b[None, :, 2])
    y2 = np.minimum(a[:, None, 3], b[None, :, 3])
    return np.clip(x2 - x1, 0, None) * np.clip(y2 - y1, 0, None)


def _area(a: np.ndarray) -> np.ndarray:
    return (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])


def box_iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU matrix between (N, 4) and (M, 4) x1y1x2y2 boxes."""
    a = np.asarray(a, float).reshape(-1, 4)
    b = np.asarray(b, float).reshape(-1, 4)
    inter = _intersection(a, b)
    return inter / np.maximum(_area(a)[:, None] + _area(b)[None, :] - inter, 1e-9)


def box_within(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """(N, M): the share of each box of ``a`` (N, 4) that lies inside each box of ``b`` (M, 4)."""
    a = np.asarray(a, float).reshape(-1, 4)
    return _intersection(a, b) / np.maximum(_area(a), 1e-9)[:, None]


def match(truth: Sequence[Box], pred: Sequence[Box], iou: float = 0.5) -> list[tuple[int, int]]:
    """Greedy one-to-one matching by descending IoU; pairs (truth index, prediction index)."""
    m = box_iou(np.asarray(truth), np.asarray(pred))
    pairs: list[tuple[int, int]] = []
    if not m.size:
        return pairs
    order = np.dstack(np.unravel_index(np.argsort(-m, axis=None), m.shape))[0]
    used_t, used_p = set(), set()
    for i, j in order:
        if m[i, j] < iou:
            break
        if i in used_t or j in used_p:
            continue
        used_t.add(int(i))
        used_p.add(int(j))
        pairs.append((int(i), int(j)))
    return pairs
