"""An independent opinion on one thing only: the colour of a tile's ink, measured on the photo.

The classifier decides a tile's colour (``vision.fusion``), and on an edition it never saw it can be
sure and wrong: a blue it has not learnt read as black. This module looks at the ink itself, with
no learning, so that it fails differently:

* the tile's body is the brightest part of its face; dividing by its colour cancels the light's
  colour and the camera's white balance (a white, ivory or grey body all become white);
* the ink is the share of pixels farthest from that white;
* its colour is a hue angle and a chroma in CIELAB. Only a clear hue gives an opinion: red
  (crimson to scarlet), orange (orange to yellow) or blue (teal to navy). Black ink, and dark
  or blurred ink whose hue cannot be told, give none: a dark blue and a black look alike here,
  so "no colour" is no evidence either way.

The ink is used four ways:

* as evidence in the fusion (``InkRates``, ``ink_likelihood``): how often the ink names each colour
  on a tile of each true colour is counted on the calibration renders (``training.calibrate``), and
  how far to believe it beside the classifier, which often sees the same thing, is fitted there too
  (``vision.fusion.FusionParams.evidence_weight``);
* as doubt (``ink_disagrees``): a tile read as black whose ink is clearly blue, or read as red whose
  ink is clearly orange, is shown as doubtful, so that the one mistake people named (blue read as
  black, with high confidence) is put in front of them. For the doubt the ink is also measured on the
  tile's face and its clear ink alone (``CLEAR_INK``, ``clear_inks``), which a turned tile's
  box corners and a small number's plastic do not dilute;
* as a correction (``held_to_blue``): a tile read as black whose face's clear ink is blue beyond doubt is read
  again as a blue tile of the number read (or a joker), and stays doubtful. The classifier reads the blues it never saw
  (teal, navy) as black; the clear ink names them, where as evidence for every tile it would also make surer
  the tiles whose number is wrong;
* as a second correction (``held_to_colour_change``): where the Twist rule is on, a tile whose clear ink shows red,
  orange and blue at once is the colour-change joker, however its mark is drawn (``ink_shares``); where it is off, a
  tile so inked read as a number is doubted (no numbered tile shows every colour).

The hue sectors and chroma floors were chosen on rendered photos in the training and calibration
styles and on the real training photos, never on held-out photos.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Mapping, Protocol, Sequence

import cv2
import numpy as np

from vision.fusion import COLOURS, colour_of  # the true colours the rates are kept for

# the colours an ink opinion can name (black is never named: see the module's docstring)
RED, ORANGE, BLUE = "R", "O", "B"
BLACK = "K"
OPINIONS: tuple[str | None, ...] = (RED, ORANGE, BLUE, None)
# for a tile read in the key's colour: the ink opinions that contradict it
CONTRADICTS: dict[str, str] = {"K": BLUE, "B": RED + ORANGE, "R": ORANGE + BLUE, "O": RED + BLUE}


@dataclass(frozen=True)
class InkSettings:
    margin: float = 0.12  # of the box trimmed off each side: neighbours and the table stay out
    side: int = 48  # the face is shrunk to at most this many pixels on its long side first
    body_share: float = 0.3  # the brightest pixels taken as the tile's body
    ink_share: float = 0.12  # the pixels farthest from the body's white taken as ink
    # hue sectors in CIELAB degrees, [from, to) going round
    red: tuple[float, float] = (320.0, 35.0)
    orange: tuple[float, float] = (60.0, 130.0)
    # a turquoise edition's blue, white-balanced, leans green, down to about 170; no black, red or orange ink
    # shows that hue clearly, so the sector takes it in (greener still, a black ink under a cast can show it too)
    blue: tuple[float, float] = (170.0, 300.0)
    warm_chroma: float = 18.0  # red and orange need at least this chroma
    blue_chroma: float = 14.0  # blue is darker, so it shows less of it
    # ``face_only``: the ink measured on the tile's face alone (the hull of its largest patch of plastic) and on its
    # clear ink alone (``ink_far``, ``ink_depth``, ``least_ink``), not on a share of the whole box
    face_only: bool = False
    plastic: float = 0.15  # a pixel this near the body's white (white-balanced RGB distance) is plastic
    least_face: float = 0.25  # the face found must cover this share of the box, or the whole box is taken
    ink_far: float = 0.25  # a pixel clearly ink is at least this far from the body's white
    ink_depth: float = 0.5  # ... and at least this share as far as the face's farthest pixel
    least_ink: int = 4  # pixels clearly ink, at least, to take them alone (else the share farthest, as without)


DEFAULT_INK = InkSettings()
# The opinion as evidence (``InkOpinion``, whose rates the calibration counts) takes the share of the box farthest
# from white: on a turned tile that can be the table, and on a small number mostly plastic, so it names fewer colours.
# For the doubt alone (``clear_inks``) the ink is measured on the face and its clear ink: it names the colour
# far more often, and as evidence it would make a number read on a joker of an unknown face surer with it. Undiluted,
# a black ink white-balanced on ivory plastic shows as much blue as a diluted blue did: blue's floor is the warm ones'.
# On the face's clear ink alone no table or light shows a green hue: a blue leaning further toward green (a turquoise
# blurred by a JPEG's coarse colour) is still told.
CLEAR_INK = InkSettings(face_only=True, blue_chroma=18.0, blue=(160.0, 300.0))
# A black ink white-balanced on its plastic can show a blue cast on the face's clear ink: on the calibration renders,
# the synthetic test and the real training photos the most any black showed was a chroma of 19 (a violet-blue cast). A
# tile read as black is taken for blue (``held_to_blue``) only where its clear ink shows more.
BLUE_BEYOND_DOUBT = dataclasses.replace(CLEAR_INK, blue_chroma=20.0, warm_chroma=float("inf"))
# Rummikub Twist's colour-change joker is drawn in the four colours; a numbered tile in one, a joker in one or two.
# On the labelled tiles of the calibration renders and the synthetic test, no numbered tile's clear ink showed all three
# clear colours on a tenth of it each, and no other joker's did; every colour-change joker of the calibration's style
# did, and six in ten of the training style's (a disc in four quarters, whose orange and red run into each other).
COLOUR_CHANGE = "JC"
EVERY_COLOUR_SHARE = 0.1
# the readers' own reading of a tile held to the colour-change joker, kept beside it at this weight: a person checking
# the tile is offered what they read (``vision.consistent`` lists alternatives of 0.01 and more). Below the rules' own
# weight (``vision.consistent.VALID_PRIOR``: a valid meld 32 times likelier than none), so that no meld's validity
# chooses the readers' reading over the ink's
READERS_KEPT = 0.02


def body_and_ink(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = DEFAULT_INK) -> tuple[np.ndarray, np.ndarray] | None:
    """A tile's body colour (RGB, 0-1) and its ink's colour white-balanced on that body; None where the box holds
    too few pixels to tell."""
    found = ink_pixels(rgb, box, settings)
    return None if found is None else (found[0], found[1].mean(axis=0))


def ink_pixels(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = DEFAULT_INK) -> tuple[np.ndarray, np.ndarray] | None:
    """A tile's body colour (RGB, 0-1) and its ink's pixels white-balanced on that body, (K, 3); None where the box
    holds too few pixels to tell."""
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = x2 - x1, y2 - y1
    m = settings.margin
    top, bottom = int(round(y1 + m * h)), int(round(y2 - m * h))
    left, right = int(round(x1 + m * w)), int(round(x2 - m * w))
    face = rgb[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)]
    if face.shape[0] < 4 or face.shape[1] < 4:
        return None
    scale = settings.side / max(face.shape[:2])
    if scale < 1.0:
        face = cv2.resize(face, (max(int(face.shape[1] * scale), 2), max(int(face.shape[0] * scale), 2)), interpolation=cv2.INTER_AREA)
    img = face.astype(np.float32) / 255.0
    px = img.reshape(-1, 3)
    lum = px.mean(1)
    n_body = max(int(len(px) * settings.body_share), 1)
    body = np.median(px[np.argpartition(-lum, n_body - 1)[:n_body]], axis=0)
    white = np.clip(img / np.maximum(body, 0.05), 0.0, 1.0)
    far = np.linalg.norm(1.0 - white, axis=2)
    if settings.face_only:
        on_face = _face_mask(far < settings.plastic, settings.least_face)
        white, far = white[on_face], far[on_face]
        # the ink: the face's pixels at least half as far from its white as the farthest (a small number is a few
        # pixels of a big face, and a fixed share of the face would be mostly plastic)
        inked = far >= max(settings.ink_far, settings.ink_depth * float(far.max()))
        if inked.sum() >= settings.least_ink:
            return body, white[inked]
    white, far = white.reshape(-1, 3), far.reshape(-1)
    n_ink = max(int(len(far) * settings.ink_share), 1)
    return body, white[np.argpartition(-far, n_ink - 1)[:n_ink]]


def _face_mask(plastic: np.ndarray, least: float) -> np.ndarray:
    """The pixels of the tile's face: the hull of the largest patch of plastic, its number inside it. A tile lying
    turned fills its upright box only in part, and the table in the box's corners, darker than a small number's
    ink, would pass for the ink. Where the plastic found covers less than ``least`` of the box, every pixel."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(plastic.astype(np.uint8), connectivity=8)
    if count < 2:
        return np.ones(plastic.shape, dtype=bool)
    largest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    ys, xs = np.nonzero(labels == largest)
    mask = np.zeros(plastic.shape, dtype=np.uint8)
    cv2.fillConvexPoly(mask, cv2.convexHull(np.stack([xs, ys], axis=1).astype(np.int32)), 1)
    return mask.astype(bool) if mask.mean() >= least else np.ones(plastic.shape, dtype=bool)


