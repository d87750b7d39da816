"""The initial meld: a player's first sets must together reach the threshold (rulebook: 30 points).

Each set counts the sum of its tiles; a joker counts as the tile it stands for in the set's
chosen reading (see ``engine.sets``). Rulebook examples: ``R10 R11 R12`` is 33 and opens;
``K3 K4 K5`` plus three 6s is 30 and opens; three 2s plus three 3s is 15 and does not.

The meld is ok iff there is at least one set, every set is valid and the total reaches
``rules.initial_meld``. ``total`` adds up the valid sets only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import SetCheck, analyse_set
from engine.tiles import Tile, format_tiles

__all__ = ["InitialMeldCheck", "check_initial_meld"]


@dataclass(frozen=True)
class InitialMeldCheck:
    """total (points of the valid sets), threshold, ok, the per-set checks, reason (why not ok)."""

    total: int
    threshold: int
    ok: bool
    sets: tuple[SetCheck, ...]
    reason: str | None


def check_initial_meld(
    melds: Sequence[Sequence[Tile]], rules: HouseRules = DEFAULT_RULES
) -> InitialMeldCheck:
    """Do these sets, played from the rack as a first move, open the player's game?"""
    checks = tuple(analyse_set(meld, rules) for meld in melds)
    total = sum(c.value for c in checks)
    threshold = rules.initial_meld
    invalid = [(i, c) for i, c in enumerate(checks, start=1) if not c.valid]
    reason: str | None = None
    if not checks:
        reason = "no sets: the initial meld needs at least one set"
    elif invalid:
        reason = "; ".join(f"set {i} ({format_tiles(c.tiles)}) is not valid: {c.reason}" for i, c in invalid)
    elif total < threshold:
        reason = f"the sets add up to {total} points; the initial meld needs at least {threshold}"
    return InitialMeldCheck(total=total, threshold=threshold, ok=reason is None, sets=checks, reason=reason)
