"""A person's corrections to a photo's reading, as a list of edits replayed over the model's reading.

Pure (no Streamlit, no model): the page keeps the photo's own reading and the edits made so far;
``apply_edits`` turns them into the corrected reading, every meld checked again, and undo is
dropping the last edit. Keeping the edits rather than the corrected reading means nothing is lost:
the model's reading is always there to go back to, and the edits are the training signal
``rummi export-corrections`` writes out.

The edits:

- ``Recode(tile, code)``: the tile is another tile (``B8`` -> ``K7``);
- ``Delete(tile)``: not a tile (a card, a face-down tile, a reflection);
- ``Add(box, code, meld)``: a tile the model missed, at ``box`` (photo pixels), put in ``meld``;
- ``Move(tile, meld)``: into another meld, a new meld (``NEW_MELD``) or none (``None``).

Tiles and melds are named by ids that never change while edits are made: the model's tiles are
0..n-1 and its melds 0..m-1 (as in the reading); the k-th ``Add`` makes tile n+k and the k-th new
meld is meld m+k. A meld that loses all its tiles disappears; ids are never reused. Within a meld,
and along a rack, an added or moved tile takes its place by where it lies on the photo.
"""

from __future__ import annotations

import dataclasses
import statistics
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence, Union

from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import NotationError, parse_tile
from vision.reader import NO_TILES, check_melds
from vision.types import PhotoReading, TileReading

__all__ = [
    "NEW_MELD",
    "Add",
    "Corrected",
    "Delete",
    "Edit",
    "EditError",
    "Move",
    "Recode",
    "apply_edits",
    "edits_from_json",
    "edits_to_json",
    "meld_near",
    "new_tile_box",
    "review_order",
    "tile_at",
]

Box = tuple[float, float, float, float]
NEW_MELD = -1  # Add/Move into a meld of its own
SAME_ROW = 0.6  # two tiles are in one row when their centres are within this many tile heights
NEAR_GAP = 0.75  # a tap this many tile widths from a meld's end is "next to" it


class EditError(ValueError):
    """An edit that does not fit the reading (a tile that is not there, an unknown code).
    ``notation`` is the NotationError behind an unknown code (the page says it in its language)."""

    def __init__(self, message: str, notation: NotationError | None = None) -> None:
        super().__init__(message)
        self.notation = notation


@dataclass(frozen=True)
class Recode:
    tile: int
    code: str


@dataclass(frozen=True)
class Delete:
    tile: int


@dataclass(frozen=True)
class Add:
    box: Box
    code: str
    meld: int | None = None


@dataclass(frozen=True)
class Move:
    tile: int
    meld: int | None


Edit = Union[Recode, Delete, Add, Move]


@dataclass(frozen=True)
class Corrected:
    """The reading with the edits applied, and the ids behind its indices.

    ``reading.tiles[i]`` is tile ``tile_ids[i]``; ``reading.melds[k]`` is meld ``meld_ids[k]``;
    ``edited`` holds the ids of tiles a person recoded, added or moved.
    """

    reading: PhotoReading
    tile_ids: tuple[int, ...]
    meld_ids: tuple[int, ...]
    edited: frozenset[int]

    def index_of(self, tile_id: int) -> int | None:
        return self.tile_ids.index(tile_id) if tile_id in self.tile_ids else None

    def meld_index_of(self, meld_id: int) -> int | None:
        return self.meld_ids.index(meld_id) if meld_id in self.meld_ids else None


# --------------------------------------------------------------------------- replay


@dataclass
class _Work:
    """The mutable state of one replay (never leaves this module)."""

    tiles: dict[int, TileReading]
    melds: dict[int, list[int]]  # meld id -> tile ids in order (insertion order = meld order)
    order: list[int]  # rack order / the order of lone tiles
    rack: bool
    next_tile: int
    next_meld: int
    edited: set[int]
    twist: bool = False  # the Rummikub Twist jokers (JD, JM, JC) are codes a tile may get

    def meld_of(self, tile: int) -> int | None:
        return next((m for m, ids in self.melds.items() if tile in ids), None)


def apply_edits(
    reading: PhotoReading, edits: Sequence[Edit], rules: HouseRules = DEFAULT_RULES, twist: bool | None = None
) -> Corrected:
    """The reading with ``edits`` applied in turn, each meld checked with ``rules``.

    Raises EditError for an edit that names a tile that is not there (deleted, never added),
    a meld that is not there, or a code that is not a tile (the Twist jokers ``JD`` ``JM`` ``JC``
    are tiles only with ``rules.twist``; ``twist=True`` reads them whatever the rules say, to
    replay a person's edits made while the rule was on: the melds' verdicts then say why not).
    """
    work = _Work(
        tiles={i: t for i, t in enumerate(reading.tiles)},
        melds={k: list(m.tiles) for k, m in enumerate(reading.melds)},
        order=[i for i, t in enumerate(reading.tiles) if reading.rack or _lone(reading, i)],
        rack=reading.rack,
        next_tile=len(reading.tiles),
        next_meld=len(reading.melds),
        edited=set(),
        twist=rules.twist if twist is None else twist,
    )
    for n, edit in enumerate(edits, start=1):
        try:
            _apply(work, edit)
        except EditError as exc:
            raise EditError(f"change {n}: {exc}", exc.notation) from None
    return _result(reading, work, rules)


