"""The correction edits over a reading (app.ui.edits): pure, no Streamlit, no model."""

from __future__ import annotations

import dataclasses

import pytest

from app.ui.edits import (
    NEW_MELD,
    Add,
    Delete,
    EditError,
    Move,
    Recode,
    apply_edits,
    edits_from_json,
    edits_to_json,
    meld_near,
    new_tile_box,
    review_order,
    tile_at,
)
from engine.rules import DEFAULT_RULES
from vision.reader import check_melds
from vision.types import TWIST_UNCONFIRMED, PhotoReading, TileReading

W = 56  # tile width on the made-up photo


def _tile(code: str, x: float, y: float, meld: int | None, conf: float = 0.97, doubtful: bool = False) -> TileReading:
    return TileReading(box=(x, y, x + W, y + 78), code=code, confidence=conf, meld=meld, doubtful=doubtful,
                       alternatives=[("K7", 0.4)] if doubtful else [])


def _table() -> PhotoReading:
    """Three melds in two rows, like tests/fixtures/app/table.jpg: the last one misread."""
    tiles = [
        _tile("R10", 60, 60, 0), _tile("R11", 116, 60, 0), _tile("R12", 172, 60, 0),
        _tile("B9", 420, 60, 1), _tile("K9", 476, 60, 1), _tile("R9", 532, 60, 1),
        _tile("K5", 420, 240, 2), _tile("K6", 476, 240, 2), _tile("B8", 532, 240, 2, conf=0.52, doubtful=True),
        _tile("O3", 700, 480, None),  # a lone tile
    ]
    groups = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    return PhotoReading(path="t.jpg", width=800, height=600, tiles=tiles, melds=check_melds(tiles, groups, DEFAULT_RULES))


def _rack() -> PhotoReading:
    tiles = [_tile(c, 100 + 62 * k, 60, None) for k, c in enumerate(["K8", "R13", "O9"])]
    return PhotoReading(path="r.jpg", width=800, height=200, tiles=tiles, melds=[], rack=True)


def _melds(fixed) -> list[tuple[list[str], bool, int]]:
    return [(m.codes, m.valid, m.value) for m in fixed.reading.melds]


def test_no_edits_is_the_reading_itself():
    fixed = apply_edits(_table(), [])
    assert _melds(fixed) == [(["R10", "R11", "R12"], True, 33), (["B9", "K9", "R9"], True, 27), (["K5", "K6", "B8"], False, 0)]
    assert fixed.reading.codes() == [t.code for t in _table().tiles]
    assert fixed.tile_ids == tuple(range(10)) and fixed.meld_ids == (0, 1, 2) and not fixed.edited


def test_recode_makes_the_meld_valid_and_the_tile_sure():
    fixed = apply_edits(_table(), [Recode(8, "k7")])
    assert _melds(fixed)[2] == (["K5", "K6", "K7"], True, 18)
    tile = fixed.reading.tiles[8]
    assert tile.confidence == 1.0 and not tile.doubtful and tile.alternatives == []
    assert fixed.edited == {8}


def test_a_twist_joker_a_person_confirms_is_no_longer_doubted():
    reading = _table()
    reading.tiles[9] = dataclasses.replace(reading.tiles[9], code="JD", doubtful=True, doubt=TWIST_UNCONFIRMED)
    assert apply_edits(reading, []).reading.tiles[9].doubt == TWIST_UNCONFIRMED
    tile = apply_edits(reading, [Recode(9, "JD")], twist=True).reading.tiles[9]
    assert tile.code == "JD" and not tile.doubtful and tile.doubt is None


def test_delete_a_false_tile_and_the_meld_is_checked_again():
    fixed = apply_edits(_table(), [Delete(8)])
    assert _melds(fixed)[2][:2] == (["K5", "K6"], False)
    assert "needs at least 3" in fixed.reading.melds[2].reason
    assert len(fixed.reading.tiles) == 9 and 8 not in fixed.tile_ids


def test_deleting_every_tile_of_a_meld_removes_the_meld():
    fixed = apply_edits(_table(), [Delete(3), Delete(4), Delete(5)])
    assert [m.codes for m in fixed.reading.melds] == [["R10", "R11", "R12"], ["K5", "K6", "B8"]]
    assert fixed.meld_ids == (0, 2)
    assert [t.meld for t in fixed.reading.tiles] == [0, 0, 0, 1, 1, 1, None]


def test_add_a_missed_tile_where_it_lies_in_the_meld():
    reading = _table()
    box = new_tile_box(reading, 256, 99)  # right of R12
    assert meld_near(reading, box) == 0
    fixed = apply_edits(reading, [Add(box, "R13", 0)])
    assert _melds(fixed)[0] == (["R10", "R11", "R12", "R13"], True, 46)
    # and on the left end it goes first
    fixed = apply_edits(reading, [Add(new_tile_box(reading, 30, 99), "R9", 0)])
    assert fixed.reading.melds[0].codes == ["R9", "R10", "R11", "R12"]
    assert fixed.tile_ids[0] == 10  # the new tile's id follows the model's tiles


