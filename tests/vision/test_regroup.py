"""Two melds laid nearly touching in a row, and a box crowding a meld: the layout offers, the rules decide."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from vision_fakes import FakeModel, prob_vector, raw_tile

from engine.rules import DEFAULT_RULES, HouseRules
from vision.consistent import likeliest_meld
from vision.layout import CROWD, GAP_FACTOR, SOFT_GAP, WIDE_GAP, close_at_own_width, crowded, group_melds, melds_with_cuts, spacings, too_close
from vision.reader import Reader
from vision.regroup import codes_meld, part_at_joint, set_aside, split_by_rules, valid_meld
from vision.types import CROWDED, DOUBT_TEXT, OVERLAPPING, TOO_CLOSE, Image

W, H = 40.0, 56.0  # a tile's box


def row(gaps: list[float], x0: float = 60.0, y: float = 100.0) -> list[tuple[float, float, float, float]]:
    """Tiles in one row; ``gaps[k]`` is the gap before tile k + 1, in tile widths."""
    boxes, x = [], x0
    for k in range(len(gaps) + 1):
        boxes.append((x, y, x + W, y + H))
        if k < len(gaps):
            x += W + gaps[k] * W
    return boxes


def split(codes: str, cuts: tuple[int, ...], rules: HouseRules = DEFAULT_RULES, wide: tuple[int, ...] | None = None) -> list[list[str]]:
    tiles = codes.split()
    groups = split_by_rules([list(range(len(tiles)))], [cuts], codes_meld(tiles, rules), None if wide is None else [wide])
    return [[tiles[i] for i in g] for g in groups]


# --------------------------------------------------------------------------- the layout's candidate cuts


def test_a_wider_gap_in_a_row_is_a_candidate_cut_not_a_meld_gap():
    boxes = row([0.02, 0.0, 0.03, 0.3, 0.01, 0.02])  # 4 tiles, a gap of 0.3 tile, 3 tiles
    assert SOFT_GAP < 0.3 < GAP_FACTOR
    groups, cuts, _ = melds_with_cuts(boxes)
    assert groups == group_melds(boxes) == [[0, 1, 2, 3, 4, 5, 6]]  # the boxes alone keep them together ...
    assert cuts == [(4,)]  # ... and offer the cut before tile 4


def test_tiles_laid_touching_offer_no_cut_and_a_wide_gap_is_a_meld_gap():
    touching = row([0.0, 0.05, 0.02, 0.04])
    assert melds_with_cuts(touching)[1] == [()]
    apart = row([0.0, 0.02, 0.8, 0.0, 0.01])
    groups, cuts, _ = melds_with_cuts(apart)
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


def test_a_meld_beside_a_cluster_that_is_no_meld_comes_apart_at_a_wide_gap():
    # K4..K8, a gap of a third of a tile, then B12 R5 O8 (tiles still being laid): no cut makes valid melds only
    assert SOFT_GAP < WIDE_GAP < 0.35 < GAP_FACTOR
    boxes = row([0.0, 0.02, 0.0, 0.01, 0.35, 0.0, 0.02])
    groups, cuts, wide = melds_with_cuts(boxes)
    assert groups == [list(range(8))] and cuts == [(5,)] and wide == [(5,)]
    codes = "K4 K5 K6 K7 K8 B12 R5 O8"
    assert split(codes, (5,)) == [codes.split()]  # the rules alone keep them together
    assert split(codes, (5,), wide=(5,)) == [["K4", "K5", "K6", "K7", "K8"], ["B12", "R5", "O8"]]


def test_a_wide_gap_cuts_nothing_the_rules_can_cut_nor_a_valid_meld():
    # the rules' own cut wins where there is one
    assert split("R1 R2 R3 R4 R5 R6 K7 K8 K9", (3, 6), wide=(3,)) == [["R1", "R2", "R3", "R4", "R5", "R6"], ["K7", "K8", "K9"]]
    # a valid meld laid loosely stays whole
    assert split("R4 R5 R6 R7 R8", (3,), wide=(3,)) == [["R4", "R5", "R6", "R7", "R8"]]
    # a gap the boxes show as narrow is never cut this way
    assert melds_with_cuts(row([0.0, 0.02, 0.2, 0.0, 0.01]))[1:] == ([(3,)], [()])


def test_two_clusters_that_are_no_meld_come_apart_at_a_wide_gap():
    # R9 K5 R12 B3, a third of a tile, then J R5: two clusters still being laid, neither a meld, are two
    boxes = row([0.02, 0.0, 0.03, 0.4, 0.01])
    groups, cuts, wide = melds_with_cuts(boxes)
    assert groups == [list(range(6))] and wide == [(4,)]
    codes = "R9 K5 R12 B3 J R5"
    assert split(codes, cuts[0]) == [codes.split()]  # the rules alone keep them together
    assert split(codes, cuts[0], wide=wide[0]) == [["R9", "K5", "R12", "B3"], ["J", "R5"]]
    # and at every wide gap of the group
    assert split("R4 K9 O2 B7 R11 K1", (2, 3), wide=(2, 3)) == [["R4", "K9"], ["O2"], ["B7", "R11", "K1"]]


def test_groups_and_cuts_must_pair_up():
    with pytest.raises(ValueError, match="2 groups but 1 lists of cuts"):
        split_by_rules([[0, 1, 2], [3, 4, 5]], [()], codes_meld(["R1"] * 6, DEFAULT_RULES))
    with pytest.raises(ValueError, match="2 groups but 2 lists of cuts and 1 of wide ones"):
        split_by_rules([[0, 1, 2], [3, 4, 5]], [(), ()], codes_meld(["R1"] * 6, DEFAULT_RULES), [()])


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


def melds_read(gaps: list[float], codes: str) -> list[tuple[list[str], bool]]:
    """The melds the reader reads (their codes, valid or not) from a row of tiles read surely as ``codes``, laid
    with ``gaps`` (tile widths) between them."""
    model = FakeModel([raw_tile(b, {c: 0.97}) for b, c in zip(row(gaps), codes.split())])
    reading = Reader(model=model).read(Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg"))
    return [(m.codes, m.valid) for m in reading.melds]


def test_the_reader_reads_a_meld_and_a_cluster_beside_it_at_a_wide_gap_apart():
    assert melds_read([0.0, 0.02, 0.0, 0.01, 0.35, 0.0, 0.02], "K4 K5 K6 K7 K8 B12 R5 O8") == [
        (["K4", "K5", "K6", "K7", "K8"], True), (["B12", "R5", "O8"], False)]


def test_the_reader_reads_two_clusters_that_are_no_meld_at_a_wide_gap_apart():
    assert melds_read([0.02, 0.0, 0.03, 0.4, 0.01], "R9 K5 R12 B3 J R5") == [
        (["R9", "K5", "R12", "B3"], False), (["J", "R5"], False)]


# --------------------------------------------------------------------------- a box crowding a meld


def laid(n: int, extra: int, x0: float = 60.0, y: float = 100.0) -> list[tuple[float, float, float, float]]:
    """``n`` boxes in row order: ``n - 1`` tiles touching, and at position ``extra`` one more box half a tile on
    from the tile before it (over the joint of two tiles, or half over the last one)."""
    lefts = [x0 + k * W for k in range(n - 1)]
    lefts.insert(extra, x0 + (extra - 0.5) * W)
    return [(x, y, x + W, y + H) for x in lefts]


def aside(codes: str, extra: int, scores: list[float] | None = None) -> tuple[list[str], list[str]]:
    tiles = codes.split()
    scores = scores or [0.9] * len(tiles)
    kept, out = set_aside([list(range(len(tiles)))], laid(len(tiles), extra), tiles, scores, DEFAULT_RULES)
    return [tiles[i] for g in kept for i in g], [tiles[i] for i in out]


def crowd(boxes: list[tuple[float, float, float, float]]) -> tuple[int, ...]:
    return crowded(spacings(boxes, [list(range(len(boxes)))])[0])


def test_tiles_side_by_side_do_not_crowd_and_a_box_half_a_tile_over_does():
    assert crowd(row([0.0, 0.02, 0.0, 0.05])) == ()
    assert spacings(row([0.0, 0.0, 0.0, 0.25]), [[0, 1, 2, 3, 4]])[0] == pytest.approx([1.0, 1.0, 1.0, 1.25])
    assert crowd(laid(5, 2)) == (1, 2, 3)  # a box over the joint of tiles 1 and 2
    assert crowd(laid(5, 4)) == (3, 4)  # a box half over the last tile
    assert CROWD > 0.5  # half a tile apart is crowded; tiles a little more than CROWD apart are not
    assert crowd(row([0.0, 0.0, CROWD - 1.0 + 0.05])) == ()


def test_a_tile_found_twice_is_set_aside_where_the_meld_is_valid_without_it():
    # O9 O10 O11 O11 O12: the second O11 box lies over the joint of O11 and O12; its box is the weaker
    assert crowd(laid(5, 3)) == (2, 3, 4)
    kept, out = aside("O9 O10 O11 O11 O12", 3, [0.9, 0.9, 0.9, 0.4, 0.9])
    assert kept == ["O9", "O10", "O11", "O12"] and out == ["O11"]


def test_a_box_over_a_joint_read_as_another_tile_is_set_aside():
    assert aside("R13 R12 R2 R11 R10 R9", 2) == (["R13", "R12", "R11", "R10", "R9"], ["R2"])
    assert aside("R6 JC B6 K6 O6", 1) == (["R6", "B6", "K6", "O6"], ["JC"])


def test_a_box_between_two_melds_laid_close_is_set_aside_and_the_melds_come_apart():
    # K3 K4 K5, then a box over the joint (read O7), then O1 O2 O3: neither meld without the other
    kept, out = aside("K3 K4 K5 O7 O1 O2 O3", 3)
    assert out == ["O7"]
    tiles = "K3 K4 K5 O7 O1 O2 O3".split()
    groups, _ = set_aside([list(range(7))], laid(7, 3), tiles, [0.9] * 7, DEFAULT_RULES)
    assert [[tiles[i] for i in g] for g in groups] == [["K3", "K4", "K5"], ["O1", "O2", "O3"]]
    # one valid meld left whole beats two: a tile found twice inside a run stays a run
    assert aside("R4 R5 R6 R6 R7 R8 R9", 3)[1] == ["R6"]
    assert set_aside([list(range(7))], laid(7, 3), "R4 R5 R6 R6 R7 R8 R9".split(), [0.9] * 7, DEFAULT_RULES)[0] == [
        [0, 1, 2, 4, 5, 6]]


def test_of_two_boxes_on_one_tile_the_one_off_its_place_goes_and_then_the_weaker():
    codes = ["B4", "R4", "O4", "O4"]
    # the second O4 box lies half over the first: the meld is evenly laid without it, whatever the scores
    for scores in ([0.9, 0.9, 0.8, 0.3], [0.9, 0.9, 0.3, 0.8]):
        assert set_aside([[0, 1, 2, 3]], laid(4, 3), codes, scores, DEFAULT_RULES) == ([[0, 1, 2]], [3])
    # two boxes round the same centre (one a little taller): either leaves it even, so the weaker goes
    boxes = row([0.0, 0.0]) + [(60.0 + 2 * W, 95.0, 60.0 + 3 * W, 105.0 + H)]
    assert set_aside([[0, 1, 2, 3]], boxes, codes, [0.9, 0.9, 0.8, 0.3], DEFAULT_RULES) == ([[0, 1, 2]], [3])
    assert set_aside([[0, 1, 2, 3]], boxes, codes, [0.9, 0.9, 0.3, 0.8], DEFAULT_RULES) == ([[0, 1, 3]], [2])


def test_nothing_is_set_aside_from_a_valid_meld_a_short_one_or_where_it_would_not_help():
    assert aside("R4 R5 R6 R7", 2) == (["R4", "R5", "R6", "R7"], [])  # valid as read: squeezed, not crowded
    assert aside("K3 K3 K4", 1) == (["K3", "K3", "K4"], [])  # the rest would be 2 tiles: no meld to check
    assert aside("R4 R5 K9 R6 R7", 4) == (["R4", "R5", "K9", "R6", "R7"], [])  # only K9 would help: not crowded
    assert aside("R4 R5 R5 R7 R9", 2) == (["R4", "R5", "R5", "R7", "R9"], [])  # no crowded tile makes it valid
    # tiles laid side by side crowd nothing, whatever the reading
    assert set_aside([[0, 1, 2, 3, 4]], row([0.0] * 4), "O9 O10 O11 O11 O12".split(), [0.9] * 5, DEFAULT_RULES) == (
        [[0, 1, 2, 3, 4]], [])


def test_the_rest_is_judged_by_what_its_tiles_can_be_read_as():
    # O9 O10 O11 O11 O12, the O9 read as O6 (O9 named too) and the second O11 box over a joint: as read no crowded
    # tile's going leaves a meld; asked what the rest can be read as, the crowded box goes and O6/O9 O10 O11 O12 stays
    tiles = "O6 O10 O11 O11 O12".split()
    boxes, scores = laid(5, 3), [0.9, 0.9, 0.9, 0.4, 0.9]
    assert set_aside([[0, 1, 2, 3, 4]], boxes, tiles, scores, DEFAULT_RULES) == ([[0, 1, 2, 3, 4]], [])

    def is_meld(part: tuple[int, ...]) -> bool:
        return any(valid_meld([c if i == 0 else tiles[i] for i in part], DEFAULT_RULES) for c in ("O6", "O9"))

    assert set_aside([[0, 1, 2, 3, 4]], boxes, tiles, scores, DEFAULT_RULES, is_meld) == ([[0, 1, 2, 4]], [3])


def test_the_reader_reads_a_box_crowding_a_meld_on_its_own_and_doubtful():
    boxes = laid(5, 3)
    codes = ["O9", "O10", "O11", "O11", "O12"]
    model = FakeModel([raw_tile(b, {c: 0.97}, score=0.45 if k == 3 else 0.9) for k, (b, c) in enumerate(zip(boxes, codes))])
    reading = Reader(model=model).read(Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg"))
    assert len(reading.tiles) == 5  # set aside, never dropped: it may still be a tile
    assert [m.codes for m in reading.melds] == [["O9", "O10", "O11", "O12"]] and reading.melds[0].valid
    extra = [t for t in reading.tiles if t.meld is None]
    assert len(extra) == 1 and extra[0].box == boxes[3]
    assert extra[0].doubtful and extra[0].doubt == CROWDED and CROWDED in DOUBT_TEXT
    # the two tiles it lies across are doubtful too: which of the three boxes is no tile, the rules only guess
    # (vision.outline.overlapped); the rest of the meld stays sure
    assert [(t.code, t.doubt) for t in reading.tiles if t.doubtful and t.meld is not None] == [
        ("O11", OVERLAPPING), ("O12", OVERLAPPING)]


# --------------------------------------------------------------------------- two melds laid touching


def joint(codes: str, boxes: list[tuple[float, float, float, float]] | None = None) -> list[list[str]]:
    tiles = codes.split()
    boxes = boxes or row([0.0] * (len(tiles) - 1))
    return [[tiles[i] for i in g] for g in part_at_joint([list(range(len(tiles)))], boxes, codes_meld(tiles, DEFAULT_RULES))]


def test_two_melds_laid_touching_part_at_the_one_joint_that_makes_both_valid():
    assert melds_with_cuts(row([0.0] * 5))[1] == [()]  # no gap to cut at
    assert joint("K5 R5 J K6 B6 O6") == [["K5", "R5", "J"], ["K6", "B6", "O6"]]
    assert joint("R1 R2 R3 R4 K9 B9 O9") == [["R1", "R2", "R3", "R4"], ["K9", "B9", "O9"]]


def test_a_touching_group_stays_whole_where_the_rules_cannot_say_where_to_part_it():
    # R1 R2 R3 | R4 K4 B4 O4 and R1 R2 R3 R4 | K4 B4 O4: two joints, either could be the one
    assert joint("R1 R2 R3 R4 K4 B4 O4") == [["R1", "R2", "R3", "R4", "K4", "B4", "O4"]]
    # no joint leaves two valid melds; a valid meld; too short to be two melds
    assert joint("K5 R5 J K6 B6 O7") == [["K5", "R5", "J", "K6", "B6", "O7"]]
    assert joint("R1 R2 R3 R4 R5 R6") == [["R1", "R2", "R3", "R4", "R5", "R6"]]
    assert joint("K5 R5 B5 K6 B6") == [["K5", "R5", "B5", "K6", "B6"]]


def test_a_group_with_a_tile_found_twice_is_not_parted_at_a_false_joint():
    # B9 B10 B11 B11 B12 B13: the second B11 box lies half a tile over; its joints are no melds laid touching
    boxes = laid(6, 3)
    assert crowd(boxes)
    assert joint("B9 B10 B11 B11 B12 B13", boxes) == [["B9", "B10", "B11", "B11", "B12", "B13"]]
    assert joint("B9 B10 B11 B11 B12 B13") == [["B9", "B10", "B11"], ["B11", "B12", "B13"]]  # tiles a width apart: two


def test_the_reader_reads_two_melds_laid_touching_as_two():
    assert melds_read([0.0, 0.02, 0.0, 0.01, 0.0], "O10 B10 R10 K8 B8 O8") == [
        (["O10", "B10", "R10"], True), (["K8", "B8", "O8"], True)]


# rows laid from these: melds, tiles that are none, a joker; misread, each is a tile no meld expects
_BLOCKS = ["K1 K2 K3", "R5 B5 O5", "B11 B12 B13", "K4 R4 B4 O4", "O5 O6 O7 O8", "R1 R2 R3 R4", "J", "R7", "K13 J", "B2 O9"]


@st.composite
def _rows(draw: st.DrawFn) -> list[tuple[str, float]]:
    """A row of tiles, each with the gap before it in tile widths: blocks laid touching or apart."""
    out: list[tuple[str, float]] = []
    for block in draw(st.lists(st.sampled_from(_BLOCKS), min_size=1, max_size=4)):
        between = draw(st.sampled_from([0.0, 0.02, 0.1, 0.2, 0.35, 0.6]))
        for k, code in enumerate(block.split()):
            if draw(st.integers(0, 9)) == 0:
                code = draw(st.sampled_from(["R9", "K6", "O12"]))
            out.append((code, between if k == 0 else draw(st.sampled_from([0.0, 0.02]))))
    return out


@settings(max_examples=200, derandomize=True, deadline=None)
@given(laid_out=_rows())
def test_the_rules_only_cut_rows_into_their_own_runs_of_tiles_and_never_a_valid_meld(laid_out):
    """However the tiles of a row read and lie, the rules' regrouping (cuts at gaps, then at a joint) gives back
    every tile once, each part a stretch of one group in its order; a group valid as read stays whole; a joint
    cut leaves a valid meld either side."""
    codes = [c for c, _ in laid_out]
    boxes = row([g for _, g in laid_out[1:]])
    is_meld = codes_meld(codes, DEFAULT_RULES)
    groups, cuts, wide = melds_with_cuts(boxes)
    by_gaps = split_by_rules(groups, cuts, is_meld, wide)
    parts = part_at_joint(by_gaps, boxes, is_meld)
    assert sorted(i for p in parts for i in p) == list(range(len(codes)))
    for before, after in ((groups, by_gaps), (by_gaps, parts)):
        home = {i: k for k, g in enumerate(before) for i in g}
        for p in after:
            g = before[home[p[0]]]
            assert p == g[g.index(p[0]) : g.index(p[0]) + len(p)]
        assert all(g in after for g in before if is_meld(tuple(g)))
    for g in by_gaps:
        if g not in parts:
            assert all(is_meld(tuple(p)) for p in parts if p[0] in g)


# --------------------------------------------------------------------------- a misread tile between two melds


def probs_of(*tiles: dict[str, float]) -> np.ndarray:
    return np.stack([prob_vector(t) for t in tiles])


def test_the_likeliest_meld_reads_past_a_misread_tile_its_candidates_name():
    codes, valid = likeliest_meld(probs_of({"O5": 0.97}, {"O9": 0.6, "O6": 0.35}, {"O7": 0.97}))
    assert codes == ("O5", "O6", "O7") and valid
    codes, valid = likeliest_meld(probs_of({"K1": 0.97}, {"R9": 0.97}, {"B5": 0.97}))
    assert codes == ("K1", "R9", "B5") and not valid
    with pytest.raises(ValueError, match="3 tiles or more"):
        likeliest_meld(probs_of({"K1": 0.97}, {"R9": 0.97}))


def test_the_likeliest_meld_of_a_long_row_finds_a_misread_tile_at_its_end():
    # K1..K12 read surely, then a K13 read as K3 (K13 named too); every tile with a spread of weak candidates
    weak = {"B5": 0.02, "R7": 0.02, "O2": 0.02}
    tiles = [{f"K{n}": 0.9, **weak} for n in range(1, 13)] + [{"K3": 0.55, "K13": 0.35, **weak}]
    codes, valid = likeliest_meld(probs_of(*tiles))
    assert valid and codes == tuple(f"K{n}" for n in range(1, 14))


def test_a_misread_tile_whose_true_face_is_a_candidate_does_not_hold_two_melds_together():
    probs = probs_of({"O5": 0.97}, {"O9": 0.6, "O6": 0.35}, {"O7": 0.97}, {"R6": 0.97}, {"R7": 0.97}, {"R8": 0.97})
    as_read = codes_meld(["O5", "O9", "O7", "R6", "R7", "R8"], DEFAULT_RULES)
    assert split_by_rules([[0, 1, 2, 3, 4, 5]], [(3,)], as_read) == [[0, 1, 2, 3, 4, 5]]
    by_candidates = lambda part: likeliest_meld(probs[list(part)])[1]  # noqa: E731
    assert split_by_rules([[0, 1, 2, 3, 4, 5]], [(3,)], by_candidates) == [[0, 1, 2], [3, 4, 5]]
    # a candidate no likelier than the rules' doubt does not cut (K8 is nothing like a 6)
    probs = probs_of({"O5": 0.97}, {"O9": 0.97, "K8": 0.02}, {"O7": 0.97}, {"R6": 0.97}, {"R7": 0.97}, {"R8": 0.97})
    assert split_by_rules([[0, 1, 2, 3, 4, 5]], [(3,)], lambda part: likeliest_meld(probs[list(part)])[1]) == [[0, 1, 2, 3, 4, 5]]


def test_the_reader_cuts_two_melds_a_misread_tile_held_together_and_shows_the_tile_doubtful():
    boxes = row([0.02, 0.0, 0.3, 0.01, 0.02])
    probs = [{"O5": 0.97}, {"O9": 0.6, "O6": 0.35}, {"O7": 0.97}, {"R6": 0.97}, {"R7": 0.97}, {"R8": 0.97}]
    model = FakeModel([raw_tile(b, p) for b, p in zip(boxes, probs)])
    reading = Reader(model=model).read(Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg"))
    assert [m.codes for m in reading.melds] == [["O5", "O6", "O7"], ["R6", "R7", "R8"]]
    assert all(m.valid for m in reading.melds)
    changed = reading.tiles[1]
    assert changed.code == "O6" and changed.doubtful  # the rules chose it, not the readers: someone should look


# --------------------------------------------------------------------------- boxes closer than two tiles can lie


def halves(n_whole: int, n_split: int) -> list[tuple[float, float, float, float]]:
    """``n_whole`` tiles side by side, then ``n_split`` tiles each found as two boxes a little over half a tile wide
    round its two digits (an edition whose 10-13 fill the face), as a detector that never saw it finds them; and a
    meld of five whole tiles in the row below (the photo's other tiles show how wide a tile is)."""
    boxes = row([0.0] * (n_whole - 1)) if n_whole else []
    x = 60.0 + n_whole * W
    for _ in range(n_split):
        boxes += [(x, 102.0, x + 0.6 * W, 100.0 + H), (x + 0.4 * W, 102.0, x + W, 100.0 + H)]
        x += W
    return boxes + row([0.0] * 4, y=100.0 + 2 * H)


def test_boxes_closer_than_two_tiles_can_lie_are_too_close_along_their_row():
    assert not too_close(row([0.0, 0.02, 0.0, 0.05])).any()  # side by side
    assert too_close(laid(5, 2)).tolist() == [False, True, True, True, False]  # a box over the joint of two tiles
    assert too_close(halves(3, 2)).tolist() == [False] * 3 + [True] * 4 + [False] * 5
    # only along the rows given: the table's groups the rules do not make valid
    assert not too_close(halves(3, 2), []).any()
    assert too_close(halves(3, 2), [[0, 1, 2], [3, 4, 5, 6]]).tolist() == [False] * 3 + [True] * 4 + [False] * 5
    assert not too_close([]).any() and too_close([]).shape == (0,)


def test_halves_enough_to_set_the_rows_spacing_are_close_at_the_boxes_own_width():
    # six 10-13s boxed digit by digit beside one whole tile: the spacing measured along the row is the halves', half a
    # tile, and by it the halves lie a tile apart, as tiles side by side do
    many = halves(1, 6)
    assert not too_close(many).any()
    # measured in the boxes' own width they are each other's halves, and the whole tiles are not close
    assert sorted((p.a, p.b) for p in close_at_own_width(many)) == [(k, k + 1) for k in range(1, 13, 2)]
    assert sorted((p.a, p.b) for p in close_at_own_width(halves(0, 6))) == [(k, k + 1) for k in range(0, 12, 2)]
    # where the spacing is a tile's own (whole tiles, or only a few halves), the usual measure holds and this adds none
    assert close_at_own_width(row([0.0, 0.02, 0.0, 0.05])) == []
    assert close_at_own_width(halves(3, 2)) == []
    assert close_at_own_width(laid(5, 2)) == []
    assert close_at_own_width([]) == [] and close_at_own_width(row([])) == []
    # too_close takes them in where asked (on a rack, none vouched for), but not within a meld vouched for (valid as read)
    assert too_close(many, vouched=[]).tolist() == [False] + [True] * 12 + [False] * 5
    assert too_close(many, vouched=[[1, 2, 3, 4]]).tolist() == [False] * 5 + [True] * 8 + [False] * 5
    assert not too_close(row([0.0, 0.02, 0.0, 0.05]), vouched=[]).any()
    # rows that run down the photo (taken from the table's side): the same pairs, measured down the rows
    down = [(y1, x1, y2, x2) for x1, y1, x2, y2 in many]
    assert sorted((p.a, p.b) for p in close_at_own_width(down, down=True)) == [(k, k + 1) for k in range(1, 13, 2)]


def test_a_row_of_tens_found_digit_by_digit_is_never_sure():
    # K4, then B13 R12 O11 K10 B12 R13 each found as two boxes round its two digits, every one read surely as a
    # one-digit tile; below them O5 O6 O7 O8 O9
    boxes = halves(1, 6)
    codes = ["K4", "B1", "B3", "R1", "R2", "O1", "O1", "K1", "K10", "B1", "B2", "R1", "R3", "O5", "O6", "O7", "O8", "O9"]
    model = FakeModel([raw_tile(b, {c: 0.99}) for b, c in zip(boxes, codes)])
    reading = Reader(model=model).read(Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg"))
    by_box = {t.box: t for t in reading.tiles}
    assert [by_box[b].doubtful for b in boxes] == [False] + [True] * 12 + [False] * 5
    assert TOO_CLOSE in {by_box[b].doubt for b in boxes[1:13]}


def test_a_thirteen_found_as_two_boxes_is_never_sure():
    # K4 K5 K6, then B13 and R13 each found as a "1" box and a "3" box, every one read surely: no valid meld as read;
    # below them O5 O6 O7 O8 O9
    boxes = halves(3, 2)
    codes = ["K4", "K5", "K6", "B1", "B3", "R1", "R3", "O5", "O6", "O7", "O8", "O9"]
    model = FakeModel([raw_tile(b, {c: 0.99}) for b, c in zip(boxes, codes)])
    reading = Reader(model=model).read(Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg"))
    by_box = {t.box: t for t in reading.tiles}
    assert [by_box[b].doubtful for b in boxes] == [False] * 3 + [True] * 4 + [False] * 5
    assert {by_box[b].doubt for b in boxes[3:7]} <= {TOO_CLOSE, OVERLAPPING} and TOO_CLOSE in DOUBT_TEXT
    assert TOO_CLOSE in {by_box[b].doubt for b in boxes[3:7]}


def test_a_meld_valid_as_read_vouches_for_its_boxes_but_a_rack_row_has_none():
    # the same boxes read K4 K5 K6 K7 K8 on a table: a valid meld as read, so the rules say the two close boxes are
    # two tiles laid squeezed, and nothing is doubted
    boxes = halves(3, 1)
    codes = ["K4", "K5", "K6", "K7", "K8", "O5", "O6", "O7", "O8", "O9"]
    model = FakeModel([raw_tile(b, {c: 0.99}) for b, c in zip(boxes, codes)])
    image = Image(rgb=np.zeros((300, 600, 3), np.uint8), path="t.jpg")
    table = Reader(model=model).read(image)
    assert [m.codes for m in table.melds] == [codes[:5], codes[5:]] and not any(t.doubtful for t in table.tiles)
    # on a rack no meld vouches for them: two tiles cannot stand closer than a tile width there either
    by_box = {t.box: t for t in Reader(model=model).read(image, rack=True).tiles}
    assert [by_box[b].doubt for b in boxes] == [None] * 3 + [TOO_CLOSE] * 2 + [None] * 5
