"""bench/bench_ocr.py: a rendered tile is counted in the groups of its edition's look, a real one in "all" alone."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_ocr import groups_of  # noqa: E402


def test_a_rendered_tile_is_counted_by_its_size_shade_view_circle_and_marker() -> None:
    meta = {"view": "table", "edition": {"size": 0.3, "shades": {"B": "teal"}, "circle": True, "okey": "bar"}}
    assert groups_of(meta, "B6") == ["all", "size: small", "shade: teal", "view: table", "circle: yes",
                                     "marker under the number: bar"]
    meta = {"edition": {"size": 0.7, "circle": False, "okey": ""}}
    assert groups_of(meta, "K6") == ["all", "size: big", "circle: no", "marker under the number: none"]


def test_a_real_photos_tile_is_counted_in_all_alone() -> None:
    assert groups_of(None, "R3") == ["all"]
