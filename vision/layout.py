"""Group the tiles found on a table photo into melds, from their boxes alone.

Tiles of one meld touch, side by side, in a row; melds are separated by a gap. Photos are taken
by hand: rows are tilted, far tiles are smaller than near ones (perspective), gaps are uneven and
rows are not quite straight. So:

1. the dominant row direction is estimated from the offsets between each tile and its nearest
   neighbours (angles folded modulo 90 degrees, so that neighbours in the row above or below agree
   with neighbours in the same row), and everything is measured in that rotated frame; folded so,
   it cannot tell rows from columns, so the photo is also read with x and y swapped, and that
   reading is kept when clearly more tiles touch their neighbour along it (tiles of a meld touch
   along the row, rows lie apart): a photo taken from the side of the table, or turned a quarter;
2. a tile's width along the row is measured on the photo itself: the centre spacing of touching
   neighbours, fitted against tile height (the box width is unreliable: roll and the keystone
   shear of perspective widen the boxes unevenly; far tiles are foreshortened more);
3. each tile is linked to its nearest right-hand neighbour when they overlap across the row by more
   than half a tile height and the gap between them is below ``GAP_FACTOR`` x their mean width
   (relative sizes, so perspective does not matter); mutual links form chains, the melds;
4. melds are put in reading order: rows (chains of melds level with each other, so wandering rows
   hold together) top to bottom, each left to right;
5. a group's gaps wider than ``SOFT_GAP`` x the tile width are offered as cuts (``melds_with_cuts``): two
   melds laid nearly touching, or one meld laid loosely; the rules decide which (``vision.regroup``); those wider
   than ``WIDE_GAP`` part a group that can be no valid meld;
6. a group's tiles whose centres lie closer than ``CROWD`` x the tile width to a neighbour's are crowded
   (``spacings``, ``crowded``): tiles lie side by side a width apart, so one of the two boxes is a tile found twice or a
   box over the joint of two tiles, or the meld is squeezed; again the rules decide (``vision.regroup``).

Boxes are ``(x1, y1, x2, y2)`` in image pixels (y down).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from vision.upright import known_turns

Box = tuple[float, float, float, float]

GAP_FACTOR = 0.45  # a gap wider than this x the mean tile width separates two melds
# a gap wider than this x the mean tile width may separate two melds (tiles of one meld lie closer): the
# rules decide (vision.regroup)
SOFT_GAP = 0.15
# a gap wider than this x the mean tile width separates the tiles of a group that can be no valid meld, whatever they
# are either side of it (a meld beside a cluster still being laid, or two such clusters): tiles of one meld lie much
# closer
WIDE_GAP = 0.3
OVERLAP_FACTOR = 0.5  # neighbours in one row overlap across the row by more than this x tile height
TOUCH_FACTOR = 0.15  # neighbours whose boxes are closer than this x their extent touch
ROW_AXIS_MARGIN = 1.5  # rows are taken to run down the photo only when clearly more tiles touch that way
ROW_BREAK = 0.7  # a jump across rows larger than this x tile height starts a new row
# where the boxes cannot tell, the way the tiles lie says which way the rows run (``ways_run_down``) where MIN_WAYS
# tiles or more read a number surely under some turn, and WAYS_AGREE of those lie one way: within WAY_WITHIN degrees
# of upright (or upside down), or of on their side (a meld laid slantwise runs nearer one way or the other: only
# tiles near the diagonal, where either frame serves, say neither)
MIN_WAYS = 3
WAYS_AGREE = 0.75
WAY_WITHIN = 40.0
# neighbours in a group whose centres lie closer than this x their mean width along the row crowd each other: tiles
# lie side by side, a width apart; a box shifted half a tile (over a joint, or a tile again) lies about half apart
CROWD = 0.7
# boxes closer than this x their mean width along the row, and level across it (centres within LEVEL of a tile
# height), are no two tiles (``too_close``): a little closer than CROWD, as the width of a tile turned near 45
# degrees is read from its box, which is wider than the tile
CLOSE = 0.6
LEVEL = 0.25
# the spacing measured along the rows under this share of the boxes' own width (their OWN_WIDTH percentile, along the
# row): it may be half a tile's (``close_at_own_width``)
HALF_PITCH = 0.55
OWN_WIDTH = 75


def group_melds(boxes: Sequence[Sequence[float]], down: bool | None = None) -> list[list[int]]:
    """Tiles grouped into melds, each meld's indices in reading order (left to right).

    Every tile is in exactly one group; a lone tile is a group of one. Groups are ordered as a
    person reads the table: rows top to bottom, each row left to right. ``down``: whether the rows run down the
    photo (``rows_run_down``); None: as the boxes say.
    """
    return _melds(_row_frame(boxes, down))


def melds_with_cuts(boxes: Sequence[Sequence[float]],
                    down: bool | None = None) -> tuple[list[list[int]], list[tuple[int, ...]], list[tuple[int, ...]]]:
    """``group_melds``'s groups, where each may be two melds laid nearly touching in a row (its cuts), and which of
    those gaps are wide.

    For each group, the positions ``k`` (1 .. len - 1) at which the gap between its tiles ``k - 1``
    and ``k`` is wider than ``SOFT_GAP`` x their mean width: wider than tiles of one meld lie apart,
    narrower than a gap that surely separates melds. Whether a group is cut there is for the game's
    rules to say (``vision.regroup``), not the boxes. The wide ones are those wider than ``WIDE_GAP`` x their
    mean width: a group that can be no valid meld comes apart at them. ``down``: as ``group_melds``.
    """
    frame = _row_frame(boxes, down)
    groups = _melds(frame)
    return groups, _wider(frame, groups, SOFT_GAP), _wider(frame, groups, WIDE_GAP)


def _wider(frame: "_Frame", groups: Sequence[Sequence[int]], factor: float) -> list[tuple[int, ...]]:
    """For each group, the positions ``k`` at which the gap between its tiles ``k - 1`` and ``k`` is wider than
    ``factor`` x their mean width."""
    return [tuple(k for k in range(1, len(g)) if frame.gap(g[k - 1], g[k]) > factor * (frame.w[g[k - 1]] + frame.w[g[k]]) / 2)
            for g in groups]


def spacings(boxes: Sequence[Sequence[float]], groups: Sequence[Sequence[int]],
             down: bool | None = None) -> list[np.ndarray]:
    """For each group (indices into ``boxes``, in row order): the distances between its neighbouring tiles'
    centres along the row, in tile widths (1.0: side by side). ``down``: as ``group_melds``."""
    frame = _row_frame(boxes, down)
    return [np.asarray([frame.apart(a, b) for a, b in zip(g, g[1:])]) for g in groups]


def crowded(spacing: np.ndarray) -> tuple[int, ...]:
    """The positions of a group's tiles that lie closer than ``CROWD`` tile widths to a neighbour, from the group's
    ``spacings``.

    Tiles of a meld lie side by side, a tile width apart; two boxes much closer than that are rarely two tiles.
    Which of them is not a tile, if either, is for the rules to say (``vision.regroup.set_aside``).
    """
    return tuple(sorted({p for k, d in enumerate(spacing) if d < CROWD for p in (k, k + 1)}))


def too_close(boxes: Sequence[Sequence[float]], groups: Sequence[Sequence[int]] | None = None,
              down: bool | None = None, vouched: Sequence[Sequence[int]] | None = None) -> np.ndarray:
    """A mask of the boxes in a pair of ``close_pairs``: a person should look.

    Two tiles cannot lie closer than a tile width apart, so such a box is a tile found twice, a box over the joint
    of two tiles, or one digit of a number (a 10-13 found as two boxes, ``vision.halves``). ``vouched``: where given,
    the pairs of ``close_at_own_width`` too, but those within one of these melds (laid as they are: on a table, its
    melds valid as read; on a rack, none).
    """
    frame = _row_frame(boxes, down)
    pairs = _close_pairs_in(frame, groups)
    if vouched is not None:
        meld_of = {t: m for m, g in enumerate(vouched) for t in g}
        pairs += [p for p in _own_width_pairs(frame) if meld_of.get(p.a, -1) != meld_of.get(p.b, -2)]
    out = np.zeros(len(boxes), dtype=bool)
    for pair in pairs:
        out[[pair.a, pair.b]] = True
    return out


@dataclass(frozen=True)
class ClosePair:
    """Two neighbouring boxes of a row, ``a`` before ``b``, closer than two tiles can lie."""

    a: int
    b: int
    apart: float  # their centres' distance along the row, in tile widths (as ``spacings``)
    span: float  # the tile widths the two boxes span together along the row: ~1 for one tile's two halves


def close_pairs(boxes: Sequence[Sequence[float]], groups: Sequence[Sequence[int]] | None = None,
                down: bool | None = None) -> list[ClosePair]:
    """The neighbouring boxes of a row whose centres lie closer than ``CLOSE`` tile widths apart, level with each
    other (centres within ``LEVEL`` of a tile height across the row), closest first.

    groups: the rows of touching tiles to look along (tile indices in row order); None: those ``group_melds``
    makes of ``boxes`` (on a rack, the tiles standing side by side). Tiles strewn on each other lie offset across
    the row as well (no row to speak of), and are left to ``vision.outline``. ``down``: as ``group_melds``.
    """
    return _close_pairs_in(_row_frame(boxes, down), groups)


def close_at_own_width(boxes: Sequence[Sequence[float]], down: bool | None = None) -> list[ClosePair]:
    """``close_pairs`` measured in the boxes' own width, where the spacing the photo's rows show is far narrower.

    A tile's width along its row is measured as the spacing of touching neighbours (``_pitch_ratio``). On an edition
    whose digits fill the face, a detector can box the two digits of many 10-13s apart: the spacing then measured is
    half a tile's, each digit's box reads as a tile of its own, and the halves (``vision.halves``) lie a "tile" apart.
    Where that spacing is under ``HALF_PITCH`` of the wider boxes' own width (their ``OWN_WIDTH`` percentile), the
    pairs closer than ``CLOSE`` of that width, along the rows it makes; elsewhere none.
    """
    return _own_width_pairs(_row_frame(boxes, down))


def _own_width_pairs(frame: "_Frame") -> list[ClosePair]:
    if frame.n < 2:
        return []
    own = float(np.percentile(frame.box_w / frame.h, OWN_WIDTH))
    if float(np.median(frame.w / frame.h)) >= HALF_PITCH * own:
        return []
    at_own = copy.copy(frame)  # the frame's rows and sizes, a tile as wide as the boxes
    at_own.w = own * frame.h
    return _close_pairs_in(at_own, None)


def _close_pairs_in(frame: "_Frame", groups: Sequence[Sequence[int]] | None) -> list[ClosePair]:
    found = [ClosePair(a, b, frame.apart(a, b), frame.span(a, b)) for a, b in _level_pairs(frame, groups)]
    return sorted((p for p in found if p.apart < CLOSE), key=lambda p: p.apart)


def _level_pairs(frame: "_Frame", groups: Sequence[Sequence[int]] | None) -> list[tuple[int, int]]:
    """Each two neighbours along the rows (``groups``, or the rows of touching tiles ``_melds`` makes), level with
    each other across the row."""
    rows = [list(g) for g in (_melds(frame) if groups is None else groups) if len(g) >= 2]
    return [(a, b) for g in rows for a, b in zip(g, g[1:])
            if abs(frame.v[a] - frame.v[b]) <= LEVEL * (frame.h[a] + frame.h[b]) / 2]


def _melds(frame: "_Frame") -> list[list[int]]:
    if frame.n == 0:
        return []
    n = frame.n
    right = [-1] * n
    left = [-1] * n
    for i in range(n):
        j = frame.right_neighbour(i)
        if j >= 0:
            right[i] = j
    for i, j in enumerate(right):
        if j >= 0 and (left[j] < 0 or frame.gap(left[j], j) > frame.gap(i, j)):
            left[j] = i
    parent = list(range(n))

    def find(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for j, i in enumerate(left):  # mutual links only: i's right neighbour is j and j's left is i
        if i >= 0 and right[i] == j:
            parent[find(i)] = find(j)
    chains: dict[int, list[int]] = {}
    for i in range(n):
        chains.setdefault(find(i), []).append(i)
    groups = [sorted(members, key=lambda k: frame.u[k]) for members in chains.values()]
    return _reading_order(frame, groups)


def row_neighbours(boxes: Sequence[Sequence[float]], down: bool | None = None) -> list[tuple[int, int]]:
    """Each two boxes side by side in a row of touching tiles, level with each other (centres within ``LEVEL`` of a
    tile height across the row): (a, b), a before b along the row. ``down``: as ``group_melds``."""
    return _level_pairs(_row_frame(boxes, down), None)


def rack_order(boxes: Sequence[Sequence[float]]) -> list[int]:
    """All tiles in rack order: tiers top to bottom, each tier left to right (no grouping)."""
    frame = _Frame.of(boxes)
    if frame.n == 0:
        return []
    rows = _rows(frame, [[i] for i in range(frame.n)])
    return [i for row in rows for group in row for i in group]


def row_angle(boxes: Sequence[Sequence[float]]) -> float:
    """The dominant row direction in radians, in (-pi/4, pi/4]; 0 when it cannot be told."""
    return _Frame.of(boxes).angle


# --------------------------------------------------------------------------------------------


class _Frame:
    """Tile centres and sizes in the frame rotated to the row direction (u along, v across).

    A tile's extent across the row comes from its box height (camera roll aside, perspective keeps
    horizontal edges horizontal). Its width along the row is NOT read from the box width, which
    tilt and the keystone shear of perspective inflate unevenly: it is the tile's height times the
    typical ratio "centre spacing of touching neighbours / height" measured on this very photo.
    """

    def __init__(self, xyxy: np.ndarray) -> None:
        self.n = len(xyxy)
        if self.n == 0:
            self.angle = 0.0
            self.u = self.v = self.w = self.h = np.zeros(0)
            self.box_w = np.zeros(0)
            self.candidate: list[int] = []
            return
        self.angle = _estimate_angle(xyxy) if self.n >= 2 else 0.0
        c, s = math.cos(self.angle), math.sin(self.angle)
        cx = (xyxy[:, 0] + xyxy[:, 2]) / 2.0
        cy = (xyxy[:, 1] + xyxy[:, 3]) / 2.0
        self.u = cx * c + cy * s
        self.v = -cx * s + cy * c
        box_w, _ = _unrotated_sizes(xyxy, self.angle)
        self.h = np.maximum((xyxy[:, 3] - xyxy[:, 1]) * c, 1e-6)
        self.box_w = box_w
        self.w = box_w.copy()  # provisional, replaced by the measured pitch below
        self.candidate = self._nearest_rights()
        ratio = _pitch_ratio(self, fallback=float(np.median(box_w / self.h)))
        self.w = ratio * self.h

    @classmethod
    def of(cls, boxes: Sequence[Sequence[float]]) -> "_Frame":
        arr = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
        x1 = np.minimum(arr[:, 0], arr[:, 2])
        x2 = np.maximum(arr[:, 0], arr[:, 2])
        y1 = np.minimum(arr[:, 1], arr[:, 3])
        y2 = np.maximum(arr[:, 1], arr[:, 3])
        return cls(np.stack([x1, y1, x2, y2], axis=1))

    def gap(self, i: int, j: int) -> float:
        """Gap along the row between the right edge of i and the left edge of j (negative: overlap)."""
        return float((self.u[j] - self.w[j] / 2) - (self.u[i] + self.w[i] / 2))

    def apart(self, i: int, j: int) -> float:
        """How far apart the centres of i and j lie along the row, in their mean tile width (1.0: side by side)."""
        return float(abs(self.u[j] - self.u[i]) / ((self.w[i] + self.w[j]) / 2))

    def span(self, i: int, j: int) -> float:
        """How many of their mean tile widths the boxes of i and j cover together along the row."""
        lo = min(self.u[i] - self.box_w[i] / 2, self.u[j] - self.box_w[j] / 2)
        hi = max(self.u[i] + self.box_w[i] / 2, self.u[j] + self.box_w[j] / 2)
        return float((hi - lo) / ((self.w[i] + self.w[j]) / 2))

    def touching(self) -> int:
        """How many tiles touch their nearest right-hand neighbour, by their boxes' extent along u.

        Tiles of a meld touch along the row; rows lie apart across it. Counted in both framings of a
        photo (as it is, and with x and y swapped), this tells which axis the rows run along.
        """
        count = 0
        for i, j in enumerate(self.candidate):
            if j >= 0 and self.u[j] - self.u[i] - (self.box_w[i] + self.box_w[j]) / 2 < TOUCH_FACTOR * (self.box_w[i] + self.box_w[j]) / 2:
                count += 1
        return count

    def _nearest_rights(self) -> list[int]:
        """For each tile, the nearest tile to its right in the same row (any distance), or -1: all pairs at once."""
        along = self.u[None, :] - self.u[:, None]  # [i, j]: how far j lies right of i
        half = self.h / 2
        top = np.maximum((self.v - half)[:, None], (self.v - half)[None, :])
        bottom = np.minimum((self.v + half)[:, None], (self.v + half)[None, :])
        same_row = bottom - top > OVERLAP_FACTOR * np.minimum(self.h[:, None], self.h[None, :])
        dist = np.where((along > 0) & same_row, along, np.inf)
        best = np.argmin(dist, axis=1)
        return [int(j) if np.isfinite(dist[i, j]) else -1 for i, j in enumerate(best)]

    def right_neighbour(self, i: int) -> int:
        """The nearest tile to the right of i in the same row, if it is close enough to touch."""
        j = self.candidate[i]
        if j < 0:
            return -1
        mean_w = (self.w[i] + self.w[j]) / 2
        return j if self.gap(i, j) < GAP_FACTOR * mean_w else -1


def _pitch_ratio(frame: _Frame, fallback: float) -> np.ndarray:
    """Per tile: its width along the row divided by its height, measured on this photo.

    Spacings between row neighbours form two clusters: touching tiles (one tile width) and melds
    apart (wider); the lower cluster is taken. Perspective shrinks far tiles, and their height
    faster than their width (they are seen more obliquely), so the width is fitted as
    ``c * height ** g`` over the touching pairs (g = 1 for a photo taken from straight above,
    about 0.5 for a strongly slanted one). With too few neighbours, the box-based ``fallback``.
    """
    pairs = [(i, j) for i, j in enumerate(frame.candidate) if j >= 0]
    if len(pairs) < 2:
        return np.full(frame.n, fallback)
    pitch = np.asarray([frame.u[j] - frame.u[i] for i, j in pairs])
    hm = np.asarray([(frame.h[i] + frame.h[j]) / 2 for i, j in pairs])
    r = pitch / hm
    r0 = float(np.percentile(r, 25))
    for _ in range(4):
        near = r[r <= 1.3 * r0]
        if near.size == 0:
            break
        r0 = float(np.median(near))
    # a tile is never much narrower or wider than its box says: a wild value means no touching pairs. Where the
    # rows are turned too far for the boxes to be turned back (``_unrotated_sizes``), the box's width holds much of
    # the tile's height too: near 45 degrees a tile is about 0.6 of its box wide, so the measured width may be lower
    low = 0.6 if _unrotates(frame.angle) else 0.4
    if not low * fallback <= r0 <= 1.35 * fallback:
        return np.full(frame.n, fallback)
    log_c, g = math.log(r0), 1.0  # width = exp(log_c) * h ** g, first with g = 1
    log_h = np.log(hm)
    log_p = np.log(pitch)
    for _ in range(3):
        predicted = log_c + g * log_h
        touching = log_p <= predicted + math.log(1.3)
        if touching.sum() < 3 or float(np.ptp(log_h[touching])) < math.log(1.15):
            g = 1.0
            log_c = float(np.median(log_p[touching] - log_h[touching])) if touching.any() else log_c
            continue
        g, log_c = np.polyfit(log_h[touching], log_p[touching], 1)
        g = float(np.clip(g, 0.4, 1.2))
        log_c = float(np.median(log_p[touching] - g * log_h[touching]))
    return np.exp(log_c + (g - 1.0) * np.log(frame.h))


def _row_frame(boxes: Sequence[Sequence[float]], down: bool | None = None) -> _Frame:
    """The photo's tiles in the frame of its rows: as taken, or with x and y swapped where the rows run down the
    photo (taken from the side of the table, or turned a quarter): ``down``, or where it is None, when clearly more
    tiles touch their neighbour that way."""
    if down is not None:
        return _Frame.of(_transposed(boxes)) if down else _Frame.of(boxes)
    frame = _Frame.of(boxes)
    if frame.n == 0:
        return frame
    sideways = _Frame.of(_transposed(boxes))
    return sideways if _clearly_more(sideways.touching(), frame.touching(), frame.angle) else frame


def rows_run_down(boxes: Sequence[Sequence[float]], ways: Sequence[float] | None = None) -> bool:
    """Do the rows of touching tiles run down the photo (a table taken from its side, or turned a quarter)?

    Where clearly more tiles touch their neighbour one way than the other (x and y swapped, or as taken), the rows
    run that way. Two melds laid close beside each other touch across their rows too, and then the boxes cannot
    tell: the way the tiles lie can (``ways``, ``ways_run_down``), where the number reader says. Else the rows run
    across.
    """
    frame = _Frame.of(boxes)
    if frame.n == 0:
        return False
    as_taken, swapped = frame.touching(), _Frame.of(_transposed(boxes)).touching()
    if _clearly_more(swapped, as_taken, frame.angle):
        return True
    if _clearly_more(as_taken, swapped, frame.angle) or ways is None:
        return False
    return bool(ways_run_down(ways))


def ways_run_down(ways: Sequence[float]) -> bool | None:
    """Whether tiles lying ``ways`` say their rows run down the photo (True: most lie on their side), across it
    (False: most lie upright or upside down), or nothing (None): fewer than ``MIN_WAYS`` known, or fewer than
    ``WAYS_AGREE`` of those known lying one way.

    ways: the turn (clockwise degrees) under which each tile reads a number surely, NaN where none does
    (``vision.types.NumberAnswers.ways``). Tiles of a meld lie side by side, each the same way up: its row runs
    across the tiles' own up. A tile turned near 45 degrees says neither (a meld laid slantwise)."""
    known = known_turns(ways)
    if len(known) < MIN_WAYS:
        return None
    side = int(np.sum(np.abs(known - 90.0) < WAY_WITHIN))
    upright = int(np.sum((known < WAY_WITHIN) | (known > 180.0 - WAY_WITHIN)))
    if side >= WAYS_AGREE * len(known):
        return True
    if upright >= WAYS_AGREE * len(known):
        return False
    return None


