"""Synthetic table layouts with known melds, for the layout tests (boxes as a detector gives them)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

TILE_W, TILE_H = 1.0, 1.4  # a tile on the table, table units


@dataclass
class Layout:
    boxes: list[tuple[float, float, float, float]]
    melds: list[list[int]]  # true groups, each in reading order, groups in reading order
    tilt_deg: float
    perspective: float  # how much larger the nearest row is than the farthest (0.5: 1.5x)


def make_layout(
    rng: np.random.Generator,
    *,
    max_tilt: float = 20.0,
    max_perspective: float = 0.6,
    rows: int | None = None,
    gap_between: tuple[float, float] = (0.7, 2.5),
    gap_within: tuple[float, float] = (0.0, 0.08),
    crooked: float = 0.04,
    box_noise: float = 0.02,
    meld_sizes: tuple[int, ...] = (1, 2, 3, 3, 3, 4, 4, 5, 6),
    tilt: float | None = None,
) -> Layout:
    """Rows of melds on the table plane, seen through a tilted camera (perspective), rolled by
    up to ``max_tilt`` degrees (or exactly ``tilt``), with per-tile wobble and noisy axis-aligned enclosing boxes.

    Rows wander a little (each its own small slant) but never run into each other, as real tiles
    cannot lie on top of one another.
    """
    while True:
        table = _table(rng, rows, gap_between, gap_within, crooked, meld_sizes)
        if table is not None:
            break
    pts, melds = table
    # perspective: the top of the table is farther away (smaller), as from a standing player
    y_max = float(pts[..., 1].max())
    cx0 = float(pts[..., 0].mean())
    depth = max(y_max, float(np.ptp(pts[..., 0])), 8.0)  # the whole table is in view, not one row
    strength = float(rng.uniform(0.0, max_perspective))
    p = strength / depth
    den = 1.0 + p * (y_max - pts[..., 1])
    px = (pts[..., 0] - cx0) / den
    py = (pts[..., 1] - y_max) / den
    # camera roll
    tilt = float(rng.uniform(-max_tilt, max_tilt)) if tilt is None else float(tilt)
    a = math.radians(tilt)
    scale = 60.0  # pixels per table unit at the nearest row
    rx = (px * math.cos(a) - py * math.sin(a)) * scale
    ry = (px * math.sin(a) + py * math.cos(a)) * scale
    rx -= rx.min() - 50
    ry -= ry.min() - 50
    boxes = []
    for i in range(len(pts)):
        x1, x2 = float(rx[i].min()), float(rx[i].max())
        y1, y2 = float(ry[i].min()), float(ry[i].max())
        jit = rng.normal(0.0, box_noise * (x2 - x1), size=4)
        boxes.append((x1 + jit[0], y1 + jit[1], x2 + jit[2], y2 + jit[3]))
    return Layout(boxes=boxes, melds=melds, tilt_deg=tilt, perspective=strength)


def _table(rng, rows, gap_between, gap_within, crooked, meld_sizes):
    """Tile outlines (n x 4 x 2) on the table plane and the true melds; None if rows collide."""
    n_rows = rows if rows is not None else int(rng.integers(1, 5))
    quads: list[np.ndarray] = []
    centres: list[tuple[float, float, int]] = []
    melds: list[list[int]] = []
    y = 0.0
    for r in range(n_rows):
        x = float(rng.uniform(0.0, 2.0))
        row_tilt = math.radians(float(np.clip(rng.normal(0.0, 1.0), -2.5, 2.5)))
        for _ in range(int(rng.integers(1, 5))):
            size = int(rng.choice(meld_sizes))
            meld: list[int] = []
            for k in range(size):
                if k:
                    x += float(rng.uniform(*gap_within))
                cx = x + TILE_W / 2
                cy = y + TILE_H / 2 + float(rng.normal(0.0, crooked * TILE_H)) + cx * math.tan(row_tilt)
                rot = math.radians(float(rng.normal(0.0, 1.5))) + row_tilt
                quads.append(_rect(cx, cy, TILE_W, TILE_H, rot))
                centres.append((cx, cy, r))
                meld.append(len(quads) - 1)
                x += TILE_W
            melds.append(meld)
            x += float(rng.uniform(*gap_between))
        y += TILE_H * float(rng.uniform(1.3, 1.9))
    for i, (xi, yi, ri) in enumerate(centres):
        for xj, yj, rj in centres[i + 1:]:
            if ri != rj and abs(xi - xj) < 1.5 * TILE_W and abs(yi - yj) < 1.2 * TILE_H:
                return None
    return np.stack(quads), melds


def _rect(cx: float, cy: float, w: float, h: float, rot: float) -> np.ndarray:
    c, s = math.cos(rot), math.sin(rot)
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    r = np.array([[c, -s], [s, c]])
    return corners @ r.T + np.array([cx, cy])


def shuffled(layout: Layout, rng: np.random.Generator) -> tuple[list, list[list[int]]]:
    """The boxes in random order (as a detector returns them) and the true melds re-indexed."""
    perm = rng.permutation(len(layout.boxes))
    inverse = np.argsort(perm)
    boxes = [layout.boxes[int(k)] for k in perm]
    melds = [[int(inverse[i]) for i in meld] for meld in layout.melds]
    return boxes, melds
