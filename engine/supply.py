"""Tile accounting: a full set has two copies of each of the 52 faces and two jokers (106 tiles).

``check_supply(table, rack_a, rack_b, ...)`` lists a message for every face that would need a
third copy (or a third joker) across all the collections together. A collection is either tiles
(a rack) or a sequence of sets of tiles (a table); both may be mixed freely.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator, Sequence, Union

from engine.errors import InputError
from engine.reasons import Reason, render
from engine.tiles import ALL_FACES, COPIES_PER_TILE, JOKER, JOKERS_IN_SET, Tile, over_supply, over_supply_reasons

__all__ = ["OverSupply", "check_supply", "ensure_supply", "supply_reasons", "unseen_tiles"]

Collection = Union[Iterable[Tile], Iterable[Sequence[Tile]]]


class OverSupply(InputError):
    """More copies of a tile than a full set has; the message names each tile."""

    def __init__(self, problems: Sequence[str], reasons: Sequence[Reason] = ()) -> None:
        self.problems = tuple(problems)
        self.reasons = tuple(reasons)  # the problems as ``supply_copies`` reasons
        super().__init__("; ".join(self.problems))


def _flatten(collections: Iterable[Collection]) -> Iterator[Tile]:
    for collection in collections:
        for item in collection:
            if isinstance(item, Tile):
                yield item
            else:
                for tile in item:
                    if not isinstance(tile, Tile):
                        raise TypeError(f"expected tiles or sets of tiles, got {tile!r}")
                    yield tile


def check_supply(*collections: Collection) -> list[str]:
    """Messages for tiles needing a third copy (or 3+ jokers) across all collections; [] if fine."""
    return over_supply(_flatten(collections))


def supply_reasons(*collections: Collection) -> list[Reason]:
    """``check_supply`` as reasons (``supply_copies``, ``engine.reasons``)."""
    return over_supply_reasons(_flatten(collections))


def ensure_supply(*collections: Collection) -> None:
    """Raise OverSupply if the collections together need more tiles than a full set has."""
    reasons = supply_reasons(*collections)
    if reasons:
        raise OverSupply([render(r) for r in reasons], reasons)


def unseen_tiles(*collections: Collection) -> Counter[Tile]:
    """The tiles of a full set not in any of the collections (what may still be in the pool or
    on other racks); never negative."""
    full = Counter({face: COPIES_PER_TILE for face in ALL_FACES})
    full[JOKER] = JOKERS_IN_SET
    return full - Counter(_flatten(collections))
