"""vision.layout: melds from tile boxes, on synthetic layouts with known melds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from layout_synth import make_layout, shuffled

from vision.layout import MIN_WAYS, group_melds, melds_with_cuts, rack_order, row_angle, rows_run_down, spacings, too_close, ways_run_down


def _row(x0: float, y0: float, sizes: list[int], gaps: list[float], w: float = 40, h: float = 56):
    """Axis-aligned tiles: melds of ``sizes`` separated by ``gaps`` (in tile widths)."""
    boxes, melds, x = [], [], x0
    for k, size in enumerate(sizes):
        meld = []
        for _ in range(size):
            boxes.append((x, y0, x + w, y0 + h))
            meld.append(len(boxes) - 1)
            x += w
        melds.append(meld)
        if k < len(gaps):
            x += gaps[k] * w
    return boxes, melds


def test_empty_and_single():
    assert group_melds([]) == []
    assert rack_order([]) == []
    assert group_melds([(10, 10, 50, 66)]) == [[0]]
    assert rack_order([(10, 10, 50, 66)]) == [0]


def test_one_row_of_melds_lone_tiles_and_pairs():
    boxes, melds = _row(0, 0, [3, 1, 2, 4], [1.0, 0.8, 1.5])
    assert group_melds(boxes) == melds


def test_reading_order_rows_top_to_bottom_then_left_to_right():
    top, top_melds = _row(100, 0, [3, 3], [1.0])
    bottom, bottom_melds = _row(0, 100, [4, 1], [2.0])
    boxes = bottom + top  # the detector's order is no order
    shift = len(bottom)
    expected = [[i + shift for i in m] for m in top_melds] + bottom_melds
    assert group_melds(boxes) == expected


def test_gap_threshold_is_relative_to_tile_width():
    for scale in (0.2, 1.0, 7.0):  # the same layout photographed closer or farther
        boxes, melds = _row(0, 0, [3, 3], [0.6], w=40 * scale, h=56 * scale)
        assert group_melds(boxes) == melds
        touching, _ = _row(0, 0, [3, 3], [0.2], w=40 * scale, h=56 * scale)
        assert group_melds(touching) == [[0, 1, 2, 3, 4, 5]]


def test_stacked_rows_do_not_link():
    boxes, _ = _row(0, 0, [3], [])
    boxes += [(x1 + 10, y1 + 60, x2 + 10, y2 + 60) for x1, y1, x2, y2 in boxes]
    assert group_melds(boxes) == [[0, 1, 2], [3, 4, 5]]


@pytest.mark.parametrize("tilt", [-20.0, -12.0, 7.0, 20.0])
def test_tilted_rows(tilt):
    rng = np.random.default_rng(int(tilt) + 100)
    layout = make_layout(rng, tilt=tilt, max_perspective=0.3, rows=3)
    assert abs(math.degrees(row_angle(layout.boxes)) - tilt) < 3.0
    assert group_melds(layout.boxes) == layout.melds


@pytest.mark.parametrize("tilt", [38.0, 40.0])
def test_rows_turned_nearly_diagonal(tilt):
    """A table photographed from its corner, its rows turned about 40 degrees: the upright boxes of its tiles cannot
    be turned back to the tiles' sizes, and are far wider than a tile along the row. The tiles' width along the row
    is the spacing of touching neighbours, well under the box's: before, it was taken for no touching pairs at all,
    the box's width stood in, and melds a gap apart joined."""
    failures = []
    for seed in range(100):
        layout = make_layout(np.random.default_rng(seed), tilt=tilt, max_perspective=0.3, rows=2)
        if group_melds(layout.boxes) != layout.melds:
            failures.append(seed)
    assert failures == []


@pytest.mark.parametrize("tilt", [40.0, 44.0])
@pytest.mark.parametrize("rows", [1, 2])
def test_rows_turned_nearly_diagonal_run_the_way_more_tiles_touch(tilt, rows):
    """Rows turned near 45 degrees: folded to a quarter turn, the boxes cannot say whether the rows run across the
    photo or down it, and neither way is the likelier by default; the way more tiles touch their neighbour is the
    rows' (before, the photo as taken won unless clearly more touched the other way, and a row was cut across)."""
    failures = []
    for seed in range(100):
        layout = make_layout(np.random.default_rng(seed), tilt=tilt, max_perspective=0.3, rows=rows)
        if sorted(map(sorted, group_melds(layout.boxes))) != sorted(map(sorted, layout.melds)):
            failures.append(seed)
    assert failures == []


def test_synthetic_layouts_exact_grouping_and_order():
    """300 seeded layouts: 1-4 rows of melds (1-6 tiles), gaps 0.7-2.5 tile widths between melds,
    roll up to 20 degrees, perspective up to 1.6x, crooked rows, noisy boxes, shuffled."""
    failures = []
    for seed in range(300):
        rng = np.random.default_rng(seed)
        layout = make_layout(rng)
        boxes, melds = shuffled(layout, rng)
        if group_melds(boxes) != melds:
            failures.append((seed, round(layout.tilt_deg, 1), round(layout.perspective, 2)))
    assert failures == []


