"""Tiles and the text notation.

A tile is a colour letter and a number: ``K`` black, ``R`` red, ``B`` blue, ``O`` orange
(``Y`` is accepted as orange), 1-13 (``R10``, ``K3``). ``J`` is a joker. A meld is tiles separated
by spaces; melds are separated by ``|``: ``"R10 R11 R12 | B6 K6 O6 | J K7 K8"``.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

COLOURS: tuple[str, ...] = ("K", "R", "B", "O")
COLOUR_NAMES: dict[str, str] = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
COLOUR_ALIASES: dict[str, str] = {"Y": "O"}
NUMBERS: range = range(1, 14)
COPIES_PER_TILE = 2
JOKERS_IN_SET = 2
FULL_SET_SIZE = len(COLOURS) * len(NUMBERS) * COPIES_PER_TILE + JOKERS_IN_SET  # 106


class NotationError(ValueError):
    """A piece of tile notation that cannot be read; says which token and why."""

    def __init__(self, token: str, why: str, position: int | None = None) -> None:
        self.token = token
        self.why = why
        self.position = position
        where = f" (tile {position + 1} of the input)" if position is not None else ""
        super().__init__(f"{token}: {why}{where}" if token else why)


@dataclass(frozen=True)
class Tile:
    """One tile face. ``colour`` and ``number`` are None for a joker."""

    colour: str | None
    number: int | None

    def __post_init__(self) -> None:
        if self.colour is None and self.number is None:
            return
        if self.colour not in COLOURS:
            raise NotationError(str(self.colour), f"colour must be one of {', '.join(COLOURS)}")
        if not isinstance(self.number, int) or self.number not in NUMBERS:
            raise NotationError(f"{self.colour}{self.number}", "numbers run 1-13")

    @property
    def is_joker(self) -> bool:
        return self.colour is None

    @property
    def code(self) -> str:
        return "J" if self.is_joker else f"{self.colour}{self.number}"

    @property
    def value(self) -> int:
        """Face value (a joker's value depends on where it stands; 0 here)."""
        return 0 if self.number is None else self.number

    def __str__(self) -> str:
        return self.code

    @property
    def sort_key(self) -> tuple[int, int]:
        """Colour order K R B O, then number; jokers last."""
        if self.colour is None:
            return (len(COLOURS), 0)
        return (COLOURS.index(self.colour), int(self.number or 0))

    def __lt__(self, other: "Tile") -> bool:
        if not isinstance(other, Tile):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __repr__(self) -> str:
        return f"Tile({self.code})"

    @classmethod
    def parse(cls, token: str, position: int | None = None) -> "Tile":
        return parse_tile(token, position)


JOKER = Tile(None, None)
ALL_FACES: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in NUMBERS)
ALL_CODES: tuple[str, ...] = tuple(t.code for t in ALL_FACES) + ("J",)

_TOKEN = re.compile(r"^([A-Za-z])(\d+)$")


def parse_tile(token: str, position: int | None = None) -> Tile:
    """Read one tile code (``R10``, ``k3``, ``Y7``, ``J``); raise NotationError saying why not."""
    raw = token
    token = token.strip()
    if not token:
        raise NotationError(raw, "empty tile", position)
    up = token.upper()
    if up in ("J", "JOKER", "*"):
        return JOKER
    m = _TOKEN.match(up)
    if not m:
        if up[0] in COLOURS or up[0] in COLOUR_ALIASES:
            raise NotationError(token, "a tile is a colour letter then a number 1-13, like R10", position)
        raise NotationError(
            token, "unknown colour: use K (black), R (red), B (blue), O (orange) or J for a joker", position
        )
    letter, digits = m.group(1), m.group(2)
    letter = COLOUR_ALIASES.get(letter, letter)
    if letter not in COLOURS:
        raise NotationError(
            token, "unknown colour: use K (black), R (red), B (blue), O (orange) or J for a joker", position
        )
    number = int(digits)
    if number not in NUMBERS:
        raise NotationError(token, "numbers run 1-13", position)
    return Tile(letter, number)


def parse_tiles(text: str) -> list[Tile]:
    """Read a whitespace/comma separated list of tiles (a meld or a rack)."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    return [parse_tile(t, i) for i, t in enumerate(tokens)]


def parse_melds(text: str) -> list[list[Tile]]:
    """Read melds separated by ``|``. Empty melds (``"R1 R2 R3 ||"``) are an error."""
    if not text.strip():
        return []
    parts = text.split("|")
    melds: list[list[Tile]] = []
    offset = 0
    for index, part in enumerate(parts):
        tokens = [t for t in re.split(r"[\s,]+", part.strip()) if t]
        if not tokens:
            raise NotationError("|", f"meld {index + 1} is empty (two '|' in a row, or one at an end)")
        melds.append([parse_tile(t, offset + i) for i, t in enumerate(tokens)])
        offset += len(tokens)
    return melds


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join(t.code for t in tiles)


def format_melds(melds: Iterable[Sequence[Tile]]) -> str:
    return " | ".join(format_tiles(m) for m in melds)


def tile_counts(tiles: Iterable[Tile]) -> Counter[Tile]:
    return Counter(tiles)


def over_supply(tiles: Iterable[Tile]) -> list[str]:
    """Tiles that need more copies than a full 106-tile set has; one message for each."""
    problems: list[str] = []
    for tile, n in sorted(tile_counts(tiles).items(), key=lambda kv: kv[0].code):
        limit = JOKERS_IN_SET if tile.is_joker else COPIES_PER_TILE
        if n > limit:
            what = "jokers" if tile.is_joker else f"copies of {tile.code}"
            raise_or = f"{n} {what}: a full set has only {limit}"
            problems.append(raise_or)
    return problems