def ink_lab(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = DEFAULT_INK) -> tuple[float, float, float] | None:
    """The ink's colour on one tile, white-balanced on the tile's body, as CIELAB (L, a, b); None
    where the box holds too few pixels to tell."""
    colours = body_and_ink(rgb, box, settings)
    return None if colours is None else _as_lab(colours[1])


def _as_lab(colour: np.ndarray) -> tuple[float, float, float]:
    lab = cv2.cvtColor(np.asarray(colour, dtype=np.float32).reshape(1, 1, 3), cv2.COLOR_RGB2Lab)[0, 0]
    return float(lab[0]), float(lab[1]), float(lab[2])


def _in_sector(hue: np.ndarray, sector: tuple[float, float]) -> np.ndarray:
    lo, hi = sector
    return (hue >= lo) | (hue < hi) if lo > hi else (hue >= lo) & (hue < hi)


def _clear_colours(lab: np.ndarray, settings: InkSettings) -> dict[str, np.ndarray]:
    """For CIELAB colours (K, 3): which clearly show red, orange and blue (the sectors do not overlap)."""
    chroma = np.hypot(lab[:, 1], lab[:, 2])
    hue = np.degrees(np.arctan2(lab[:, 2], lab[:, 1])) % 360.0
    warm, blue = chroma >= settings.warm_chroma, chroma >= settings.blue_chroma
    return {RED: warm & _in_sector(hue, settings.red), ORANGE: warm & _in_sector(hue, settings.orange),
            BLUE: blue & _in_sector(hue, settings.blue)}


