"""The initial meld: a player's first sets must together reach the threshold (rulebook: 30 points).

Each set counts the sum of its tiles; a joker counts as the tile it stands for (the rules say so
in so many words: 30 is only what a joker left on a rack costs). Where a set has several readings
it counts the one worth most that the written order allows (``SetCheck.meld_value``, see
``engine.sets``): ``K13 J J`` is the group of 13s, 39, with or without wrap-around. Rulebook examples: ``R10 R11 R12`` is 33 and opens;
``K3 K4 K5`` plus three 6s is 30 and opens; three 2s plus three 3s is 15 and does not.

The meld is ok iff there is at least one set, every set is valid and the total reaches
``rules.initial_meld``. ``total`` adds up the valid sets only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from engine.reasons import Reason, render
from engine.rules import DEFAULT_RULES, HouseRules
from engine.sets import SetCheck, analyse_set
from engine.tiles import Tile, format_tiles

__all__ = ["InitialMeldCheck", "check_initial_meld", "invalid_set"]


@dataclass(frozen=True)
class InitialMeldCheck:
    """total (points of the valid sets), threshold, ok, the per-set checks, reason (why not ok),
    why (``reason`` as a code: ``initial_no_sets``, ``initial_invalid_sets`` with one
    ``invalid_set`` part per invalid set, or ``initial_too_low``; see ``engine.reasons``)."""

    total: int
    threshold: int
    ok: bool
    sets: tuple[SetCheck, ...]
    reason: str | None
    why: Reason | None = None


def check_initial_meld(
    melds: Sequence[Sequence[Tile]], rules: HouseRules = DEFAULT_RULES
) -> InitialMeldCheck:
    """Do these sets, played from the rack as a first move, open the player's game?"""
    checks = tuple(analyse_set(meld, rules) for meld in melds)
    total = sum(c.meld_value for c in checks)
    threshold = rules.initial_meld
    invalid = [(i, c) for i, c in enumerate(checks, start=1) if not c.valid]
    why: Reason | None = None
    if not checks:
        why = Reason("initial_no_sets")
    elif invalid:
        why = Reason("initial_invalid_sets", parts=tuple(invalid_set(i, c) for i, c in invalid))
    elif total < threshold:
        why = Reason("initial_too_low", {"total": total, "threshold": threshold})
    reason = None if why is None else render(why)
    return InitialMeldCheck(total=total, threshold=threshold, ok=why is None, sets=checks, reason=reason, why=why)


def invalid_set(index: int, check: SetCheck, code: str = "invalid_set") -> Reason:
    """``set {index} ({tiles}) is not valid: {its reason}`` (``code`` ``table_set_invalid`` says
    "table set")."""
    assert check.why is not None
    return Reason(code, {"set": index, "tiles": format_tiles(check.tiles)}, (check.why,))
