"""Round scoring and the score sheet, as in the original rulebook.

Scoring
-------
A rack's value is the sum of its tiles' numbers; a joker left on a rack costs
``rules.joker_penalty`` (30 in the rulebook).

**A player goes out** (empties the rack): every other player scores minus the value of the tiles
left on their rack, and the winner scores plus the total of those values. Example: dana holds
K5 R7 (12), omer holds B12 O13 (25), lior goes out: lior +37, dana -12, omer -25. The round
sums to zero.

**The pool is exhausted and nobody can play** (``exhausted=True``; every player's rack is given,
no winner is named): the player with the lowest rack value wins. Each other player scores minus
the difference between their rack value and the winner's; the winner scores plus the sum of
those differences. Example: ann 10, bob 25, cy 40 -> ann +45, bob -15, cy -30. The round sums
to zero.

**A tie for the lowest rack** when the pool is exhausted: the rulebook names no tie-break, so the
rule is applied literally to each of them: every tied player is a winner and scores the full sum
of the differences; the others pay their difference once. Example: ann 10, bob 10, cy 40 ->
ann +30, bob +30, cy -30. This is the one case where a round does not sum to zero. If every
player ties, everyone scores 0.

The score sheet keeps one dict of scores per round; totals and running totals are sums over
rounds. A round may leave a player out (they score 0 that round); a name that is not a player is
an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import Tile, format_tiles

__all__ = ["ScoreSheet", "exhausted_winners", "rack_value", "score_round"]


def rack_value(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> int:
    """Penalty points of the tiles left on a rack (a joker costs ``rules.joker_penalty``)."""
    return sum(rules.joker_penalty if t.is_joker else t.value for t in tiles)


def exhausted_winners(racks: Mapping[str, Sequence[Tile]], rules: HouseRules = DEFAULT_RULES) -> list[str]:
    """Players with the lowest rack value (the winners when the pool is exhausted), in input order."""
    if not racks:
        raise ValueError("no racks given: an exhausted pool needs every player's rack")
    values = {name: rack_value(rack, rules) for name, rack in racks.items()}
    low = min(values.values())
    return [name for name, v in values.items() if v == low]


def score_round(
    racks: Mapping[str, Sequence[Tile]],
    winner: str | None,
    rules: HouseRules = DEFAULT_RULES,
    exhausted: bool = False,
) -> dict[str, int]:
    """Each player's score for one round (see the module docstring for the rules).

    ``racks`` maps player -> tiles left on the rack. When a player went out, ``winner`` names them
    (they may have no rack entry, or an empty one). With ``exhausted=True`` no winner is named: it
    is computed from the racks. Players keep the order of ``racks``; a winner without a rack entry
    comes last.
    """
    values = {name: rack_value(rack, rules) for name, rack in racks.items()}
    if exhausted:
        if winner is not None:
            raise ValueError(
                f"the pool is exhausted, so the winner is the lowest rack: don't name one (got {winner!r})"
            )
        winners = set(exhausted_winners(racks, rules))
        low = min(values.values())
        pot = sum(v - low for v in values.values())
        return {name: pot if name in winners else -(v - low) for name, v in values.items()}
    if winner is None:
        raise ValueError("name the player who went out, or say the pool is exhausted")
    if not winner.strip():
        raise ValueError("the winner's name is empty")
    if winner in racks and racks[winner]:
        raise ValueError(
            f"{winner} went out, so their rack must be empty, but it holds {format_tiles(racks[winner])}"
        )
    scores = {name: -v for name, v in values.items() if name != winner}
    scores[winner] = sum(values.values())
    if winner in racks:  # keep the input order
        scores = {name: scores[name] for name in racks}
    return scores


@dataclass
class ScoreSheet:
    """The scores of a game, round by round."""

    players: list[str]
    rounds: list[dict[str, int]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.players = list(self.players)
        if not self.players:
            raise ValueError("a score sheet needs at least one player")
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise ValueError(f"player names must be non-empty text, got {name!r}")
        seen: set[str] = set()
        for name in self.players:
            if name in seen:
                raise ValueError(f"player {name!r} is listed twice")
            seen.add(name)
        self.rounds = [self._checked(r, f"round {i + 1}") for i, r in enumerate(self.rounds)]

    def _checked(self, scores: Mapping[str, int], where: str) -> dict[str, int]:
        unknown = [name for name in scores if name not in self.players]
        if unknown:
            raise ValueError(
                f"{where}: unknown player {', '.join(map(repr, unknown))}; the players are {', '.join(self.players)}"
            )
        for name, value in scores.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"{where}: {name}'s score must be a whole number, got {value!r}")
        return {name: int(scores.get(name, 0)) for name in self.players}

    def _index(self, i: int) -> int:
        if not -len(self.rounds) <= i < len(self.rounds):
            raise IndexError(f"no round {i}: the sheet has {len(self.rounds)} round(s)")
        return i % len(self.rounds)

    def add_round(self, scores: Mapping[str, int]) -> dict[str, int]:
        """Append a round (players missing from ``scores`` score 0); returns the stored round."""
        row = self._checked(scores, f"round {len(self.rounds) + 1}")
        self.rounds.append(row)
        return row

    def remove_round(self, i: int) -> dict[str, int]:
        """Delete round ``i`` (0-based, negative counts from the end) and return it."""
        return self.rounds.pop(self._index(i))

    def replace_round(self, i: int, scores: Mapping[str, int]) -> dict[str, int]:
        """Overwrite round ``i`` (0-based) with corrected scores; returns the stored round."""
        k = self._index(i)
        row = self._checked(scores, f"round {k + 1}")
        self.rounds[k] = row
        return row

    def totals(self) -> dict[str, int]:
        return {name: sum(r[name] for r in self.rounds) for name in self.players}

    def running_totals(self) -> list[dict[str, int]]:
        """The totals after each round."""
        running = {name: 0 for name in self.players}
        out: list[dict[str, int]] = []
        for r in self.rounds:
            running = {name: running[name] + r[name] for name in self.players}
            out.append(running)
        return out