def ink_colour(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = DEFAULT_INK) -> str | None:
    """``R``, ``O`` or ``B`` where the ink's hue is clear, else None (black, dark or blurred ink)."""
    return ink_opinion(ink_lab(rgb, box, settings), settings)


def ink_opinion(lab: tuple[float, float, float] | None, settings: InkSettings = DEFAULT_INK) -> str | None:
    """The colour an ink measured as CIELAB ``lab`` (``ink_lab``) clearly shows under ``settings``: ``R``, ``O``,
    ``B``, or None."""
    if lab is None:
        return None
    shown = _clear_colours(np.asarray(lab, dtype=np.float64).reshape(1, 3), settings)
    return next((colour for colour, mask in shown.items() if mask[0]), None)


def ink_colours(rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray, settings: InkSettings = DEFAULT_INK) -> list[str | None]:
    """The ink opinion on each box (see ``ink_colour``)."""
    return [ink_colour(rgb, box, settings) for box in np.asarray(boxes, dtype=np.float64).reshape(-1, 4)]


def clear_inks(rgb: np.ndarray, boxes: Sequence[Sequence[float]] | np.ndarray) -> tuple[list[tuple[float, float, float] | None], np.ndarray]:
    """Each box's ink measured on the tile's face and its clear ink (``CLEAR_INK``), in one pass: its colour as CIELAB
    (as ``ink_lab``; for the doubt, ``ink_opinion``, and the blue correction, ``held_to_blue``), and whether it shows
    every colour (``shows_every_colour``; for the colour-change joker, ``held_to_colour_change``)."""
    labs: list[tuple[float, float, float] | None] = []
    every: list[bool] = []
    for box in np.asarray(boxes, dtype=np.float64).reshape(-1, 4):
        found = ink_pixels(rgb, box, CLEAR_INK)
        labs.append(None if found is None else _as_lab(found[1].mean(axis=0)))
        every.append(found is not None and shows_every_colour(_shares(found[1], CLEAR_INK)))
    return labs, np.array(every, dtype=bool)


