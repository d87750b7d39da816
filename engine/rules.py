"""House rules: one settings object with documented defaults.

The defaults are the rule texts': the original rulebook, and where it is silent or the texts
disagree, the one named at the setting (the other way stays available as a house rule).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum
from typing import Literal

ExhaustedScoring = Literal["sum", "difference"]
JokerReuse = Literal["new_meld_with_rack", "anywhere"]
EXHAUSTED_SCORINGS: tuple[str, ...] = ("sum", "difference")
JOKER_REUSES: tuple[str, ...] = ("new_meld_with_rack", "anywhere")


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
    """Every house rule families actually use, with the rule texts' values as defaults.

    initial_meld:        points the first meld of a player must reach (rulebook 30; 20 and 50 common)
    wrap_around:         allow runs through 13-1 (``O12 O13 O1``); the rulebook forbids it
    joker_penalty:       what a joker left on a rack costs at round end (rulebook 30)
    rearrange_penalty:   tiles drawn after a failed rearrangement (rulebook 3)
    opening_additions:   may the opening turn add tiles to sets already on the table? (rulebook: no)
    tiles_dealt:         tiles each player starts with (14; 16 in some editions)
    exhausted_scoring:   the pool is exhausted and nobody can play, the lowest rack wins:
                         "sum" (the encyclopedia text: the winner gets the sum of the others' racks,
                         each other player minus their own rack) or "difference" (the Pressman
                         rulebook: each other player pays the difference to the winner's rack)
    joker_reuse:         where a joker freed from the table must go the same turn:
                         "new_meld_with_rack" (the rulebook: into a new set together with tiles
                         from the rack) or "anywhere" (the encyclopedia text: anywhere on the table)
    twist:               Rummikub Twist: the special jokers JD (double), JM (mirror) and JC (colour
                         change) are in play (off: the base game, and they are a notation error)
    """

    initial_meld: int = 30
    wrap_around: bool = False
    joker_penalty: int = 30
    rearrange_penalty: RearrangePenalty = RearrangePenalty.THREE_TILES
    opening_additions: bool = False
    tiles_dealt: int = 14
    exhausted_scoring: ExhaustedScoring = "sum"
    joker_reuse: JokerReuse = "new_meld_with_rack"
    twist: bool = False

    def __post_init__(self) -> None:
        if self.initial_meld < 0:
            raise ValueError(f"initial_meld must be >= 0, got {self.initial_meld}")
        if self.joker_penalty < 0:
            raise ValueError(f"joker_penalty must be >= 0, got {self.joker_penalty}")
        if not 1 <= self.tiles_dealt <= 40:
            raise ValueError(f"tiles_dealt must be 1-40, got {self.tiles_dealt}")
        if self.exhausted_scoring not in EXHAUSTED_SCORINGS:
            raise ValueError(
                f"exhausted_scoring must be one of {', '.join(EXHAUSTED_SCORINGS)}, got {self.exhausted_scoring!r}"
            )
        if self.joker_reuse not in JOKER_REUSES:
            raise ValueError(f"joker_reuse must be one of {', '.join(JOKER_REUSES)}, got {self.joker_reuse!r}")
        if not isinstance(self.rearrange_penalty, RearrangePenalty):
            object.__setattr__(self, "rearrange_penalty", RearrangePenalty(self.rearrange_penalty))

    def with_(self, **changes: object) -> "HouseRules":
        return replace(self, **changes)


DEFAULT_RULES = HouseRules()
