"""Which way is up, from a tile's neighbours.

A 6 turned over is a 9, and on an edition whose digits fill the face (no circle, no maker's mark
below the number) nothing on the tile itself says which end is up. Its neighbours do: the tiles of
a meld are laid by one player and face the same way, and the tiles of a rack stand the same way
up. A neighbour whose number reads one way only (a 4, a 12: turned over it reads as no number)
shows the way up of its part of the photo, and a tile that cannot tell leans on what its
neighbours show.

The neighbours are the tiles nearest on the photo, not a layout's rows: this runs inside the number
reader, before the layout. Tiles strewn at every angle show no common way up (their directions
cancel out), and then nothing changes. How much the neighbours count is bounded (``NeighbourSettings``),
and the fusion's own six-nine share is fitted on top of it by the calibration.

Angles are the clockwise degrees that would bring a face upright, as in ``vision.ocr``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import numpy as np

# numbers that read as another number, or as themselves, turned over: they show no way up
TURN_AMBIGUOUS = (1, 6, 8, 9, 11)
TURNED_PAIR = (6, 9)  # each the other turned over
TELLING = tuple(n for n in range(1, 14) if n not in TURN_AMBIGUOUS)


def known_turns(ways: Sequence[float] | np.ndarray) -> np.ndarray:
    """The turns of tiles whose way is known, each folded to how far it lies from upright, 0-180 degrees either way
    round (a tile at -170 or 190 lies 170 from upright). ways: the turn (clockwise degrees) under which each tile
    reads a number surely, NaN where none does (``vision.types.NumberAnswers.ways``); the NaNs are left out."""
    turns = np.abs((np.asarray(ways, dtype=np.float64).reshape(-1) + 180.0) % 360.0 - 180.0)
    return turns[~np.isnan(turns)]


def turned_over(number: int) -> int:
    """The number a tile showing ``number`` reads as when turned over, where that is another number (6 and
    9); any other number is itself."""
    a, b = TURNED_PAIR
    return b if number == a else a if number == b else number


def turned_code(code: str) -> str:
    """The code a tile reads as turned over: a 6 is the 9 of its colour and back; any other code is itself."""
    return f"{code[0]}{turned_over(int(code[1:]))}" if reads_turned(code) else code


def reads_turned(code: str) -> bool:
    """Whether a tile code (``"K6"``, ``"O12"``, ``"J"``...) shows one of the numbers that turn into each other."""
    return not code.startswith("J") and code[1:].isdigit() and int(code[1:]) in TURNED_PAIR


@dataclass(frozen=True)
class NeighbourSettings:
    # neighbours lie within this many face heights, centre to centre: far enough to take in a rack's or a meld's
    # other tiles whose number shows the way up (on an edition the recogniser reads poorly, few of them do)
    reach: float = 5.0
    min_tell: float = 0.8  # a tile shows its way up when a telling number is read this surely under one turn
    strength: float = 0.9  # the most the neighbours may move a tile's turns: 0.5 +- strength / 2


DEFAULT_NEIGHBOURS = NeighbourSettings()


@dataclass(frozen=True)
class ShownUp:
    """The way up one tile shows by itself: its upright angle and how surely (0 where it shows none)."""

    angle: float
    weight: float


def lean_toward(turns: Sequence[float], up: float, amount: float) -> np.ndarray:
    """Weights of the ``turns`` (degrees) for evidence that ``up`` (degrees) is up, as sure as ``amount``
    (0: says nothing, 1: certain): 0.5 + amount / 2 on that turn, 0.5 - amount / 2 on its opposite."""
    return 0.5 + 0.5 * amount * np.cos(np.radians(np.asarray(turns, dtype=np.float64) - up))


def shown_up(angles: Sequence[float], rows: np.ndarray, settings: NeighbourSettings = DEFAULT_NEIGHBOURS) -> ShownUp:
    """The way up a tile shows, from its turns' readings.

    angles: the turns read; rows: (turns, 14) their probabilities over 1..13 and "no number". A
    turn shows the way up where it reads a telling number surely and every other turn reads one
    less surely: the weight is the margin over the next turn.
    """
    if not len(angles):
        return ShownUp(0.0, 0.0)
    rows = np.asarray(rows, dtype=np.float64).reshape(len(angles), -1)
    tell = rows[:, [n - 1 for n in TELLING]].sum(1)
    best = int(np.argmax(tell))
    if tell[best] < settings.min_tell:
        return ShownUp(float(angles[best]), 0.0)
    others = np.delete(tell, best)
    margin = float(tell[best] - (others.max() if len(others) else 0.0))
    return ShownUp(float(angles[best]), max(0.0, margin))


def neighbour_priors(
    centres: np.ndarray,
    heights: np.ndarray,
    shown: Sequence[ShownUp],
    turns: Sequence[Sequence[float]],
    settings: NeighbourSettings = DEFAULT_NEIGHBOURS,
) -> list[np.ndarray]:
    """For each tile, a prior over its turns from the way up its neighbours show.

    centres: (N, 2) face centres; heights: (N,) face heights (the long side), both in photo pixels.
    Returns one array per tile, one value per turn, each 0.5 +- strength / 2 x agreement: 0.5
    everywhere where the neighbours show nothing or disagree. A tile's own way up is never its own
    evidence.
    """
    centres = np.asarray(centres, dtype=np.float64).reshape(-1, 2)
    heights = np.asarray(heights, dtype=np.float64).reshape(-1)
    n = len(centres)
    if not (len(heights) == len(shown) == len(turns) == n):
        raise ValueError(f"centres, heights, shown and turns must be one per tile: {n}, {len(heights)}, {len(shown)}, {len(turns)}")
    w = np.array([s.weight for s in shown], dtype=np.float64)
    a = np.radians(np.array([s.angle for s in shown], dtype=np.float64))
    vec = np.stack([np.cos(a), np.sin(a)], axis=1) * w[:, None]
    out = []
    for i in range(n):
        k = len(turns[i])
        if k < 2:
            out.append(np.full(k, 0.5))
            continue
        d = np.hypot(*(centres - centres[i]).T)
        near = (d <= settings.reach * np.maximum(heights, heights[i])) & (w > 0)
        near[i] = False
        if not near.any():
            out.append(np.full(k, 0.5))
            continue
        total = vec[near].sum(0)
        # agreement in 0..1; one pseudo-neighbour that shows nothing keeps a lone neighbour from deciding
        agree = float(np.hypot(*total)) / (float(w[near].sum()) + 1.0)
        out.append(lean_toward(turns[i], float(np.degrees(np.arctan2(total[1], total[0]))), settings.strength * agree))
    return out
