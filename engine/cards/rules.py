"""The two card games, their decks, their card values and their house rules.

``closed``  Israeli closed rummy (רמי סגור): two 52-card decks and 2 jokers (106 cards), so at most
            2 copies of a card and 2 jokers; 14 cards each, 15 to the player who opens; going out
            ("declaring") needs the whole hand in series with at least one run.
``classic`` Classic Rummy: one 52-card deck, no jokers; 2-6 players; no run required.

Card values (the same in both games; ``ace_points`` and ``joker_points`` can be changed):
2-10 their number, J Q K 10, ace 1 wherever it stands (also at the top of Q-K-A), a joker left in
a hand 25 (closed game only; a joker in a series counts as the card it stands for).

The closed game is played for a pot (the Israeli closed-rummy text: each player's entry goes into
a pot, the declarer takes it): ``entry`` is the entry per player and round, set per game (default
1 coin). The classic game is played for points (its text defines them).

``ace_high`` (house rule, off by default): an ace may also rank above the king, so Q-K-A is a run
as well as A-2-3. A run never goes round the corner (K-A-2 is never a run), and one run can't use
the ace at both ends (a run is at most 13 cards).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from typing import Iterable, Literal

from engine.cards.cards import Card

__all__ = ["CardRules", "CLOSED", "CLASSIC", "GAMES", "Game", "over_supply", "rules_for"]

Game = Literal["closed", "classic"]
GAMES: tuple[str, ...] = ("closed", "classic")


@dataclass(frozen=True)
class CardRules:
    """game: "closed" or "classic"; ace_high: Q-K-A allowed (house rule); card values; entry
    (closed game: coins each player puts into the pot each round)."""

    game: Game = "closed"
    ace_high: bool = False
    ace_points: int = 1
    joker_points: int = 25
    entry: int = 1

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"game must be one of {', '.join(GAMES)}, got {self.game!r}")
        if self.ace_points < 0 or self.joker_points < 0:
            raise ValueError("card values must be 0 or more")
        if isinstance(self.entry, bool) or not isinstance(self.entry, int) or self.entry < 1:
            raise ValueError(f"the pot entry must be a whole number of coins, 1 or more, got {self.entry!r}")

    @property
    def decks(self) -> int:
        """52-card decks shuffled together: 2 closed, 1 classic."""
        return 2 if self.game == "closed" else 1

    @property
    def jokers(self) -> int:
        """Jokers in the pack: 2 closed, 0 classic."""
        return 2 if self.game == "closed" else 0

    @property
    def needs_run(self) -> bool:
        """Going out needs at least one run among the series (closed game)."""
        return self.game == "closed"

    @property
    def top(self) -> int:
        """Highest run position: 13 (king), or 14 with ace high (the ace above the king)."""
        return 14 if self.ace_high else 13

    def points(self, card: Card) -> int:
        """What a card is worth: 2-10 face value, J Q K 10, ace ``ace_points``, joker ``joker_points``."""
        if card.is_joker:
            return self.joker_points
        assert card.rank is not None
        if card.rank == 1:
            return self.ace_points
        return min(card.rank, 10)

    def with_(self, **changes: object) -> "CardRules":
        return replace(self, **changes)  # type: ignore[arg-type]


CLOSED = CardRules("closed")
CLASSIC = CardRules("classic")


def rules_for(game: str = "closed", ace_high: bool = False, entry: int = 1) -> CardRules:
    """The rules object for ``game`` ("closed"/"classic") with the ace-high house rule on or off
    and the closed game's pot entry."""
    return CardRules(game=game, ace_high=ace_high, entry=entry)  # type: ignore[arg-type]


def over_supply(cards: Iterable[Card], rules: CardRules = CLOSED) -> list[str]:
    """Cards that need more copies than the game's pack has; one message each (empty if none)."""
    counts = Counter(cards)
    problems: list[str] = []
    jokers = counts.pop(Card(None, None), 0)
    if jokers > rules.jokers:
        if rules.jokers == 0:
            problems.append(f"{jokers} joker{'s' if jokers > 1 else ''}: {rules.game} rummy is played without jokers")
        else:
            problems.append(f"{jokers} jokers: the pack has only {rules.jokers}")
    pack = "two decks have" if rules.decks == 2 else "one deck has"
    for card, n in sorted(counts.items(), key=lambda kv: kv[0].sort_key):
        if n > rules.decks:
            problems.append(f"{n} copies of {card.code}: {pack} only {rules.decks}")
    return problems