def _lone(reading: PhotoReading, i: int) -> bool:
    return not any(i in m.tiles for m in reading.melds)


def _apply(work: _Work, edit: Edit) -> None:
    if isinstance(edit, Recode):
        tile = _tile(work, edit.tile)
        work.tiles[edit.tile] = dataclasses.replace(
            tile, code=_code(edit.code, work.twist), confidence=1.0, doubtful=False, doubt=None, alternatives=[]
        )
        work.edited.add(edit.tile)
    elif isinstance(edit, Delete):
        _tile(work, edit.tile)
        _take_out(work, edit.tile)
        del work.tiles[edit.tile]
        work.edited.discard(edit.tile)
    elif isinstance(edit, Add):
        box = _box(edit.box)
        tile_id = work.next_tile
        work.next_tile += 1
        work.tiles[tile_id] = TileReading(box=box, code=_code(edit.code, work.twist), confidence=1.0, alternatives=[])
        work.edited.add(tile_id)
        _put(work, tile_id, edit.meld)
    elif isinstance(edit, Move):
        _tile(work, edit.tile)
        if work.rack:
            raise EditError("a rack has no melds to move a tile between")
        if edit.meld is not None and edit.meld == work.meld_of(edit.tile):
            return  # already there
        _take_out(work, edit.tile)
        _put(work, edit.tile, edit.meld)
        work.edited.add(edit.tile)
    else:
        raise EditError(f"unknown change {edit!r}")


def _tile(work: _Work, tile_id: int) -> TileReading:
    if isinstance(tile_id, bool) or not isinstance(tile_id, int) or tile_id not in work.tiles:
        raise EditError(f"there is no tile {tile_id!r} (deleted, or never on this photo)")
    return work.tiles[tile_id]


def _code(code: str, twist: bool = False) -> str:
    try:
        return parse_tile(str(code), twist=twist).code
    except NotationError as exc:
        raise EditError(str(exc), exc) from None
    except ValueError as exc:
        raise EditError(str(exc)) from None


def _box(box: Iterable[float]) -> Box:
    try:
        x1, y1, x2, y2 = (float(v) for v in box)
    except (TypeError, ValueError):
        raise EditError(f"a tile's place is four numbers x1 y1 x2 y2, got {box!r}") from None
    if not (x2 > x1 and y2 > y1):
        raise EditError(f"a tile's place must have a width and a height, got {box!r}")
    return (x1, y1, x2, y2)


def _take_out(work: _Work, tile_id: int) -> None:
    meld = work.meld_of(tile_id)
    if meld is not None:
        work.melds[meld].remove(tile_id)
        if not work.melds[meld]:
            del work.melds[meld]  # an emptied meld is gone; its id is not reused
    if tile_id in work.order:
        work.order.remove(tile_id)


def _put(work: _Work, tile_id: int, meld: int | None) -> None:
    if work.rack or meld is None:
        work.order = _insert(work.order, tile_id, work.tiles)
        return
    if meld == NEW_MELD:
        meld = work.next_meld
        work.next_meld += 1
        work.melds[meld] = []
    elif meld not in work.melds:
        raise EditError(f"there is no meld {meld!r} on this photo any more")
    work.melds[meld] = _insert(work.melds[meld], tile_id, work.tiles)


def _insert(order: list[int], tile_id: int, tiles: Mapping[int, TileReading]) -> list[int]:
    """``order`` with ``tile_id`` where it lies: after the last tile of its row to its left (rows
    are read left to right), else before the first tile of its row, else at the end."""
    cx, cy, _, h = _centre(tiles[tile_id].box)
    row = [i for i in order if abs(_centre(tiles[i].box)[1] - cy) <= SAME_ROW * max(h, _centre(tiles[i].box)[3])]
    if not row:
        return order + [tile_id]
    left = [i for i in row if _centre(tiles[i].box)[0] < cx]
    at = order.index(left[-1]) + 1 if left else order.index(row[0])
    return order[:at] + [tile_id] + order[at:]


def _centre(box: Box) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = box
    return (x1 + x2) / 2, (y1 + y2) / 2, x2 - x1, y2 - y1


def _result(reading: PhotoReading, work: _Work, rules: HouseRules) -> Corrected:
    meld_ids = tuple(work.melds)
    ids = [i for m in meld_ids for i in work.melds[m]] + list(work.order)  # a rack has no melds
    new_index = {tile_id: k for k, tile_id in enumerate(ids)}
    meld_index = {m: k for k, m in enumerate(meld_ids)}
    tiles = []
    for tile_id in ids:
        meld = work.meld_of(tile_id)
        tiles.append(dataclasses.replace(work.tiles[tile_id], meld=None if meld is None else meld_index[meld]))
    groups = [[new_index[i] for i in work.melds[m]] for m in meld_ids]
    melds = check_melds(tiles, groups, rules)
    # the model's notes name tiles by their old numbers: the page words its own from the tiles
    warnings = [NO_TILES] if not tiles else []
    corrected = dataclasses.replace(reading, tiles=tiles, melds=melds, warnings=warnings)
    return Corrected(
        reading=corrected, tile_ids=tuple(ids), meld_ids=meld_ids, edited=frozenset(work.edited & set(ids))
    )


