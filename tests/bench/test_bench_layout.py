"""bench/bench_layout.py --list: a meld not read exactly is shown with what the reader read on each of its tiles
and the groups it made of them."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from bench_layout import describe, score  # noqa: E402


def test_a_meld_is_shown_with_its_readings_its_misses_and_the_boxes_on_no_label():
    tiles = [{"code": c} for c in ("R12", "O12", "K12", "J", "B9", "K9", "R9")]
    true = [[0, 1, 2, 3], [4, 5, 6]]
    # the O12 found only as a box on no label (index 7), the 9s merged with a box cut by the frame (index 8)
    pred = [[0, 7, 2, 3], [4, 5, 6, 8]]
    shown = {0: "R12", 2: "K12?", 3: "J", 4: "B9?", 5: "K6?", 6: "R9?", 7: "O12", 8: "O9?"}
    outs = score(true, pred)
    assert outs == ["missed", "merged"]
    assert describe(true[0], outs[0], pred, tiles, shown) == "missed [R12 O12!missed K12? J]  read as [R12 +O12 K12? J]"
    assert describe(true[1], outs[1], pred, tiles, shown) == "merged [B9? K9>K6? R9?]  read as [B9? K9>K6? R9? +O9?]"


def test_a_split_meld_shows_each_group_it_was_read_in():
    tiles = [{"code": c} for c in ("O1", "O2", "O3", "O4")]
    pred = [[2, 3], [0, 1]]
    shown = {0: "O1", 1: "O2", 2: "O3", 3: "O4"}
    assert score([[0, 1, 2, 3]], pred) == ["split"]
    assert describe([0, 1, 2, 3], "split", pred, tiles, shown) == "split  [O1 O2 O3 O4]  read as [O3 O4] [O1 O2]"


def test_a_turned_sidecar_turns_each_tiles_box_and_corners_with_its_photo():
    from bench_layout import turned_meta

    meta = {"image": "t.jpg", "width": 100, "height": 60, "tiles": [
        {"code": "R5", "box": [70.0, 10.0, 95.0, 20.0], "corners": [[70, 10], [95, 10], [95, 20], [70, 20]], "meld": 0}]}
    quarter = turned_meta(meta, 1)
    assert (quarter["width"], quarter["height"]) == (60, 100) and quarter["image"] == "t.jpg"
    tile = quarter["tiles"][0]
    assert tile["box"] == [40.0, 70.0, 50.0, 95.0] and tile["code"] == "R5" and tile["meld"] == 0
    assert tile["corners"] == [[50.0, 70.0], [50.0, 95.0], [40.0, 95.0], [40.0, 70.0]]
    assert turned_meta(meta, 0) == meta and meta["tiles"][0]["box"] == [70.0, 10.0, 95.0, 20.0]
