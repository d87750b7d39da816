"""Tiles lie on a real table: no two of a laid-out scene overlap on the table plane."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from datasets.synth.layouts import make_scene, table_scene
from datasets.synth.scene import TILE_H, TILE_W


def _overlaps(scene) -> list[tuple[int, int, float]]:
    """Pairs of flat tiles whose footprints share more than a speck of area (mm^2)."""
    flat = [(i, t.face[:, :2].astype(np.float32)) for i, t in enumerate(scene.tiles) if t.on_table]
    bad = []
    reach = np.hypot(TILE_W, TILE_H)
    for a in range(len(flat)):
        for b in range(a + 1, len(flat)):
            (i, p), (j, q) = flat[a], flat[b]
            if np.linalg.norm(p.mean(0) - q.mean(0)) > reach:
                continue
            area, _ = cv2.intersectConvexConvex(p, q)
            if area > 0.01:
                bad.append((i, j, float(area)))
    return bad


def test_footprints_match_tile_size() -> None:
    """The check below measures real footprints: each flat tile is a TILE_W x TILE_H rectangle."""
    scene = table_scene(np.random.default_rng(0))
    for t in scene.tiles:
        area = cv2.contourArea(t.face[:, :2].astype(np.float32))
        assert area == pytest.approx(TILE_W * TILE_H, rel=1e-3)


@pytest.mark.parametrize("kind", ["table", "mix", "loose"])
def test_no_two_tiles_overlap_on_the_table(kind: str) -> None:
    failures = []
    for seed in range(300):
        scene = make_scene(kind, np.random.default_rng(seed))
        bad = _overlaps(scene)
        if bad:
            failures.append((seed, bad[:3]))
    assert not failures, f"{len(failures)} {kind} scenes with overlapping tiles, e.g. {failures[:5]}"


def test_melds_of_different_rows_may_still_nearly_touch() -> None:
    """Nudging must not spread every table out: melds of other rows a few mm apart still happen."""
    close = 0
    for seed in range(120):
        scene = table_scene(np.random.default_rng(seed))
        tiles = [t for t in scene.tiles if t.meld is not None]
        polys = [t.face[:, :2].astype(np.float32) for t in tiles]
        for a in range(len(tiles)):
            for b in range(a + 1, len(tiles)):
                if tiles[a].meld == tiles[b].meld:
                    continue
                d = np.linalg.norm(polys[a].mean(0) - polys[b].mean(0))
                if d > 60:
                    continue
                # smallest corner-to-polygon distance, a fair stand-in for the gap between two rectangles
                gap = min(min(abs(cv2.pointPolygonTest(polys[b], tuple(map(float, c)), True)) for c in polys[a]),
                          min(abs(cv2.pointPolygonTest(polys[a], tuple(map(float, c)), True)) for c in polys[b]))
                if gap < 4.0:
                    close += 1
                    break
    assert close > 20


def test_same_seed_same_layout() -> None:
    a = table_scene(np.random.default_rng(5))
    b = table_scene(np.random.default_rng(5))
    assert [t.code for t in a.tiles] == [t.code for t in b.tiles]
    assert all(np.array_equal(s.face, t.face) for s, t in zip(a.tiles, b.tiles))
