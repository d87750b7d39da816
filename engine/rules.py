"""House rules: one settings object with documented defaults (the original rulebook)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum


class RearrangePenalty(str, Enum):
    """What a player draws when a rearrangement fails and the table is restored."""

    THREE_TILES = "three"  # original rulebook: restore the table, draw three tiles
    ONE_TILE = "one"
    NONE = "none"

    @property
    def tiles(self) -> int:
        return {"three": 3, "one": 1, "none": 0}[self.value]


@dataclass(frozen=True)
class HouseRules:
    """Every house rule families actually use, with the rulebook's values as defaults.

    initial_meld:        points the first meld of a player must reach (rulebook 30; 20 and 50 common)
    wrap_around:         allow runs through 13-1 (``O12 O13 O1``); the rulebook forbids it
    joker_penalty:       what a joker left on a rack costs at round end (rulebook 30)
    rearrange_penalty:   tiles drawn after a failed rearrangement (rulebook 3)
    opening_additions:   may the opening turn add tiles to sets already on the table? (rulebook: no)
    tiles_dealt:         tiles each player starts with (14; 16 in some editions)
    """

    initial_meld: int = 30
    wrap_around: bool = False
    joker_penalty: int = 30
    rearrange_penalty: RearrangePenalty = RearrangePenalty.THREE_TILES
    opening_additions: bool = False
    tiles_dealt: int = 14

    def __post_init__(self) -> None:
        if self.initial_meld < 0:
            raise ValueError(f"initial_meld must be >= 0, got {self.initial_meld}")
        if self.joker_penalty < 0:
            raise ValueError(f"joker_penalty must be >= 0, got {self.joker_penalty}")
        if not 1 <= self.tiles_dealt <= 40:
            raise ValueError(f"tiles_dealt must be 1-40, got {self.tiles_dealt}")
        if not isinstance(self.rearrange_penalty, RearrangePenalty):
            object.__setattr__(self, "rearrange_penalty", RearrangePenalty(self.rearrange_penalty))

    def with_(self, **changes: object) -> "HouseRules":
        return replace(self, **changes)


DEFAULT_RULES = HouseRules()