# --------------------------------------------------------------------------- taps


def tile_at(reading: PhotoReading, x: float, y: float) -> int | None:
    """The index of the tile at (x, y) in photo pixels, or None for an empty spot; where boxes
    overlap, the one whose centre is nearest."""
    hits = [
        (((x - cx) ** 2 + (y - cy) ** 2), i)
        for i, t in enumerate(reading.tiles)
        for cx, cy, _, _ in [_centre(t.box)]
        if t.box[0] <= x <= t.box[2] and t.box[1] <= y <= t.box[3]
    ]
    return min(hits)[1] if hits else None


def tile_size(reading: PhotoReading) -> tuple[float, float]:
    """The typical tile's width and height on this photo (a guess from the photo's size when empty)."""
    if reading.tiles:
        return (
            statistics.median(t.box[2] - t.box[0] for t in reading.tiles),
            statistics.median(t.box[3] - t.box[1] for t in reading.tiles),
        )
    side = 0.06 * min(reading.width, reading.height)
    return side, side * 1.35


def new_tile_box(reading: PhotoReading, x: float, y: float) -> Box:
    """A tile-sized box centred on a tap at (x, y), kept inside the photo."""
    w, h = tile_size(reading)
    w, h = min(w, reading.width), min(h, reading.height)
    x1 = min(max(x - w / 2, 0.0), reading.width - w)
    y1 = min(max(y - h / 2, 0.0), reading.height - h)
    return (round(x1, 1), round(y1, 1), round(x1 + w, 1), round(y1 + h, 1))


def meld_near(reading: PhotoReading, box: Box) -> int | None:
    """The index of the meld a tile at ``box`` would extend: one with a tile in the same row at
    most ``NEAR_GAP`` tile widths away (the nearest such), else None."""
    cx, cy, w, h = _centre(box)
    best: tuple[float, int] | None = None
    for t in reading.tiles:
        if t.meld is None:
            continue
        tx, ty, tw, th = _centre(t.box)
        if abs(ty - cy) > SAME_ROW * max(h, th):
            continue
        gap = max(abs(tx - cx) - (tw + w) / 2, 0.0)
        if gap <= NEAR_GAP * max(w, tw) and (best is None or gap < best[0]):
            best = (gap, t.meld)
    return None if best is None else best[1]


def review_order(reading: PhotoReading) -> list[int]:
    """Tile indices in the order worth checking: doubtful tiles (least sure first), then the tiles
    of melds that are not valid, then the rest in reading order."""
    bad_melds = {k for k, m in enumerate(reading.melds) if not m.valid}

    def key(i: int) -> tuple[int, float, int]:
        t = reading.tiles[i]
        if t.doubtful:
            return (0, t.confidence, i)
        return (1 if t.meld in bad_melds else 2, 0.0, i)

    return sorted(range(len(reading.tiles)), key=key)


# --------------------------------------------------------------------------- JSON


def edits_to_json(edits: Sequence[Edit]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for e in edits:
        if isinstance(e, Recode):
            out.append({"op": "recode", "tile": e.tile, "code": e.code})
        elif isinstance(e, Delete):
            out.append({"op": "delete", "tile": e.tile})
        elif isinstance(e, Add):
            out.append({"op": "add", "box": [round(float(v), 1) for v in e.box], "code": e.code, "meld": e.meld})
        elif isinstance(e, Move):
            out.append({"op": "move", "tile": e.tile, "meld": e.meld})
        else:
            raise EditError(f"unknown change {e!r}")
    return out


def edits_from_json(data: Any) -> tuple[Edit, ...]:
    """Edits from ``edits_to_json``'s output; raises EditError naming the entry that is wrong."""
    if not isinstance(data, list):
        raise EditError(f"expected a list of changes, got {type(data).__name__}")
    out: list[Edit] = []
    for n, item in enumerate(data, start=1):
        try:
            op = item["op"]
            if op == "recode":
                out.append(Recode(int(item["tile"]), str(item["code"])))
            elif op == "delete":
                out.append(Delete(int(item["tile"])))
            elif op == "add":
                meld = item.get("meld")
                out.append(Add(_box(item["box"]), str(item["code"]), None if meld is None else int(meld)))
            elif op == "move":
                meld = item.get("meld")
                out.append(Move(int(item["tile"]), None if meld is None else int(meld)))
            else:
                raise EditError(f"unknown change {op!r}")
        except (KeyError, TypeError, ValueError) as exc:
            raise EditError(f"change {n} ({item!r}): {exc}") from None
    return tuple(out)
