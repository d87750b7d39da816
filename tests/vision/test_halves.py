"""A 10-13 boxed digit by digit is joined into one tile (vision/halves.py), and shown as doubtful."""

from __future__ import annotations

import numpy as np
from vision_fakes import FakeModel, FakeRawTile, prob_vector, raw_tile

from vision.halves import join_halves
from vision.reader import Reader
from vision.types import DOUBT_TEXT, JOINED, Image

W, H = 40.0, 56.0  # a tile's box


def scene(split_at: tuple[int, ...] = (3,), n: int = 5, below: int = 1) -> list[tuple[float, float, float, float]]:
    """``n`` tiles side by side, those at ``split_at`` each boxed as two halves a little over half a tile wide (left
    digit, right digit); and ``below`` melds of five whole tiles in the rows below."""
    boxes = []
    for k in range(n):
        x = 60.0 + k * W
        if k in split_at:
            boxes += [(x, 102.0, x + 0.6 * W, 100.0 + H), (x + 0.4 * W, 102.0, x + W, 100.0 + H)]
        else:
            boxes.append((x, 100.0, x + W, 100.0 + H))
    return boxes + [(60.0 + k * W, 100.0 + (2 + 2 * r) * H, 60.0 + (k + 1) * W, 100.0 + (3 + 2 * r) * H)
                    for r in range(below) for k in range(5)]


def probs(codes: list[str], p: float = 0.97) -> np.ndarray:
    return np.stack([prob_vector({c: p}) for c in codes])


class Classify:
    """Reads every box it is shown as ``code``; remembers the boxes."""

    def __init__(self, code: str) -> None:
        self.code, self.asked = code, []

    def __call__(self, boxes: np.ndarray) -> np.ndarray:
        self.asked.append(np.asarray(boxes).tolist())
        return probs([self.code] * len(boxes))


def test_two_halves_spanning_one_tile_are_joined_where_the_joined_box_reads_as_a_10_13():
    boxes = np.array(scene())  # a B13 in halves at boxes 3 and 4
    classify = Classify("B13")
    pairs, joined, joined_probs = join_halves(boxes, classify)
    assert pairs == [(3, 4)]
    assert joined.tolist() == [[60.0 + 3 * W, 102.0, 60.0 + 4 * W, 100.0 + H]]  # the tile's face, both halves
    assert classify.asked == [joined.tolist()] and joined_probs.shape == (1, probs(["B13"]).shape[1])


def test_halves_stay_apart_where_the_joined_box_is_no_10_13():
    boxes = np.array(scene())
    assert join_halves(boxes, Classify("B8"))[0] == []  # the joined box reads as another number
    assert join_halves(boxes, Classify("J"))[0] == []


def test_only_boxes_closer_than_two_tiles_can_lie_spanning_one_tile_are_joined():
    # tiles side by side are two tiles, whatever their joined box would read; the classifier is not even asked
    never = Classify("B13")
    assert join_halves(np.array(scene(split_at=())), never)[0] == [] and never.asked == []
    # a tile found twice, the second box half a tile on: together they span one and a half tiles
    boxes = np.array(scene(split_at=()))
    twice = np.insert(boxes, 3, boxes[2] + np.array([0.5 * W, 0.0, 0.5 * W, 0.0]), axis=0)
    assert join_halves(twice, never)[0] == [] and never.asked == []
    assert join_halves(np.array(scene())[:2], never)[0] == []  # two boxes, no row to measure a tile's width on


def test_two_pairs_of_halves_are_two_tiles():
    # an R10 and a B13 in halves in a row of seven (the photo's whole tiles show how wide a tile is)
    pairs, joined, _ = join_halves(np.array(scene(split_at=(1, 5), n=7, below=2)), Classify("R10"))
    assert sorted(pairs) == [(1, 2), (6, 7)] and len(joined) == 2


def test_the_reader_shows_a_joined_tile_as_doubtful_with_its_reason():
    tiles = [raw_tile((60.0 + k * W, 100.0, 60.0 + (k + 1) * W, 100.0 + H), {c: 0.99}) for k, c in enumerate(["B11", "B12", "B13"])]
    tiles[2] = FakeRawTile(tiles[2].box, tiles[2].det_score, tiles[2].probs, joined=True)
    reading = Reader(model=FakeModel(tiles)).read(Image(rgb=np.zeros((300, 400, 3), np.uint8), path="t.jpg"))
    assert [(t.code, t.doubtful, t.doubt) for t in reading.tiles] == [
        ("B11", False, None), ("B12", False, None), ("B13", True, JOINED)]
    assert JOINED in DOUBT_TEXT and reading.melds[0].codes == ["B11", "B12", "B13"] and reading.melds[0].valid


def test_two_boxes_round_one_centre_are_one_tile_found_twice_not_halves():
    boxes = np.array(scene(split_at=()))
    # a second box on tile 2, a little lower and narrower (it takes in something lying below the tile)
    twice = np.insert(boxes, 3, boxes[2] + np.array([0.05 * W, 0.1 * H, -0.05 * W, 0.1 * H]), axis=0)
    never = Classify("B13")
    assert join_halves(twice, never)[0] == [] and never.asked == []
