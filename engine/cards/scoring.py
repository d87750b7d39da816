"""Dealing, laying off and scoring for the card games.

Card values (``CardRules.points``): 2-10 their number, J Q K 10, ace 1, a joker left in a hand 25.

**Classic Rummy** (only the winner scores, as its text defines): the player who goes out scores
the value of every other hand added together; everybody else scores 0 for the round. "Rummy"
(going out in one turn without having melded before) doubles it (house rule, ``rummy=True``).
The game is played to a target (e.g. 100): the first total to reach it wins.

**Closed rummy** is played for a pot, not for points (the Israeli closed-rummy text): each round
every player puts ``rules.entry`` coins (1 by default, set per game) into the pot and the player
who declares takes the pot: the declarer's coins change by ``entry * (players - 1)``, everyone
else's by ``-entry``. A tie (several players declare, or nobody does) returns each player's entry
with no fee: every change is 0. A round's coin changes sum to zero; ``coin_balances`` keeps each
player's running balance over the rounds. Hand values play no part (``hand_points`` still says
what a hand holds). "Rummy" doubling does not apply to the closed game, and the closed game has
no game winner: each round settles its pot (``winner_of_game`` is None).

``winner_of_game`` returns None while the classic game goes on, and also on a tie for the top
(play another round).
"""

from __future__ import annotations

from typing import Iterable, Mapping, Sequence

from engine.errors import InputError
from engine.reasons import Reason, RuleError
from engine.cards.cards import Card
from engine.cards.rules import CLASSIC, CardRules, over_supply
from engine.cards.series import check_series, is_valid_series

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "can_lay_off",
    "coin_balances",
    "deal_size",
    "hand_points",
    "pot_scores",
    "round_scores",
    "winner_of_game",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 6


def deal_size(players: int) -> int:
    """Cards dealt to each player in classic Rummy: 10 for 2 players, 7 for 3-4, 6 for 5-6."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise InputError(f"classic rummy is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players}")
    if players == 2:
        return 10
    return 7 if players <= 4 else 6


def hand_points(cards: Sequence[Card], rules: CardRules = CLASSIC) -> int:
    """The value of a hand: the sum of its card points."""
    return sum(rules.points(c) for c in cards)


def can_lay_off(card: Card, meld: Sequence[Card], rules: CardRules = CLASSIC) -> bool:
    """May ``card`` be added to ``meld`` (anyone's meld on the table)? The meld must be valid
    (ValueError if not); the card lays off if the meld with it is still a valid series."""
    check = check_series(meld, rules)
    if not check.valid:
        raise InputError(f"not a valid meld: {check.reason}")
    return is_valid_series(list(meld) + [card], rules)


def pot_scores(players: Sequence[str], winners: Sequence[str], entry: int = 1) -> dict[str, int]:
    """One closed-rummy round's coin changes: every player pays ``entry`` into the pot and the one
    winner takes it; no winner or several (a tie) returns every entry (all 0). ValueError for fewer
    than two players, a player twice, a winner who is not a player, or an entry below 1."""
    players = list(players)
    if len(players) < MIN_PLAYERS:
        raise RuleError(Reason("cards_too_few_players", {"min": MIN_PLAYERS, "count": len(players)}))
    if len(set(players)) != len(players):
        raise RuleError(Reason("cards_player_twice"))
    unknown = [w for w in winners if w not in players]
    if unknown:
        raise RuleError(Reason("unknown_player", {"name": unknown[0], "players": tuple(players)}))
    if isinstance(entry, bool) or not isinstance(entry, int) or entry < 1:
        raise InputError(f"the pot entry must be a whole number of coins, 1 or more, got {entry!r}")
    if len(set(winners)) != 1:  # a tie: each entry goes back, no fee
        return {name: 0 for name in players}
    (winner,) = set(winners)
    return {name: entry * (len(players) - 1) if name == winner else -entry for name in players}


def coin_balances(rounds: Iterable[Mapping[str, int]]) -> list[dict[str, int]]:
    """Each player's running coin balance after each round (players who miss a round keep
    theirs); the last entry is the balance now."""
    balance: dict[str, int] = {}
    out: list[dict[str, int]] = []
    for coins in rounds:
        for name, change in coins.items():
            balance[name] = balance.get(name, 0) + int(change)
        out.append(dict(balance))
    return out


def round_scores(
    hands: Mapping[str, Sequence[Card]],
    winner: str,
    rules: CardRules = CLASSIC,
    rummy: bool = False,
) -> dict[str, int]:
    """One round's scores, every player (the winner included) by name; see the module docstring.
    Classic: points; closed: the pot's coin changes (``rules.entry`` each).

    ``hands`` holds what each player has left; the winner may be missing from it (or hold
    nothing). ValueError for an impossible round: the winner still holding cards, no other
    player, more cards than the pack, a player count outside 2-6 in classic rummy, ``rummy`` in
    the closed game."""
    if not winner:
        raise RuleError(Reason("cards_no_winner"))
    if hands.get(winner):
        raise RuleError(Reason("cards_winner_hand_not_empty", {"name": winner}))
    losers = {name: list(cards) for name, cards in hands.items() if name != winner}
    if not losers:
        raise RuleError(Reason("cards_no_other_player"))
    players = len(losers) + 1
    if rules.game == "classic" and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise RuleError(Reason("cards_player_count", {"min": MIN_PLAYERS, "max": MAX_PLAYERS, "count": players}))
    if rummy and rules.game != "classic":
        raise RuleError(Reason("cards_rummy_classic_only"))
    problems = over_supply([c for cards in losers.values() for c in cards], rules)
    if problems:
        raise InputError("more cards than the pack has: " + "; ".join(problems))
    if rules.game == "closed":
        return pot_scores(list(losers) + [winner], [winner], rules.entry)
    points = {name: hand_points(cards, rules) for name, cards in losers.items()}
    scores = {name: 0 for name in losers}
    scores[winner] = sum(points.values()) * (2 if rummy else 1)
    return scores


def winner_of_game(totals: Mapping[str, int], target: int = 100, rules: CardRules = CLASSIC) -> str | None:
    """Who has won the game, or None while it goes on (or on a tie for the top).

    Classic: the game ends when a total reaches ``target`` and the winner is the highest total.
    Closed: always None (played for a pot, each round settles its own; see the module docstring)."""
    if target <= 0:
        raise InputError(f"the target must be more than 0, got {target}")
    if not totals or rules.game != "classic":
        return None
    if not any(t >= target for t in totals.values()):
        return None
    best = max(totals.values())
    leaders = [name for name, t in totals.items() if t == best]
    return leaders[0] if len(leaders) == 1 else None