def _clearly_more(touching: int, than: int, angle: float) -> bool:
    """Clearly more tiles touch their neighbour one way (``touching`` of them) than the other (``than``); rows turned
    nearly diagonal (``angle``, radians) run neither way more than the other, and more is enough."""
    return touching > (ROW_AXIS_MARGIN * than + 1 if _unrotates(angle) else than)


def _transposed(boxes: Sequence[Sequence[float]]) -> np.ndarray:
    """Boxes with x and y swapped: a photo whose rows run down it, read as if they ran across."""
    arr = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    return arr[:, [1, 0, 3, 2]]


def _estimate_angle(xyxy: np.ndarray) -> float:
    """Row direction from nearest-neighbour offsets, angles folded modulo 90 degrees."""
    cx = (xyxy[:, 0] + xyxy[:, 2]) / 2.0
    cy = (xyxy[:, 1] + xyxy[:, 3]) / 2.0
    size = np.maximum(xyxy[:, 2] - xyxy[:, 0], xyxy[:, 3] - xyxy[:, 1])
    dx = cx[None, :] - cx[:, None]
    dy = cy[None, :] - cy[:, None]
    dist = np.hypot(dx, dy)
    np.fill_diagonal(dist, np.inf)
    phis: list[float] = []
    weights: list[float] = []
    k = min(2, len(xyxy) - 1)
    for i in range(len(xyxy)):
        order = np.argsort(dist[i])[:k]
        nearest = dist[i, order[0]]
        for rank, j in enumerate(order):
            d = dist[i, j]
            if d > 2.0 * size[i] or (rank > 0 and d > 1.3 * nearest):
                continue
            phis.append(math.atan2(dy[i, j], dx[i, j]))
            weights.append(math.exp(-2.0 * d / size[i]))  # touching neighbours count most
    if not phis:
        return 0.0
    phi = np.asarray(phis)
    wts = np.asarray(weights)
    four = 4.0 * phi
    theta4 = math.atan2(float((wts * np.sin(four)).sum()), float((wts * np.cos(four)).sum()))
    for _ in range(3):  # re-weight towards the main mode: diagonal neighbours must not pull it
        closeness = np.cos(four - theta4)
        wr = wts * np.exp(3.0 * (closeness - 1.0))
        theta4 = math.atan2(float((wr * np.sin(four)).sum()), float((wr * np.cos(four)).sum()))
    resultant = math.hypot(float((wts * np.sin(four)).sum()), float((wts * np.cos(four)).sum())) / wts.sum()
    if resultant < 0.2:  # scattered tiles with no common direction
        return 0.0
    angle = theta4 / 4.0
    if angle <= -math.pi / 4:
        angle += math.pi / 2
    return angle