def held_to_blue(probs: np.ndarray, codes: Sequence[str], labs: Sequence[tuple[float, float, float] | None],
                 names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each tile's probabilities (rows of ``probs``, over ``names``), those of a tile read as black (``codes``) whose
    face's clear ink (``labs``, ``clear_inks``) is blue beyond doubt (``BLUE_BEYOND_DOUBT``) held to blue: each
    number's probability in every colour given to its blue tile, the jokers' kept. The ink tells the colour, not the
    number: a 7 the readers read as black is a blue 7. Also the mask of the tiles so held."""
    probs = np.asarray(probs, dtype=np.float64)
    if probs.shape != (len(codes), len(names)) or len(labs) != len(codes):
        raise ValueError(f"probabilities of shape {probs.shape} and {len(labs)} inks for {len(codes)} codes over {len(names)} names")
    held = np.array([code.startswith(BLACK) and ink_opinion(lab, BLUE_BEYOND_DOUBT) == BLUE
                     for code, lab in zip(codes, labs)], dtype=bool)
    index = {name: k for k, name in enumerate(names)}
    to = np.array([k if name.startswith("J") else index[BLUE + name[1:]] for k, name in enumerate(names)])
    out = probs.copy()
    for t in np.flatnonzero(held):
        out[t] = np.bincount(to, weights=probs[t], minlength=len(names))
    return out, held


def ink_shares(rgb: np.ndarray, box: Sequence[float], settings: InkSettings = CLEAR_INK) -> dict[str, float] | None:
    """The share of a tile's ink pixels (``ink_pixels``) whose own colour clearly shows red, orange and blue, each as
    ``ink_opinion`` names a whole ink; None where the box holds too few pixels to tell."""
    found = ink_pixels(rgb, box, settings)
    return None if found is None else _shares(found[1], settings)


def _shares(pixels: np.ndarray, settings: InkSettings) -> dict[str, float]:
    lab = cv2.cvtColor(pixels.reshape(-1, 1, 3).astype(np.float32), cv2.COLOR_RGB2Lab).reshape(-1, 3)
    return {colour: float(mask.mean()) for colour, mask in _clear_colours(lab, settings).items()}


def shows_every_colour(shares: Mapping[str, float] | None) -> bool:
    """Does a tile's ink (``ink_shares``) show red, orange and blue, each on at least ``EVERY_COLOUR_SHARE`` of it?"""
    return shares is not None and all(shares[c] >= EVERY_COLOUR_SHARE for c in (RED, ORANGE, BLUE))


def held_to_colour_change(probs: np.ndarray, codes: Sequence[str], every_colour: Sequence[bool] | np.ndarray,
                          names: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each tile's probabilities (rows of ``probs``, over ``names``), those of a tile not read as the colour-change
    joker (``codes``) whose ink shows every colour (``every_colour``, ``shows_every_colour``) held to it: its
    probability given to ``COLOUR_CHANGE`` but for ``READERS_KEPT`` of it, which keeps the readers' own reading as its
    alternatives. Also the mask of the tiles so held."""
    probs = np.asarray(probs, dtype=np.float64)
    if probs.shape != (len(codes), len(names)) or len(every_colour) != len(codes):
        raise ValueError(f"probabilities of shape {probs.shape} and {len(every_colour)} inks for {len(codes)} codes over {len(names)} names")
    held = np.array([code != COLOUR_CHANGE and bool(every) for code, every in zip(codes, every_colour)], dtype=bool)
    out = probs.copy()
    out[held] *= READERS_KEPT
    out[held, list(names).index(COLOUR_CHANGE)] += 1.0 - READERS_KEPT * probs[held].sum(1)
    return out, held


def ink_disagrees(codes: Sequence[str], inks: Sequence[str | None]) -> np.ndarray:
    """(N,) True where a tile's ink clearly shows another colour than the one read (jokers: never)."""
    if len(codes) != len(inks):
        raise ValueError(f"{len(codes)} codes but {len(inks)} ink opinions")
    return np.array([ink is not None and ink in CONTRADICTS.get(code[:1], "")
                     for code, ink in zip(codes, inks)], dtype=bool)


class InkReading(Protocol):
    """The ink opinion on each tile box (``ink_colours``; tests and the calibration's replay use stand-ins)."""

    def read(self, rgb: np.ndarray, boxes: np.ndarray) -> list[str | None]: ...


class InkOpinion:
    """The ink opinion measured on the photo (``ink_colours``)."""

    def __init__(self, settings: InkSettings = DEFAULT_INK) -> None:
        self.settings = settings

    def read(self, rgb: np.ndarray, boxes: np.ndarray) -> list[str | None]:
        return ink_colours(rgb, boxes, self.settings)


def _opinion_key(opinion: str | None) -> str:
    return "none" if opinion is None else opinion


@dataclass(frozen=True)
class InkRates:
    """P(the ink opinion | the tile's true colour), counted on labelled renders.

    ``rates[colour][opinion]``: colour one of ``COLOURS``, opinion ``R``, ``O``, ``B`` or
    ``none``; each row sums to 1.
    """

    rates: Mapping[str, Mapping[str, float]]

    def __post_init__(self) -> None:
        for colour in COLOURS:
            row = self.rates.get(colour)
            if row is None:
                raise ValueError(f"ink rates: no row for the colour {colour}")
            values = [row.get(_opinion_key(o)) for o in OPINIONS]
            if any(v is None or not 0.0 < float(v) < 1.0 for v in values):
                raise ValueError(f"ink rates: the row for {colour} needs R, O, B and none, each strictly between 0 and 1")
            if abs(sum(float(v) for v in values) - 1.0) > 1e-6:  # type: ignore[arg-type]
                raise ValueError(f"ink rates: the row for {colour} sums to {sum(values):.4f}, not 1")  # type: ignore[arg-type]

    @classmethod
    def count(cls, truth: Sequence[str], opinions: Sequence[str | None], prior: float = 1.0) -> "InkRates":
        """The rates seen on labelled tiles (true codes and the ink opinion on each), with ``prior``
        added to every count so that an opinion never seen on a colour is rare, never impossible."""
        if len(truth) != len(opinions):
            raise ValueError(f"{len(truth)} true codes but {len(opinions)} ink opinions")
        counts = {c: {_opinion_key(o): prior for o in OPINIONS} for c in COLOURS}
        for code, opinion in zip(truth, opinions):
            counts[colour_of(code)][_opinion_key(opinion)] += 1.0
        return cls({c: {k: v / sum(row.values()) for k, v in row.items()} for c, row in counts.items()})

    def to_json(self) -> dict:
        return {c: {k: float(v) for k, v in self.rates[c].items()} for c in COLOURS}

    @classmethod
    def from_json(cls, data: Mapping) -> "InkRates":
        if not isinstance(data, Mapping):
            raise ValueError("ink rates are a JSON object of colours")
        return cls({str(c): {str(k): float(v) for k, v in row.items()} for c, row in data.items()})


def ink_likelihood(opinions: Sequence[str | None], codes: Sequence[str], rates: InkRates) -> np.ndarray:
    """(N, len(codes)): how likely each tile's ink opinion is if the tile is each code.

    No opinion is no evidence (1 for every code): a dark blue and a black both give none, and the
    classifier is fooled by the same darkness, so counting it would count one thing twice.
    """
    table = np.array([[rates.rates[c][_opinion_key(o)] if o is not None else 1.0 for c in COLOURS] for o in OPINIONS])
    rows = np.array([OPINIONS.index(o) for o in opinions], dtype=int)
    columns = np.array([COLOURS.index(colour_of(c)) for c in codes], dtype=int)
    return table[rows][:, columns].reshape(len(rows), len(columns))
