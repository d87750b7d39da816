"""vision.hard: on a photo the reader is sure of few tiles on, it is sure of none, says why, and says to take the
photo again; a person's corrections lift the hold tile by tile."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from vision_fakes import FakeModel, raw_tile

from vision.hard import FEW_SURE_SHARE, FEW_SURE_WARNING, few_sure, held_few_sure
from vision.reader import Reader, recheck
from vision.types import DOUBT_TEXT, FEW_SURE, INK_COLOUR, Image, PhotoReading, TileReading


def _reading(sure: int, doubtful: int, warnings: tuple[str, ...] = ("meld 1 is not valid",)) -> PhotoReading:
    tiles = [TileReading(box=(10.0 * k, 0.0, 10.0 * k + 8, 11.0), code="R5", confidence=0.99) for k in range(sure)]
    tiles += [TileReading(box=(10.0 * k, 20.0, 10.0 * k + 8, 31.0), code="B7", confidence=0.4, doubtful=True,
                          doubt=INK_COLOUR if k % 2 else None) for k in range(doubtful)]
    return PhotoReading(path="p.jpg", width=400, height=300, tiles=tiles, melds=[], warnings=list(warnings))


def test_one_sure_tile_of_many_is_held():
    reading = held_few_sure(_reading(sure=1, doubtful=19))
    assert all(t.doubtful for t in reading.tiles)
    assert reading.tiles[0].doubt == FEW_SURE and FEW_SURE in DOUBT_TEXT
    assert [t.doubt for t in reading.tiles[1:]] == [INK_COLOUR if k % 2 else None for k in range(19)]  # theirs kept
    assert reading.warnings == [FEW_SURE_WARNING, "meld 1 is not valid"]
    assert [t.code for t in reading.tiles] == ["R5"] + ["B7"] * 19  # nothing read is changed, only doubted


def test_a_tenth_sure_is_not_few():
    assert not few_sure(_reading(sure=2, doubtful=18))
    reading = _reading(sure=2, doubtful=18)
    assert held_few_sure(reading) is reading


def test_a_photo_of_few_tiles_is_never_held():
    # one sure tile of nine is no sign of a hard photo: too few tiles to tell
    for sure, doubtful in ((1, 8), (0, 9), (0, 0), (3, 0)):
        reading = _reading(sure, doubtful)
        assert held_few_sure(reading) is reading


@given(st.integers(0, 40), st.integers(0, 40))
def test_after_the_hold_a_photo_is_sure_of_none_or_of_a_tenth(sure: int, doubtful: int):
    reading = held_few_sure(_reading(sure, doubtful))
    now = sum(not t.doubtful for t in reading.tiles)
    assert now == 0 or now >= FEW_SURE_SHARE * len(reading.tiles)
    assert now in (0, sure)


def test_corrections_lift_the_hold_tile_by_tile():
    held = held_few_sure(_reading(sure=1, doubtful=10, warnings=()))
    fixed = recheck(held, {0: "R5"})  # the tile it held: a person named it
    assert not fixed.tiles[0].doubtful and fixed.tiles[0].doubt is None
    assert FEW_SURE_WARNING not in fixed.warnings  # no tile is held any more
    held = held_few_sure(_reading(sure=2, doubtful=19, warnings=()))
    once = recheck(held, {0: "R5"})
    assert once.tiles[1].doubt == FEW_SURE and FEW_SURE_WARNING in once.warnings


def _rack(sure: int, unsure: int) -> FakeModel:
    """A rack of tiles in one row, ``sure`` read surely by the classifier and the rest unsure between two faces (no
    face more often than a set has it)."""
    faces = [f"{c}{n}" for n in range(1, 14) for c in "KROB"]
    tiles = [raw_tile((20 + 30 * k, 100, 46 + 30 * k, 136),
                      {faces[2 * k]: 0.9999} if k < sure else {faces[2 * k]: 0.5, faces[2 * k + 1]: 0.45})
             for k in range(sure + unsure)]
    return FakeModel(tiles)


def test_the_reader_holds_a_photo_it_is_sure_of_few_tiles_on():
    photo = Image(np.zeros((300, 800, 3), np.uint8), "rack.jpg")
    reading = Reader(model=_rack(sure=1, unsure=14), ocr=False, low_view=None).read(photo, rack=True)
    assert len(reading.tiles) == 15 and all(t.doubtful for t in reading.tiles)
    assert reading.tiles[0].code == "K1" and reading.tiles[0].doubt == FEW_SURE
    assert reading.warnings[0] == FEW_SURE_WARNING
    # with more of its tiles sure the same tile stays sure
    reading = Reader(model=_rack(sure=3, unsure=12), ocr=False, low_view=None).read(photo, rack=True)
    assert [t.doubtful for t in reading.tiles[:3]] == [False] * 3
    assert FEW_SURE_WARNING not in reading.warnings
