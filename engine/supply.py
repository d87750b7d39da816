"""Tile accounting: a full set has two copies of each of the 52 faces and two jokers (106 tiles).

``check_supply(table, rack_a, rack_b, ...)`` lists a message for every face that would need a
third copy (or a third joker) across all the collections together. A collection is either tiles
(a rack) or a sequence of sets of tiles (a table); both may be mixed freely.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable, Iterator, Sequence, Union

from engine.tiles import ALL_FACES, COPIES_PER_TILE, JOKER, JOKERS_IN_SET, Tile, over_supply

__all__ = ["OverSupply", "check_supply", "ensure_supply", "unseen_tiles"]

Collection = Union[Iterable[Tile], Iterable[Sequence[Tile]]]


class OverSupply(ValueError):
    """More copies of a tile than a full set has; the message names each tile."""

    def __init__(self, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
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


def ensure_supply(*collections: Collection) -> None:
    """Raise OverSupply if the collections together need more tiles than a full set has."""
    problems = check_supply(*collections)
    if problems:
        raise OverSupply(problems)


def unseen_tiles(*collections: Collection) -> Counter[Tile]:
    """The tiles of a full set not in any of the collections (what may still be in the pool or
    on other racks); never negative."""
    full = Counter({face: COPIES_PER_TILE for face in ALL_FACES})
    full[JOKER] = JOKERS_IN_SET
    return full - Counter(_flatten(collections))