def _unrotates(angle: float) -> bool:
    """Can the upright boxes of tiles turned by ``angle`` (radians) be turned back to the tiles' sizes? Not near 45
    degrees, where a box is about as wide as tall whatever the tile's shape."""
    return math.cos(2 * abs(angle)) >= 0.3


def _unrotated_sizes(xyxy: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """A tile's width along the row and height across it, from its axis-aligned box.

    An upright w x h tile turned by ``a`` has an enclosing box W = w cos a + h sin a,
    H = w sin a + h cos a; solved back for w and h (and kept sane for noisy boxes).
    """
    W = xyxy[:, 2] - xyxy[:, 0]
    H = xyxy[:, 3] - xyxy[:, 1]
    a = abs(angle)
    c, s = math.cos(a), math.sin(a)
    den = c * c - s * s
    if a < 1e-3 or not _unrotates(angle):
        return W.copy(), H.copy()
    w = (W * c - H * s) / den
    h = (H * c - W * s) / den
    w = np.clip(w, 0.35 * W, W)
    h = np.clip(h, 0.35 * H, H)
    return w, h


def _rows(frame: _Frame, groups: list[list[int]]) -> list[list[list[int]]]:
    """Groups clustered into rows (top to bottom), each row's groups left to right.

    A group continues the row of the nearest group on its left whose right end is level with its
    left end (across-row distance below ``ROW_BREAK`` x tile height), so rows that wander or that
    the estimated direction does not quite follow still hold together.
    """
    m = len(groups)
    first = [min(g, key=lambda i: frame.u[i]) for g in groups]
    last = [max(g, key=lambda i: frame.u[i]) for g in groups]
    nxt = [-1] * m
    for a in range(m):
        ea = last[a]
        best, best_d = -1, math.inf
        for b in range(m):
            if b == a:
                continue
            sb = first[b]
            d = frame.u[sb] - frame.u[ea]
            if d <= -0.5 * frame.w[ea] or frame.u[sb] <= frame.u[first[a]]:
                continue
            if abs(frame.v[sb] - frame.v[ea]) > ROW_BREAK * (frame.h[sb] + frame.h[ea]) / 2:
                continue
            if d < best_d:
                best, best_d = b, d
        nxt[a] = best
    prv = [-1] * m
    for a, b in enumerate(nxt):  # keep one predecessor per group: the nearest
        if b >= 0 and (prv[b] < 0 or frame.u[first[b]] - frame.u[last[prv[b]]] > frame.u[first[b]] - frame.u[last[a]]):
            prv[b] = a
    rows: list[list[int]] = []
    for start in range(m):
        if prv[start] >= 0 and nxt[prv[start]] == start:
            continue
        row, k = [start], start
        while nxt[k] >= 0 and prv[nxt[k]] == k and nxt[k] not in row:
            k = nxt[k]
            row.append(k)
        rows.append(row)
    placed = {k for row in rows for k in row}
    rows.extend([k] for k in range(m) if k not in placed)  # pragma: no cover - cycles cannot form
    rows.sort(key=lambda row: float(np.median([frame.v[i] for k in row for i in groups[k]])))
    return [[groups[k] for k in row] for row in rows]


def _reading_order(frame: _Frame, groups: list[list[int]]) -> list[list[int]]:
    return [g for row in _rows(frame, groups) for g in row]