def test_add_in_the_middle_of_a_gap_and_as_a_new_meld():
    reading = _table()
    fixed = apply_edits(reading, [Delete(1), Add(new_tile_box(reading, 144, 99), "R11", 0)])
    assert fixed.reading.melds[0].codes == ["R10", "R11", "R12"]
    lone = apply_edits(reading, [Add(new_tile_box(reading, 300, 500), "J", None)])
    assert [(t.code, t.meld) for t in lone.reading.tiles[-2:]] == [("J", None), ("O3", None)]  # photo order
    new = apply_edits(reading, [Add(new_tile_box(reading, 300, 500), "J", NEW_MELD)])
    assert new.reading.melds[-1].codes == ["J"] and new.meld_ids[-1] == 3


def test_tap_far_from_any_meld_is_near_none():
    reading = _table()
    assert meld_near(reading, new_tile_box(reading, 300, 500)) is None
    assert meld_near(reading, new_tile_box(reading, 330, 99)) is None  # 1.7 tiles from R12: a gap


def test_move_between_melds_and_to_a_new_one():
    reading = _table()
    fixed = apply_edits(reading, [Move(5, 2)])  # R9 from the group of 9s to the K5 meld
    assert [m.codes for m in fixed.reading.melds] == [["R10", "R11", "R12"], ["B9", "K9"], ["K5", "K6", "B8", "R9"]]
    split = apply_edits(reading, [Move(2, NEW_MELD), Move(1, 3)])  # split R10 R11 | R12 ... then merge again
    assert [m.codes for m in split.reading.melds][-1] == ["R11", "R12"]
    assert split.reading.melds[0].codes == ["R10"] and split.meld_ids == (0, 1, 2, 3)
    assert split.edited == {1, 2}


def test_merge_two_melds_the_layout_split():
    reading = _table()
    fixed = apply_edits(reading, [Move(3, 0), Move(4, 0), Move(5, 0)])
    assert fixed.reading.melds[0].codes == ["R10", "R11", "R12", "B9", "K9", "R9"]  # in photo order
    assert fixed.meld_ids == (0, 2)


def test_move_to_no_meld_makes_a_lone_tile():
    fixed = apply_edits(_table(), [Move(8, None)])
    assert fixed.reading.melds[2].codes == ["K5", "K6"]
    assert [t.code for t in fixed.reading.tiles if t.meld is None] == ["O3", "B8"]


def test_undo_is_replaying_one_edit_less():
    reading = _table()
    edits = [Recode(8, "K7"), Delete(0), Add(new_tile_box(reading, 256, 99), "R13", 0)]
    assert apply_edits(reading, edits[:-1]).reading == apply_edits(reading, edits[:2]).reading
    assert apply_edits(reading, edits[:0]).reading.codes() == reading.codes()


def test_rack_edits_keep_rack_order():
    rack = _rack()
    fixed = apply_edits(rack, [Add(new_tile_box(rack, 166, 99), "J"), Delete(2)])
    assert fixed.reading.codes() == ["K8", "J", "R13"] and fixed.reading.melds == []
    with pytest.raises(EditError, match="rack has no melds"):
        apply_edits(rack, [Move(0, NEW_MELD)])


@pytest.mark.parametrize(
    "edits, message",
    [
        ([Recode(42, "K7")], "change 1: there is no tile 42"),
        ([Delete(0), Recode(0, "K7")], "change 2: there is no tile 0"),
        ([Recode(0, "X7")], "X7"),
        ([Move(0, 17)], "no meld 17"),
        ([Add((10, 10, 5, 5), "K1")], "width and a height"),
    ],
)
def test_bad_edits_say_which_and_why(edits, message):
    with pytest.raises(EditError, match=message):
        apply_edits(_table(), edits)


def test_tile_at_a_tap():
    reading = _table()
    assert tile_at(reading, 88, 99) == 0 and tile_at(reading, 560, 280) == 8
    assert tile_at(reading, 300, 500) is None


def test_review_order_puts_doubtful_then_bad_melds_first():
    order = review_order(_table())
    assert order[0] == 8 and order[1:3] == [6, 7] and sorted(order) == list(range(10))


def test_json_round_trip_and_bad_json():
    edits = (Recode(8, "K7"), Delete(0), Add((1.0, 2.0, 30.0, 40.0), "J", NEW_MELD), Move(3, None))
    assert edits_from_json(edits_to_json(edits)) == edits
    with pytest.raises(EditError, match="change 1"):
        edits_from_json([{"op": "recode"}])
    with pytest.raises(EditError, match="unknown change"):
        edits_from_json([{"op": "flip", "tile": 1}])
    with pytest.raises(EditError, match="a list"):
        edits_from_json({"op": "delete"})