@settings(max_examples=60, derandomize=True, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_grouping_is_a_partition_and_ignores_input_order(seed):
    rng = np.random.default_rng(seed)
    layout = make_layout(rng, meld_sizes=(1, 2, 3, 4, 5, 6, 7, 8))
    got = group_melds(layout.boxes)
    assert sorted(i for g in got for i in g) == list(range(len(layout.boxes)))
    assert got == layout.melds
    boxes, melds = shuffled(layout, rng)
    assert group_melds(boxes) == melds


def test_rack_order_two_tiers_tilted():
    """A rack: two tiers of tiles, touching or with holes; order is tier by tier, left to right."""
    for seed in range(40):
        rng = np.random.default_rng(1000 + seed)
        layout = make_layout(
            rng, rows=2, max_tilt=15.0, max_perspective=0.3, gap_between=(0.0, 1.5), meld_sizes=(1, 2, 3, 4)
        )
        boxes, melds = shuffled(layout, rng)
        assert rack_order(boxes) == [i for m in melds for i in m], f"seed {1000 + seed}"


def test_rows_running_down_the_photo():
    """A photo taken from the side of the table (or turned a quarter): the rows run down the image.

    The row direction folded modulo 90 degrees cannot tell rows from columns; the tiles that touch
    can (tiles of a meld touch along the row, rows lie apart). Before, every meld came out split
    into lone tiles or cut across into "columns".
    """
    boxes, melds = [], []
    for r, (sizes, gaps) in enumerate([([3, 4], [1.0]), ([5, 1, 2], [0.7, 1.2]), ([3, 3], [0.9])]):
        row, row_melds = _row(r * 10, r * 70, sizes, gaps)
        melds += [[i + len(boxes) for i in m] for m in row_melds]
        boxes += row
    sideways = [(y1, x1, y2, x2) for x1, y1, x2, y2 in boxes]  # w 56 across, h 40 along the rows
    got = group_melds(sideways)
    assert sorted(map(sorted, got)) == sorted(map(sorted, melds))
    assert group_melds(boxes) == melds  # the same table photographed upright is read as before
    # and the reader is told the rows run down (it reads such a photo turned a quarter, vision.turn)
    assert rows_run_down(sideways) and not rows_run_down(boxes) and not rows_run_down([])


def _columns_side_by_side() -> tuple[list[tuple[float, float, float, float]], list[list[int]]]:
    """Three runs laid one beside another, each running down the photo, close enough that their tiles touch across
    as well as along: a table taken from its side (tiles lying on their side, 56 wide and 40 high), its melds laid
    close. The boxes alone cannot tell which way the rows run."""
    boxes, melds = [], []
    for c, size in enumerate([3, 3, 3]):
        meld = []
        for k in range(size):
            x, y = c * 58.0, k * 40.0
            boxes.append((x, y, x + 56.0, y + 40.0))
            meld.append(len(boxes) - 1)
        melds.append(meld)
    return boxes, melds


def test_the_way_tiles_lie_says_which_way_rows_run():
    """Tiles of a meld lie side by side, each the same way up: lying on their side (read a quarter turned), their
    rows run down; upright or upside down, across. A tile no turn reads a number on (NaN) says nothing, nor does one
    turned near 45 degrees (a meld laid slantwise)."""
    assert ways_run_down([90.0, -88.0, 95.0, math.nan]) is True
    assert ways_run_down([3.0, 178.0, -175.0, -2.0, 90.0]) is False  # four of five: the 75% that must agree
    assert ways_run_down([0.0, 90.0, 180.0, -90.0]) is None  # as many each way
    assert ways_run_down([90.0] * (MIN_WAYS - 1) + [math.nan] * 5) is None  # too few known
    assert ways_run_down([45.0, -135.0, 40.0, 90.0]) is None  # slantwise tiles are not counted
    assert ways_run_down([]) is None


def test_where_the_boxes_cannot_tell_the_way_tiles_lie_decides():
    """Runs laid close beside each other touch across their rows as much as along them: by the boxes, the rows
    run across, and each run comes out cut into threes across. The tiles read lying on their side say the rows
    run down; the melds are read whole."""
    boxes, melds = _columns_side_by_side()
    sideways_ways = [90.0] * len(boxes)
    assert not rows_run_down(boxes)
    assert rows_run_down(boxes, sideways_ways)
    assert not rows_run_down(boxes, [0.0] * len(boxes))
    assert not rows_run_down(boxes, [math.nan] * len(boxes))  # no tile read surely: as the boxes say
    assert sorted(map(sorted, group_melds(boxes))) != sorted(map(sorted, melds))
    got, cuts, wide = melds_with_cuts(boxes, down=True)
    assert sorted(map(sorted, got)) == sorted(map(sorted, melds)) and not any(cuts) and not any(wide)
    assert all(np.allclose(s, [1.0, 1.0]) for s in spacings(boxes, got, down=True))  # side by side, a width apart
    assert not too_close(boxes, down=True).any()


def test_where_the_boxes_tell_the_way_tiles_lie_is_not_asked():
    """Rows clearly touching along one way decide, whatever a few tiles read: a 6 read upright on a tile lying on
    its side reads as surely as on its own."""
    boxes, melds = _row(0, 0, [3, 4], [1.0])
    sideways = [(y1, x1, y2, x2) for x1, y1, x2, y2 in boxes]
    assert not rows_run_down(boxes, [90.0] * len(boxes))
    assert rows_run_down(sideways, [0.0] * len(sideways))
    assert group_melds(boxes, down=False) == group_melds(boxes) == melds
