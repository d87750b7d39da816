"""Tiles and the text notation.

A tile is a colour letter and a number: ``K`` black, ``R`` red, ``B`` blue, ``O`` orange
(``Y`` is accepted as orange), 1-13 (``R10``, ``K3``). ``J`` is a joker. A meld is tiles separated
by spaces; melds are separated by ``|``: ``"R10 R11 R12 | B6 K6 O6 | J K7 K8"``.

Rummikub Twist (the ``twist`` house rule) adds three special jokers, one of each in the box:
``JD`` the Double Joker, ``JM`` the Mirror Joker, ``JC`` the Colour-change Joker
(``Tile(None, None, "D")`` ...). The parser reads them only with ``twist=True``; without it they
are a NotationError (reason ``twist_off``), so nothing changes for the base game. ``is_joker`` is
the regular joker only; ``is_special`` a special one.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from engine.errors import InputError
from engine.reasons import Reason, render

COLOURS: tuple[str, ...] = ("K", "R", "B", "O")
COLOUR_NAMES: dict[str, str] = {"K": "black", "R": "red", "B": "blue", "O": "orange"}
COLOUR_ALIASES: dict[str, str] = {"Y": "O"}
NUMBERS: range = range(1, 14)
COPIES_PER_TILE = 2
JOKERS_IN_SET = 2
SPECIALS: tuple[str, ...] = ("D", "M", "C")  # Rummikub Twist: double, mirror, colour change
SPECIAL_NAMES: dict[str, str] = {"D": "double joker", "M": "mirror joker", "C": "colour-change joker"}
SPECIALS_IN_SET = 1  # one of each special joker in a Twist box (the sheet shows one of each)
FULL_SET_SIZE = len(COLOURS) * len(NUMBERS) * COPIES_PER_TILE + JOKERS_IN_SET  # 106


class NotationError(InputError):
    """A piece of tile notation that cannot be read; says which token and why. ``why_code`` is
    the ``why`` as a ``Reason`` (``engine.reasons``; None for the card notation's errors): the
    app writes ``token``, the translated reason and ``position`` (0-based, or None)."""

    def __init__(self, token: str, why: str | Reason, position: int | None = None) -> None:
        self.why_code = why if isinstance(why, Reason) else None
        why = render(why) if isinstance(why, Reason) else why
        self.token = token
        self.why = why
        self.position = position
        where = f" (tile {position + 1} of the input)" if position is not None else ""
        super().__init__(f"{token}: {why}{where}" if token else why)


def _code(colour: str | None, number: int | None, special: str | None) -> str:
    if special is not None:
        return f"J{special}"
    return "J" if colour is None else f"{colour}{number}"


@dataclass(frozen=True)
class Tile:
    """One tile face. ``colour`` and ``number`` are None for a joker; ``special`` is "D", "M" or
    "C" for the Rummikub Twist jokers (None otherwise)."""

    colour: str | None
    number: int | None
    special: str | None = None

    def __post_init__(self) -> None:
        # tiles are dict keys and set members all over the engine (the solver hashes thousands per
        # hint) and written out often: the hash the dataclass would compute and the code, once
        object.__setattr__(self, "_hash", hash((self.colour, self.number, self.special)))
        object.__setattr__(self, "_code", _code(self.colour, self.number, self.special))
        if self.special is not None:
            if self.special not in SPECIALS or self.colour is not None or self.number is not None:
                raise NotationError(f"J{self.special}", Reason("tile_shape"))
            return
        if self.colour is None and self.number is None:
            return
        if self.colour not in COLOURS:
            raise NotationError(str(self.colour), Reason("tile_colour_letter", {"colours": COLOURS}))
        if not isinstance(self.number, int) or self.number not in NUMBERS:
            raise NotationError(f"{self.colour}{self.number}", Reason("tile_number"))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined,no-any-return]

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (
            self.colour == other.colour  # type: ignore[attr-defined]
            and self.number == other.number  # type: ignore[attr-defined]
            and self.special == other.special  # type: ignore[attr-defined]
        )

    def __reduce__(self) -> tuple:
        # rebuilt through __init__ (pickles, copies): the cached hash of another process differs
        return (Tile, (self.colour, self.number, self.special))

    @property
    def is_joker(self) -> bool:
        """The regular joker (not a Twist special joker)."""
        return self.colour is None and self.special is None

    @property
    def is_special(self) -> bool:
        """A Rummikub Twist special joker (``JD``, ``JM``, ``JC``)."""
        return self.special is not None

    @property
    def code(self) -> str:
        return self._code  # type: ignore[attr-defined,no-any-return]

    @property
    def value(self) -> int:
        """Face value (a joker's value depends on where it stands; 0 here)."""
        return 0 if self.number is None else self.number

    def __str__(self) -> str:
        return self.code

    @property
    def sort_key(self) -> tuple[int, int]:
        """Colour order K R B O, then number; jokers last (the special jokers after J: D, M, C)."""
        if self.colour is None:
            return (len(COLOURS), 0 if self.special is None else 1 + SPECIALS.index(self.special))
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
DOUBLE_JOKER = Tile(None, None, "D")
MIRROR_JOKER = Tile(None, None, "M")
COLOUR_JOKER = Tile(None, None, "C")
SPECIAL_JOKERS: tuple[Tile, ...] = (DOUBLE_JOKER, MIRROR_JOKER, COLOUR_JOKER)
ALL_FACES: tuple[Tile, ...] = tuple(Tile(c, n) for c in COLOURS for n in NUMBERS)
ALL_CODES: tuple[str, ...] = tuple(t.code for t in ALL_FACES) + ("J",)  # the base game's 53 codes
TWIST_CODES: tuple[str, ...] = tuple(t.code for t in SPECIAL_JOKERS)  # "JD", "JM", "JC"

_FACE_OF: dict[tuple[str | None, int | None], Tile] = {(t.colour, t.number): t for t in ALL_FACES}
_CANONICAL: dict[Tile, Tile] = {t: t for t in (*ALL_FACES, JOKER, *SPECIAL_JOKERS)}


def canonical(tile: Tile) -> Tile:
    """The one shared object equal to ``tile`` (``ALL_FACES``, ``JOKER``, ``SPECIAL_JOKERS``):
    dict and set lookups between shared objects stop at the identity check."""
    return _CANONICAL.get(tile, tile)


def canonical_tiles(tiles: Iterable[Tile]) -> tuple[Tile, ...]:
    """``canonical`` of each tile."""
    tiles = tuple(tiles)
    return tuple(map(_CANONICAL.get, tiles, tiles))


def face(colour: str, number: int) -> Tile:
    """The tile of ``ALL_FACES`` with this colour and number (``colour`` in COLOURS, ``number`` in
    NUMBERS): one object per face, so tiles built by the engine compare by identity first."""
    return _FACE_OF[(colour, number)]


_TOKEN = re.compile(r"^([A-Za-z])(\d+)$")


def parse_tile(token: str, position: int | None = None, twist: bool = False) -> Tile:
    """Read one tile code (``R10``, ``k3``, ``Y7``, ``J``; with ``twist`` also ``JD``, ``JM``,
    ``JC``); raise NotationError saying why not."""
    raw = token
    token = token.strip()
    if not token:
        raise NotationError(raw, Reason("tile_empty"), position)
    up = token.upper()
    if up in ("J", "JOKER", "*"):
        return JOKER
    if up in TWIST_CODES:
        if not twist:
            raise NotationError(token, Reason("twist_off", {"tile": up}), position)
        return canonical(Tile(None, None, up[1]))
    m = _TOKEN.match(up)
    if not m:
        if up[0] in COLOURS or up[0] in COLOUR_ALIASES:
            raise NotationError(token, Reason("tile_shape"), position)
        raise NotationError(token, Reason("tile_colour"), position)
    letter, digits = m.group(1), m.group(2)
    letter = COLOUR_ALIASES.get(letter, letter)
    if letter not in COLOURS:
        raise NotationError(token, Reason("tile_colour"), position)
    number = int(digits)
    if number not in NUMBERS:
        raise NotationError(token, Reason("tile_number"), position)
    return face(letter, number)


def parse_tiles(text: str, twist: bool = False) -> list[Tile]:
    """Read a whitespace/comma separated list of tiles (a meld or a rack)."""
    tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    return [parse_tile(t, i, twist) for i, t in enumerate(tokens)]


def parse_melds(text: str, twist: bool = False) -> list[list[Tile]]:
    """Read melds separated by ``|``. Empty melds (``"R1 R2 R3 ||"``) are an error."""
    if not text.strip():
        return []
    parts = text.split("|")
    melds: list[list[Tile]] = []
    offset = 0
    for index, part in enumerate(parts):
        tokens = [t for t in re.split(r"[\s,]+", part.strip()) if t]
        if not tokens:
            raise NotationError("|", Reason("meld_empty", {"meld": index + 1}))
        melds.append([parse_tile(t, offset + i, twist) for i, t in enumerate(tokens)])
        offset += len(tokens)
    return melds


def format_tiles(tiles: Iterable[Tile]) -> str:
    return " ".join([t._code for t in tiles])  # type: ignore[attr-defined]


def format_melds(melds: Iterable[Sequence[Tile]]) -> str:
    return " | ".join(format_tiles(m) for m in melds)


def tile_counts(tiles: Iterable[Tile]) -> Counter[Tile]:
    return Counter(tiles)


_FEWEST_COPIES = min(COPIES_PER_TILE, JOKERS_IN_SET, SPECIALS_IN_SET)


def over_supply_reasons(tiles: Iterable[Tile]) -> list[Reason]:
    """Tiles that need more copies than a full 106-tile set has: a ``supply_copies`` reason for
    each (``engine.reasons``; the tile ``J`` for the jokers)."""
    return over_supply_counted(tile_counts(tiles))


def over_supply_counted(counts: Mapping[Tile, int]) -> list[Reason]:
    """``over_supply_reasons`` of tiles already counted (tile -> copies)."""
    over = []
    for tile, n in counts.items():
        if n <= _FEWEST_COPIES:  # most tiles (the hint solver checks every answer: kept cheap)
            continue
        limit = JOKERS_IN_SET if tile.is_joker else SPECIALS_IN_SET if tile.is_special else COPIES_PER_TILE
        if n > limit:
            over.append((tile.code, n, limit))
    return [Reason("supply_copies", {"tile": code, "count": n, "limit": limit}) for code, n, limit in sorted(over)]


def over_supply(tiles: Iterable[Tile]) -> list[str]:
    """Tiles that need more copies than a full 106-tile set has; one message for each."""
    return [render(r) for r in over_supply_reasons(tiles)]
