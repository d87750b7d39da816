"""A 10-13 boxed digit by digit is joined into one tile (vision/halves.py), and shown as doubtful; on a rack, two boxes
that read as one 10-13 together are doubtful too."""

from __future__ import annotations

import numpy as np
from vision_fakes import FakeModel, FakeNumberReader, FakeRawTile, number_vector, prob_vector, raw_tile

from vision.halves import join_halves, one_number
from vision.layout import row_neighbours
from vision.reader import Reader
from vision.types import DOUBT_TEXT, JOINED, PARTIAL, Image

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


class Spans:
    """The number recogniser on spans: reads a span as ``number`` where it is as wide as one tile (one tile's two
    digits), else as no number; remembers the spans it was shown."""

    def __init__(self, number: int = 13) -> None:
        self.number, self.asked = number, []

    def __call__(self, spans: np.ndarray) -> np.ndarray:
        self.asked.append(np.asarray(spans).tolist())
        return np.stack([number_vector({self.number: 0.9} if s[2] - s[0] <= 1.05 * W else {None: 0.9}) for s in spans])


def test_two_boxes_side_by_side_that_read_as_one_10_13_together_are_marked():
    boxes = np.array(scene(below=0))  # a B13 in halves at boxes 3 and 4, in a row of five tiles
    spans = Spans()
    marked = one_number(boxes, row_neighbours(boxes), spans)
    assert np.flatnonzero(marked).tolist() == [3, 4]
    assert [60.0 + 3 * W, 102.0, 60.0 + 4 * W, 100.0 + H] in spans.asked[0]  # the two halves' span: the tile
    assert not one_number(boxes, row_neighbours(boxes), Spans(8)).any()  # together they read as another number
    never = Spans()
    assert not one_number(boxes, [], never).any() and never.asked == []


def test_the_neighbours_are_the_boxes_side_by_side_in_a_row():
    boxes = np.array(scene(split_at=(), n=3, below=1))  # a row of three, a meld of five below
    assert row_neighbours(boxes) == [(0, 1), (1, 2), (3, 4), (4, 5), (5, 6), (6, 7)]
    offset = boxes.copy()
    offset[1] += np.array([0.0, 0.5 * H, 0.0, 0.5 * H])  # half a tile lower: not level with its row
    assert (0, 1) not in row_neighbours(offset) and (1, 2) not in row_neighbours(offset)


class SpanNumbers(FakeNumberReader):
    """A number reader that also reads spans (``vision.reader.SpansReading``)."""

    def __init__(self, spans: Spans, answers: dict) -> None:
        super().__init__(answers)
        self.spans = spans

    def read_spans(self, rgb: np.ndarray, boxes: np.ndarray) -> np.ndarray:
        return self.spans(boxes)


def test_on_a_rack_one_tiles_two_digits_read_surely_apart_are_doubtful():
    # a rack seen from low down: its R13 boxed digit by digit, each half read surely (a 1 and a 3), beside an R5
    codes = ["R5", "R1", "R3", "K7"]
    boxes = [(60.0, 100.0, 60.0 + W, 100.0 + H), (60.0 + W, 102.0, 60.0 + 1.6 * W, 100.0 + H),
             (60.0 + 1.4 * W, 102.0, 60.0 + 2 * W, 100.0 + H), (60.0 + 2 * W, 100.0, 60.0 + 3 * W, 100.0 + H)]
    tiles = [raw_tile(b, {c: 0.999}) for b, c in zip(boxes, codes)]
    image = Image(rgb=np.zeros((300, 400, 3), np.uint8), path="rack.jpg")
    answers = {b: {int(c[1:]): 0.99} for b, c in zip(boxes, codes)}  # the recogniser reads each box as the classifier
    numbers = SpanNumbers(Spans(), answers)
    reading = Reader(model=FakeModel(tiles), number_reader=numbers, sideways=False, mirror=False).read(image, rack=True)
    assert [(t.code, t.doubtful, t.doubt) for t in reading.tiles] == [
        ("R5", False, None), ("R1", True, PARTIAL), ("R3", True, PARTIAL), ("K7", False, None)]
    # a table's melds are read by their rules, and its halves by their spacing: the spans are not read there
    numbers = SpanNumbers(Spans(), answers)
    Reader(model=FakeModel(tiles), number_reader=numbers, sideways=False, mirror=False).read(image)
    assert numbers.spans.asked == []
