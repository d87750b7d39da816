"""Dealing, laying off and scoring for the card games.

Card values (``CardRules.points``): 2-10 their number, J Q K 10, ace 1, a joker left in a hand 25.

**Classic Rummy** (only the winner scores): the player who goes out scores the value of every
other hand added together; everybody else scores 0 for the round. "Rummy" (going out in one
turn without having melded before) doubles it (house rule, ``rummy=True``). The game is played
to a target (e.g. 100): the first total to reach it wins.

**Closed rummy** (penalties): the player who declares scores 0; every other player scores
*minus* the value of their whole hand (nothing was laid down, so every card in the hand counts,
a joker 25). Totals only ever go down; when some total reaches minus the limit (e.g. -100; the
player's penalty reached the limit) the game ends and the player with the highest total (the
fewest penalty points) wins. "Rummy" doubling does not apply to the closed game.

Either way ``winner_of_game`` returns None while the game goes on, and also on a tie for the
top (play another round).
"""

from __future__ import annotations

from typing import Mapping, Sequence

from engine.cards.cards import Card
from engine.cards.rules import CLASSIC, CardRules, over_supply
from engine.cards.series import check_series, is_valid_series

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "can_lay_off", "deal_size", "hand_points", "round_scores", "winner_of_game"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6


def deal_size(players: int) -> int:
    """Cards dealt to each player in classic Rummy: 10 for 2 players, 7 for 3-4, 6 for 5-6."""
    if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"classic rummy is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players}")
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
        raise ValueError(f"not a valid meld: {check.reason}")
    return is_valid_series(list(meld) + [card], rules)


def round_scores(
    hands: Mapping[str, Sequence[Card]],
    winner: str,
    rules: CardRules = CLASSIC,
    rummy: bool = False,
) -> dict[str, int]:
    """One round's scores, every player (the winner included) by name; see the module docstring.

    ``hands`` holds what each player has left; the winner may be missing from it (or hold
    nothing). ValueError for an impossible round: the winner still holding cards, no other
    player, more cards than the pack, a player count outside 2-6 in classic rummy, ``rummy`` in
    the closed game."""
    if not winner:
        raise ValueError("name the player who went out")
    if hands.get(winner):
        raise ValueError(f"{winner} went out, so their hand must be empty")
    losers = {name: list(cards) for name, cards in hands.items() if name != winner}
    if not losers:
        raise ValueError("a round needs at least one other player besides the winner")
    players = len(losers) + 1
    if rules.game == "classic" and not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"classic rummy is for {MIN_PLAYERS}-{MAX_PLAYERS} players, got {players}")
    if rummy and rules.game != "classic":
        raise ValueError("'rummy' doubling is a classic-rummy house rule")
    problems = over_supply([c for cards in losers.values() for c in cards], rules)
    if problems:
        raise ValueError("more cards than the pack has: " + "; ".join(problems))
    points = {name: hand_points(cards, rules) for name, cards in losers.items()}
    if rules.game == "classic":
        scores = {name: 0 for name in losers}
        scores[winner] = sum(points.values()) * (2 if rummy else 1)
    else:
        scores = {name: -p for name, p in points.items()}
        scores[winner] = 0
    return scores


def winner_of_game(totals: Mapping[str, int], target: int = 100, rules: CardRules = CLASSIC) -> str | None:
    """Who has won the game, or None while it goes on (or on a tie for the top).

    Classic: the game ends when a total reaches ``target``; closed: when a total reaches
    ``-target`` (a penalty of ``target``). The winner is the highest total."""
    if target <= 0:
        raise ValueError(f"the target must be more than 0, got {target}")
    if not totals:
        return None
    if rules.game == "classic":
        over = any(t >= target for t in totals.values())
    else:
        over = any(t <= -target for t in totals.values())
    if not over:
        return None
    best = max(totals.values())
    leaders = [name for name, t in totals.items() if t == best]
    return leaders[0] if len(leaders) == 1 else None
