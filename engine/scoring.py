"""Round scoring and the score sheet.

Scoring
-------
A rack's value is the sum of its tiles' numbers; a joker left on a rack costs
``rules.joker_penalty`` (30 in the rulebook).

**A player goes out** (empties the rack): every other player scores minus the value of the tiles
left on their rack, and the winner scores plus the total of those values. Example: dana holds
K5 R7 (12), omer holds B12 O13 (25), lior goes out: lior +37, dana -12, omer -25.

**The pool is exhausted and nobody can play** (``exhausted=True``; every player's rack is given,
no winner is named): the player with the lowest rack value wins. How the others pay is the house
rule ``exhausted_scoring``:

* ``"sum"`` (the default, the encyclopedia text): each other player scores minus their own rack,
  the winner the sum of those. Example: ann 10, bob 25, cy 40 -> ann +65, bob -25, cy -40.
* ``"difference"`` (the Pressman rulebook): each other player scores minus the difference between
  their rack and the winner's, the winner the sum of those differences. Example: ann 10, bob 25,
  cy 40 -> ann +45, bob -15, cy -30.

**A tie for the lowest rack**: the tied players are all winners and *share* what the others pay
(a tie must not create points); they pay nothing themselves. The share is the total divided by
the number of winners, rounded down; the points left over go one each to the tied winners in the
order the racks were given. Example (sum): ann 10, bob 10, cy 41 -> ann +21, bob +20, cy -41. If
every player ties, everyone scores 0.

Every round sums to zero. The errors are ``engine.reasons.RuleError`` (a ValueError with a
``reason`` code for the app to translate). A round needs at least two players (the winner among them).

Names: a name given for the winner matches a player's name whatever its case (``Dana`` is
``dana``); ``resolve_player`` says which name is unknown. The score sheet keeps one dict of scores
per round; totals and running totals are sums over rounds. A round may leave a player out (they
score 0 that round); a name that is not a player is an error.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

from engine.errors import InputError
from engine.reasons import Reason, RuleError
from engine.rules import DEFAULT_RULES, HouseRules
from engine.tiles import Tile, format_tiles

__all__ = ["ScoreSheet", "exhausted_winners", "rack_value", "resolve_player", "score_round", "share"]


def rack_value(tiles: Sequence[Tile], rules: HouseRules = DEFAULT_RULES) -> int:
    """Penalty points of the tiles left on a rack (a joker costs ``rules.joker_penalty``; so does
    each Rummikub Twist special joker, the mirror included: the Twist sheet we found names no
    penalty for them, and a family treats a joker left on the rack as a joker)."""
    return sum(rules.joker_penalty if t.is_joker or t.is_special else t.value for t in tiles)


def resolve_player(name: str, players: Iterable[str]) -> str:
    """The player ``name`` means: the exact name, else the one name equal to it ignoring case;
    ValueError saying which name is unknown (or ambiguous)."""
    players = list(players)
    if name in players:
        return name
    same = [p for p in players if p.casefold() == name.strip().casefold()]
    if len(same) == 1:
        return same[0]
    if same:
        raise RuleError(Reason("player_ambiguous", {"name": name, "candidates": tuple(same)}))
    raise RuleError(Reason("unknown_player", {"name": name, "players": tuple(players)}))


def share(total: int, winners: Sequence[str]) -> dict[str, int]:
    """``total`` split between ``winners``: equal shares rounded down, the points left over one
    each to the first winners (so the shares always add up to ``total``)."""
    base, extra = divmod(total, len(winners))
    return {name: base + (1 if k < extra else 0) for k, name in enumerate(winners)}


def exhausted_winners(racks: Mapping[str, Sequence[Tile]], rules: HouseRules = DEFAULT_RULES) -> list[str]:
    """Players with the lowest rack value (the winners when the pool is exhausted), in input order."""
    if not racks:
        raise RuleError(Reason("no_racks"))
    values = {name: rack_value(rack, rules) for name, rack in racks.items()}
    low = min(values.values())
    return [name for name, v in values.items() if v == low]


def _exhausted_scores(racks: Mapping[str, Sequence[Tile]], rules: HouseRules) -> dict[str, int]:
    values = {name: rack_value(rack, rules) for name, rack in racks.items()}
    winners = exhausted_winners(racks, rules)
    low = values[winners[0]]
    owed = {
        name: v - low if rules.exhausted_scoring == "difference" else v
        for name, v in values.items()
        if name not in winners
    }
    gains = share(sum(owed.values()), winners)
    return {name: gains[name] if name in gains else -owed[name] for name in racks}


def score_round(
    racks: Mapping[str, Sequence[Tile]],
    winner: str | None,
    rules: HouseRules = DEFAULT_RULES,
    exhausted: bool = False,
) -> dict[str, int]:
    """Each player's score for one round (see the module docstring for the rules).

    ``racks`` maps player -> tiles left on the rack. When a player went out, ``winner`` names them
    (matched to a rack's name ignoring case; they may have no rack entry, or an empty one). With
    ``exhausted=True`` no winner is named: it is computed from the racks. Players keep the order
    of ``racks``; a winner without a rack entry comes last. ValueError for a round of one player.
    """
    if exhausted:
        if winner is not None:
            raise RuleError(Reason("exhausted_named_winner", {"name": winner}))
        if len(racks) < 2:
            raise RuleError(Reason("round_too_few_players"))
        return _exhausted_scores(racks, rules)
    if winner is None:
        raise RuleError(Reason("no_winner"))
    if not winner.strip():
        raise RuleError(Reason("winner_name_empty"))
    try:
        winner = resolve_player(winner, racks)
    except ValueError:
        winner = winner.strip()  # the player who went out need not give a rack
    if racks.get(winner):
        raise RuleError(Reason("winner_rack_not_empty", {"name": winner, "tiles": format_tiles(racks[winner])}))
    values = {name: rack_value(rack, rules) for name, rack in racks.items()}
    scores = {name: -v for name, v in values.items() if name != winner}
    if not scores:
        raise RuleError(Reason("round_only_winner", {"name": winner}))
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
            raise InputError("a score sheet needs at least one player")
        for name in self.players:
            if not isinstance(name, str) or not name.strip():
                raise InputError(f"player names must be non-empty text, got {name!r}")
        seen: set[str] = set()
        for name in self.players:
            if name.casefold() in seen:
                raise InputError(f"player {name!r} is listed twice (names are compared ignoring case)")
            seen.add(name.casefold())
        self.rounds = [self._checked(r, f"round {i + 1}") for i, r in enumerate(self.rounds)]

    def _checked(self, scores: Mapping[str, int], where: str) -> dict[str, int]:
        by_player: dict[str, int] = {}
        for name, value in scores.items():
            try:
                player = resolve_player(name, self.players)
            except ValueError as exc:
                raise InputError(f"{where}: {exc}") from None
            if player in by_player:
                raise InputError(f"{where}: {player!r} has two scores")
            if isinstance(value, bool) or not isinstance(value, int):
                raise InputError(f"{where}: {name}'s score must be a whole number, got {value!r}")
            by_player[player] = int(value)
        return {name: by_player.get(name, 0) for name in self.players}

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
