"""The value objects passed between the vision stages and to the app (a stable contract)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Image:
    """An RGB photo as a person sees it (EXIF orientation applied)."""

    rgb: np.ndarray  # H x W x 3, uint8, RGB
    path: str = ""

    @property
    def width(self) -> int:
        return int(self.rgb.shape[1])

    @property
    def height(self) -> int:
        return int(self.rgb.shape[0])


# Why a tile is doubtful where the reader has a reason of its own beyond how sure it is
# (``TileReading.doubt``): a stable code, never renamed, and its English text; the app may translate.
TWIST_UNCONFIRMED = "twist_unconfirmed"
INK_COLOUR = "ink_colour"
JOKER_KIND = "joker_kind"
INK_RECOLOURED = "ink_recoloured"
CROWDED = "crowded"
PARTIAL = "partial"
CUT_BY_FRAME = "cut_by_frame"
OVERLAPPING = "overlapping"
TOO_CLOSE = "too_close"
JOINED = "joined"
LOW_VIEW = "low_view"
NO_COLOUR = "no_colour"
MIRRORED = "mirrored"
FEW_SURE = "few_sure"
DOUBT_TEXT: dict[str, str] = {
    NO_COLOUR: "the photo holds no colour to read (black and white, sepia or faded): no tile's colour can be read from it (vision.mono)",
    TWIST_UNCONFIRMED: "a Rummikub Twist joker: the reader has not yet been checked on a real photo of one",
    INK_COLOUR: "the ink looks another colour than the one read (vision.ink)",
    INK_RECOLOURED: "the colour was taken from the ink (vision.ink): the tile classifier saw another colour",
    PARTIAL: "the tile's ink goes on past its box, or its box is far smaller than the boxes beside it, or on a rack the box and the one beside it read as one 10-13 together: the box may hold only part of the number (vision.partial, vision.halves)",
    CUT_BY_FRAME: "the tile runs off the photo's edge: part of its number may be outside the photo (vision.frame)",
    OVERLAPPING: "its box overlaps another's by a third or more: one of them may be the same tile found twice, or lie across two tiles (vision.outline)",
    CROWDED: "its box lies over a neighbour's in a meld that is valid without it: perhaps the same tile found twice, or no tile",
    JOINED: "found as two boxes, one round each digit of its number, joined into one tile (vision.halves): check its number",
    TOO_CLOSE: "its box lies closer to a neighbour's than two tiles can: it may hold one digit of a two-digit number, the same tile found twice, or no tile (vision.layout.too_close, close_at_own_width)",
    LOW_VIEW: "read on a table seen from low down, its number drawn with fewer pixels than it is read with: sure otherwise, and held to a bound of its own (vision.lowview); a photo from higher up reads it surely",
    JOKER_KIND: "a joker where Twist jokers may be in play: the reader has not yet been checked on telling them apart on a real photo",
    MIRRORED: "the number reader reads this photo's numbers far more surely mirrored, yet mirrored back it reads no surer: the photo may be saved mirrored (a front camera's), so check each tile (vision.mirror)",
    FEW_SURE: "the reader is sure of few of this photo's tiles (a photo too slanted, shaken or blurred, or an edition it does not know), and on such a photo the few it is sure of are no surer than the rest (vision.hard)",
}


@dataclass(frozen=True)
class NumberAnswers:
    """The number reader's answers on a photo's tiles (``vision.ocr``): ``probs``, (N, 14) probabilities over 1..13
    and "no number"; ``ways``, (N,) the way each tile lies: the turn (clockwise degrees) under which it reads a number
    surely, NaN where none does (which end is up it may have wrong, a 6 for a 9, but not which way the tile lies)."""

    probs: np.ndarray
    ways: np.ndarray


@dataclass
class TileReading:
    """One tile found in a photo."""

    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels of the (EXIF-rotated) image
    code: str  # tile notation, e.g. "R10" or "J"
    confidence: float  # probability of ``code``
    alternatives: list[tuple[str, float]] = field(default_factory=list)  # next-best (code, p)
    meld: int | None = None  # index into PhotoReading.melds; None for rack photos and lone tiles
    doubtful: bool = False  # the rule-aware reading could not settle it, or ``doubt`` says why
    doubt: str | None = None  # a reason of its own (a ``DOUBT_TEXT`` code), None when none; only with doubtful

    def to_json(self) -> dict[str, Any]:
        return {
            "box": [round(float(v), 1) for v in self.box],
            "code": self.code,
            "confidence": round(float(self.confidence), 4),
            "alternatives": [{"code": c, "p": round(float(p), 4)} for c, p in self.alternatives],
            "meld": self.meld,
            "doubtful": self.doubtful,
            "doubt": self.doubt,
        }


@dataclass
class MeldReading:
    """A meld as laid out on the table, checked by the engine."""

    tiles: list[int]  # indices into PhotoReading.tiles, in reading order
    codes: list[str]
    valid: bool
    kind: str | None  # "run", "group" or None
    value: int
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "tiles": self.tiles,
            "codes": self.codes,
            "valid": self.valid,
            "kind": self.kind,
            "value": self.value,
            "reason": self.reason,
        }


@dataclass
class PhotoReading:
    """Everything read from one photo."""

    path: str
    width: int
    height: int
    tiles: list[TileReading]
    melds: list[MeldReading]
    warnings: list[str] = field(default_factory=list)
    ms: float = 0.0
    rack: bool = False
    stretch: float = 1.0  # read this many times taller: a table seen from low down (vision.lowview); 1: as taken
    # read turned this many quarter turns clockwise (vision.turn: a rack standing sideways or upside down, a table whose rows run down
    # the photo; a stretch then applies to the turned photo's height); 0: as taken
    turned: int = 0
    # read mirrored left to right (vision.mirror: a photo saved mirrored, read mirrored back; then turned and
    # stretched as above, on the mirrored photo); False: as taken
    mirrored: bool = False

    def codes(self) -> list[str]:
        return [t.code for t in self.tiles]

    def to_json(self) -> dict[str, Any]:
        return {
            "image": {"path": self.path, "width": self.width, "height": self.height, "stretch": round(float(self.stretch), 3),
                      "turned": self.turned, "mirrored": self.mirrored},
            "tiles": [t.to_json() for t in self.tiles],
            "melds": [m.to_json() for m in self.melds],
            "warnings": list(self.warnings),
            "ms": round(float(self.ms), 1),
        }


def colour_unread(tiles: Iterable[TileReading]) -> bool:
    """Is a tile doubted because its photo holds no colour to read (``NO_COLOUR``)? Then every numbered tile's
    colour is in doubt until a person names it, and that is said once, first."""
    return any(t.doubt == NO_COLOUR for t in tiles)


def few_read_surely(tiles: Iterable[TileReading]) -> bool:
    """Is a tile doubted because the reader was sure of few of its photo's tiles (``FEW_SURE``)? Then the photo
    asks to be taken again until a person has named every tile it held, and that is said once, first."""
    return any(t.doubt == FEW_SURE for t in tiles)
