"""Two melds laid nearly touching in a row: the layout offers the wider gaps, the rules decide."""

from __future__ import annotations

import numpy as np
import pytest
from vision_fakes import FakeModel, raw_tile

from engine.rules import DEFAULT_RULES, HouseRules
from vision.layout import GAP_FACTOR, SOFT_GAP, group_melds, melds_with_cuts
from vision.reader import Reader
from vision.regroup import split_by_rules, valid_meld
from vision.types import Image

W, H = 40.0, 56.0  # a tile's box


def row(gaps: list[float], x0: float = 60.0, y: float = 100.0) -> list[tuple[float, float, float, float]]:
    """Tiles in one row; ``gaps[k]`` is the gap before tile k + 1, in tile widths."""
    boxes, x = [], x0
    for k in range(len(gaps) + 1):
        boxes.append((x, y, x + W, y + H))
        if k < len(gaps):
            x += W + gaps[k] * W
    return boxes


def split(codes: str, cuts: tuple[int, ...], rules: HouseRules = DEFAULT_RULES) -> list[list[str]]:
    tiles = codes.split()
    groups = split_by_rules([list(range(len(tiles)))], [cuts], tiles, rules)
    return [[tiles[i] for i in g] for g in groups]


# --------------------------------------------------------------------------- the layout's candidate cuts


def test_a_wider_gap_in_a_row_is_a_candidate_cut_not_a_meld_gap():
    boxes = row([0.02, 0.0, 0.03, 0.3, 0.01, 0.02])  # 4 tiles, a gap of 0.3 tile, 3 tiles
    assert SOFT_GAP < 0.3 < GAP_FACTOR
    groups, cuts = melds_with_cuts(boxes)
    assert groups == group_melds(boxes) == [[0, 1, 2, 3, 4, 5, 6]]  # the boxes alone keep them together ...
    assert cuts == [(4,)]  # ... and offer the cut before tile 4


def test_tiles_laid_touching_offer_no_cut_and_a_wide_gap_is_a_meld_gap():
    touching = row([0.0, 0.05, 0.02, 0.04])
    assert melds_with_cuts(touching)[1] == [()]
    apart = row([0.0, 0.02, 0.8, 0.0, 0.01])
    groups, cuts = melds_with_cuts(apart)
    assert groups == [[0, 1, 2], [3, 4, 5]]
    assert cuts == [(), ()]


# --------------------------------------------------------------------------- the rules decide


def test_a_group_and_a_group_laid_close_are_two_melds():
    assert split("K12 R12 B12 O12 K1 B1 R1", (4,)) == [["K12", "R12", "B12", "O12"], ["K1", "B1", "R1"]]


def test_a_valid_meld_laid_loosely_stays_whole():
    assert split("R4 R5 R6 R7 R8 R9", (3,)) == [["R4", "R5", "R6", "R7", "R8", "R9"]]


def test_a_group_no_cut_makes_valid_stays_whole():
    # a misread tile (R8 read as K8) is for the doubt to show, not for the grouping to hide
    assert split("R4 R5 R6 R7 K8 R9", (3,)) == [["R4", "R5", "R6", "R7", "K8", "R9"]]


def test_a_meld_beside_a_short_cluster_is_a_meld_and_the_cluster():
    assert split("B9 B10 B11 B12 K5 K6", (4,)) == [["B9", "B10", "B11", "B12"], ["K5", "K6"]]


def test_short_clusters_alone_are_no_reason_to_cut():
    assert split("R4 R5 K9 K10", (2,)) == [["R4", "R5", "K9", "K10"]]


def test_the_fewest_cuts_win_and_all_valid_parts_beat_a_short_one():
    # R1..R6 then K7 K8 K9: one cut makes two valid melds; cutting at 3 too would make three
    assert split("R1 R2 R3 R4 R5 R6 K7 K8 K9", (3, 6)) == [["R1", "R2", "R3", "R4", "R5", "R6"], ["K7", "K8", "K9"]]
    # O5 O6 O7 | O8 O9 K11 K12 K13: cut at 5 gives a valid run and a valid run; at 3 a run and junk
    assert split("O5 O6 O7 O8 O9 K11 K12 K13", (3, 5)) == [["O5", "O6", "O7", "O8", "O9"], ["K11", "K12", "K13"]]


def test_jokers_and_house_rules_count():
    # a joker counts wherever it stands: the run, then a group of 3s with the joker for the third colour
    assert split("R11 R12 R13 J B3 K3", (3,)) == [["R11", "R12", "R13"], ["J", "B3", "K3"]]
    assert split("R10 R11 J R13 B3 K3", (4,)) == [["R10", "R11", "J", "R13"], ["B3", "K3"]]  # the joker is R12
    wrap = HouseRules(wrap_around=True)
    assert split("R12 R13 R1 K5 K6 K7", (3,), wrap) == [["R12", "R13", "R1"], ["K5", "K6", "K7"]]
    assert split("R12 R13 R1 K5 K6 K7", (3,)) == [["R12", "R13", "R1", "K5", "K6", "K7"]]  # no wrap: no valid cut
    assert valid_meld(["R12", "R13", "R1"], wrap) and not valid_meld(["R12", "R13", "R1"], DEFAULT_RULES)


def test_groups_and_cuts_must_pair_up():
    with pytest.raises(ValueError, match="2 groups but 1 lists of cuts"):
        split_by_rules([[0, 1, 2], [3, 4, 5]], [()], ["R1"] * 6, DEFAULT_RULES)


# --------------------------------------------------------------------------- in the reader


def test_the_reader_reads_two_melds_laid_close_as_two():
    boxes = row([0.02, 0.0, 0.03, 0.3, 0.01, 0.02])
    codes = ["K12", "R12", "B12", "O12", "K1", "B1", "R1"]
    model = FakeModel([raw_tile(b, {c: 0.97}) for b, c in zip(boxes, codes)])
    reading = Reader(model=model).read(Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg"))
    assert [m.codes for m in reading.melds] == [["K12", "R12", "B12", "O12"], ["K1", "B1", "R1"]]
    assert all(m.valid for m in reading.melds)
    assert [t.meld for t in reading.tiles] == [0, 0, 0, 0, 1, 1, 1]
    assert not any("not valid" in w for w in reading.warnings)
