"""Tile faces as textures: the plastic, an optional recessed circle, the number in one of dozens of heavy
fonts, an optional embossed maker's mark near the bottom edge (it tells which way up a tile is), an optional
Okey-style marker under the number, several joker faces, the Rummikub Twist jokers' marks, and backs.

The Twist jokers (``JD``, ``JM``, ``JC``) are drawn as simple marks that say what each joker does, since we
have no photo of the real tiles to copy: the Double Joker two faces, the Mirror Joker a shape and its mirror
image about a bar, the Colour-change Joker the four tile colours in one disc or ring. Their inks follow a
description of the Twist box (rummikub.pl, "Rummikub Twist"): the double joker blue, the mirror joker yellow
(our orange ink), the colour-change joker black. Until a real photo shows them, the reader doubts every read
of one (``vision.reader``).

What a face may look like is drawn from a ``StyleSet`` (``styles.py``): ``TRAIN`` for training renders,
``HELD_OUT`` for the ``unseen`` test set. Textures are RGBA uint8 arrays of FACE_W x FACE_H pixels; the
alpha channel rounds the corners.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from engine.tiles import COLOURS

from .fonts import mark_font, number_fonts
from .styles import INK_SPREAD, PLASTIC_SPREAD, TRAIN, StyleSet

FACE_W, FACE_H = 120, 162  # a real tile face is about 26 x 35 mm

# The classic edition's ink colours (RGB) and their spread (bench/bench_unseen_font.py draws with them);
# the renders draw shades from styles.py.
INK = {
    "K": ((22, 22, 28), 14),
    "R": ((205, 32, 45), 22),
    "B": ((22, 88, 185), 22),
    "O": ((240, 138, 38), 18),
}
PLASTIC = ((236, 229, 206), 12)  # ivory / cream
SPECIAL_INKS = {"JD": "B", "JM": "O", "JC": "K"}  # the Twist jokers' ink colours (see above)


@dataclass(frozen=True)
class FaceStyle:
    """What makes one edition or one tile look different from another."""

    font: int  # index into number_fonts() (= styles.FONT_STEMS)
    size: float  # digit height as a fraction of the face height
    circle: bool  # the recessed circle behind the number
    mark: bool  # the maker's mark near the bottom edge
    plastic: tuple[int, int, int]
    ink: tuple[int, int, int]
    joker_style: str = "ring-face"  # ring-face | filled-face | letter-j | emblem | star | okey-false
    mark_text: str = "Rummikub"
    okey: str = ""  # "" none, "dot", "bar" or "ring" under the number (Okey-style tiles)
    ink_shade: str = ""  # names from styles.py, for tests and sidecars
    plastic_name: str = ""
    y: float = 0.42  # the number's centre, as a fraction of the face height
    twist: str = "faces"  # faces | shapes | marks: how the Twist jokers are drawn (styles.py)
    palette: tuple[tuple[int, int, int], ...] = ()  # the edition's four inks, K R B O: the colour-change joker's quarters
    weight: int = 0  # strokes thickened (+) or thinned (-), in pixels of the GLYPH_PX raster (styles.StyleSet)
    stretch: float = 1.0  # the digits' width factor


@dataclass(frozen=True)
class Edition:
    """One set of tiles (one per photo): font, digit size, circle, mark, plastic, a shade per colour, joker."""

    font: int
    size: float
    band: tuple[float, float]
    circle: bool
    mark_text: str  # "" no mark
    plastic: tuple[int, int, int]
    plastic_name: str
    shades: dict[str, tuple[str, tuple[int, int, int]]] = field(hash=False)
    joker_style: str
    okey: str
    y: float
    fonts: tuple[int, ...] = ()  # the style set's fonts, for the odd tile in another font
    twist: str = "faces"  # how the Twist jokers are drawn
    weight: int = 0
    stretch: float = 1.0


def _jitter(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> tuple[int, int, int]:
    v = np.asarray(base, float) + rng.normal(0, spread / 5, 3) + rng.normal(0, spread / 2)
    return tuple(int(x) for x in np.clip(v, 0, 255))


def random_edition(rng: np.random.Generator, styles: StyleSet = TRAIN) -> Edition:
    """An edition drawn from one side of the style split only."""
    fonts = styles.font_indices()
    band = styles.sizes[int(rng.integers(len(styles.sizes)))]
    size = float(rng.uniform(band.lo, band.hi))
    circle = bool(rng.random() < band.circle)
    mark_text = styles.marks[int(rng.integers(len(styles.marks)))] if rng.random() < styles.p_mark else ""
    pname, pbase = styles.plastics[int(rng.integers(len(styles.plastics)))]
    shades = {c: opts[int(rng.integers(len(opts)))] for c, opts in styles.inks.items()}
    okey = styles.okey if size <= 0.5 and rng.random() < styles.p_okey else ""
    # big digits sit a little lower (nothing under them but the mark, which they leave free); Okey numbers higher
    y = 0.36 if okey else (0.42 if size <= 0.48 else 0.42 + 0.4 * (size - 0.48))
    if mark_text:
        y = min(y, 0.83 - size / 2)
    y = max(y, size / 2 + 0.05)
    # drawn last and only where the style set varies them, so the held-out renders stay what they were
    weight = int(styles.weights[int(rng.integers(len(styles.weights)))]) if styles.weights else 0
    stretch = float(styles.stretches[int(rng.integers(len(styles.stretches)))]) if styles.stretches else 1.0
    return Edition(
        font=fonts[int(rng.integers(len(fonts)))], size=size, band=(band.lo, band.hi), circle=circle, mark_text=mark_text,
        plastic=_jitter(rng, pbase, PLASTIC_SPREAD), plastic_name=pname, shades=shades,
        joker_style=styles.jokers[int(rng.integers(len(styles.jokers)))], okey=okey, y=float(y), fonts=fonts,
        twist=styles.twist, weight=weight, stretch=stretch,
    )


def tile_style(rng: np.random.Generator, edition: Edition, colour: str | None) -> FaceStyle:
    """One tile of ``edition``: its font (now and then another of the set's), its size with a little spread
    (kept in the edition's band), its colour's shade with a little spread, the plastic a touch off."""
    font = edition.font if rng.random() < 0.9 else edition.fonts[int(rng.integers(len(edition.fonts)))]
    size = float(np.clip(edition.size + rng.normal(0, 0.01), *edition.band))
    shade_name, shade = edition.shades[colour or "K"]
    plastic = tuple(int(min(255.0, max(0.0, c + rng.normal(0, 2)))) for c in edition.plastic)
    return FaceStyle(font, size, edition.circle, bool(edition.mark_text), plastic, _jitter(rng, shade, INK_SPREAD),  # type: ignore[arg-type]
                     edition.joker_style, edition.mark_text or "Rummikub", edition.okey, shade_name, edition.plastic_name, edition.y,
                     edition.twist, tuple(edition.shades[c][1] for c in COLOURS), edition.weight, edition.stretch)


def random_style(rng: np.random.Generator, colour: str | None, styles: StyleSet = TRAIN) -> FaceStyle:
    """A single tile's look from a fresh edition of ``styles``."""
    return tile_style(rng, random_edition(rng, styles), colour if colour else ("K" if rng.random() < 0.5 else "R"))


GLYPH_PX = 160  # numbers are rasterised once per font at this size, then scaled down to each tile
GLYPH_PAD = 16  # blank border kept around the raster, in GLYPH_PX pixels


@functools.lru_cache(maxsize=4096)
def _glyphs(text: str, font_index: int) -> np.ndarray:
    """Anti-aliased uint8 raster of ``text`` with GLYPH_PAD blank pixels around its bounding box."""
    font = ImageFont.truetype(number_fonts()[font_index], GLYPH_PX)
    left, top, right, bottom = font.getbbox(text)
    img = Image.new("L", (right - left + 2 * GLYPH_PAD, bottom - top + 2 * GLYPH_PAD), 0)
    ImageDraw.Draw(img).text((GLYPH_PAD - left, GLYPH_PAD - top), text, fill=255, font=font)
    out = np.asarray(img, np.uint8)
    out.flags.writeable = False
    return out


@functools.lru_cache(maxsize=1024)
def _warped_glyphs(text: str, font_index: int, weight: int, stretch: float) -> np.ndarray:
    """``_glyphs`` with the strokes thickened or thinned by ``weight`` pixels and the width scaled by
    ``stretch``, with the same GLYPH_PAD blank border around the result."""
    out = _glyphs(text, font_index)
    if weight == 0 and stretch == 1.0:
        return out
    g = np.pad(out, abs(weight))
    if weight:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (abs(weight) + 1, abs(weight) + 1))
        g = cv2.dilate(g, kernel) if weight > 0 else cv2.erode(g, kernel)
    if stretch != 1.0:
        g = cv2.resize(g, (max(1, int(round(g.shape[1] * stretch))), g.shape[0]), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(g > 8)
    if len(ys) == 0:  # thinned away: keep the font as drawn
        return out
    g = np.pad(g[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1], GLYPH_PAD)
    g.flags.writeable = False
    return g


@functools.lru_cache(maxsize=256)
def _mark_mask(width_px: int, text: str = "Rummikub") -> np.ndarray:
    font = ImageFont.truetype(mark_font(), 40)
    left, top, right, bottom = font.getbbox(text)
    img = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - top), text, fill=255, font=font)
    m = np.asarray(img, np.float32) / 255.0
    h = max(4, min(int(FACE_H * 0.09), int(round(m.shape[0] * width_px / m.shape[1]))))
    return cv2.resize(m, (width_px, h), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=8)
def _corner_alpha(radius: int) -> np.ndarray:
    a = np.zeros((FACE_H * 4, FACE_W * 4), np.uint8)
    r = radius * 4
    cv2.rectangle(a, (r, 0), (FACE_W * 4 - 1 - r, FACE_H * 4 - 1), 255, -1)
    cv2.rectangle(a, (0, r), (FACE_W * 4 - 1, FACE_H * 4 - 1 - r), 255, -1)
    for cx, cy in ((r, r), (FACE_W * 4 - 1 - r, r), (r, FACE_H * 4 - 1 - r), (FACE_W * 4 - 1 - r, FACE_H * 4 - 1 - r)):
        cv2.circle(a, (cx, cy), r, 255, -1)
    return cv2.resize(a, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=1)
def _circle_shading() -> np.ndarray:
    """The recessed circle behind the number: a faint dip with a soft rim (multiplier map)."""
    c = (int(FACE_W * 0.5 * 4), int(FACE_H * 0.42 * 4))
    ring = np.zeros((FACE_H * 4, FACE_W * 4), np.uint8)
    cv2.circle(ring, c, int(FACE_W * 0.42 * 4), 255, -1, cv2.LINE_AA)
    ring = cv2.resize(ring, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    edge = cv2.GaussianBlur(ring, (0, 0), 1.6) - ring
    return (1.0 - 0.02 * ring + 0.18 * edge).astype(np.float32)


@functools.lru_cache(maxsize=4)
def _bevel() -> np.ndarray:
    """Shading of the bevelled rim: lighter top-left, darker bottom-right (multiplier map)."""
    y, x = np.mgrid[0:FACE_H, 0:FACE_W].astype(np.float32)
    top, left, bottom, right = y, x, FACE_H - 1 - y, FACE_W - 1 - x
    shade = np.zeros_like(x)
    for dist, sign in ((top, 1.0), (left, 0.6), (bottom, -1.0), (right, -0.6)):
        shade += sign * np.clip(1.0 - dist / 6.0, 0, 1)
    return (1.0 + 0.06 * shade).astype(np.float32)


def _paste(canvas: np.ndarray, mask: np.ndarray, cx: float, cy: float, value: float, alpha: float = 1.0) -> None:
    """Blend ``value`` into the 2-D map ``canvas`` through ``mask`` centred at (cx, cy)."""
    h, w = mask.shape
    x0, y0 = int(round(cx - w / 2)), int(round(cy - h / 2))
    xs, ys = max(0, x0), max(0, y0)
    xe, ye = min(canvas.shape[1], x0 + w), min(canvas.shape[0], y0 + h)
    if xe <= xs or ye <= ys:
        return
    m = mask[ys - y0 : ye - y0, xs - x0 : xe - x0] * alpha
    region = canvas[ys:ye, xs:xe]
    region += (value - region) * m


def _number_mask(number: int, style: FaceStyle) -> np.ndarray:
    """The printed number as a float32 coverage mask, sized as if rasterised at the tile's font size
    (about 1.35 x the digit height) with a 2-pixel border, then fitted to the face (a wide number is
    squeezed: to 78% of the face's width, 92% for the editions whose digits fill the tile)."""
    text = str(number)
    size_px = int(FACE_H * style.size * 1.35)
    big = _warped_glyphs(text, style.font, style.weight, style.stretch)
    k = size_px / GLYPH_PX  # from the cached raster's scale to the font size
    gh, gw = (big.shape[0] - 2 * GLYPH_PAD) * k + 4, (big.shape[1] - 2 * GLYPH_PAD) * k + 4
    pad = min(GLYPH_PAD, int(round(2 / k)))  # those 2 pixels of border at the raster's scale
    big = big[GLYPH_PAD - pad : big.shape[0] - GLYPH_PAD + pad, GLYPH_PAD - pad : big.shape[1] - GLYPH_PAD + pad]
    scale = FACE_H * style.size / gh
    max_w = FACE_W * (0.92 if style.size > 0.5 else 0.78)
    sx = min(scale, max_w / gw) if len(text) > 1 or gw * scale > max_w else scale
    size = (max(2, int(gw * sx)), max(2, int(gh * scale)))
    return cv2.resize(big, size, interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _star(big: np.ndarray, cx: float, cy: float, r: float, s: int) -> None:
    ang = np.radians(-90 + 36 * np.arange(10))
    rad = np.where(np.arange(10) % 2 == 0, r, r * 0.42)
    pts = np.stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)], 1) * s
    cv2.fillPoly(big, [np.round(pts).astype(np.int32)], 255, cv2.LINE_AA)


def _pt(x: float, y: float, s: int) -> tuple[int, int]:
    """A point of the face at ``s`` times its size (masks are drawn large, then shrunk: anti-aliasing)."""
    return int(round(x * s)), int(round(y * s))


def _face(big: np.ndarray, cx: float, cy: float, r: float, s: int, filled: bool) -> None:
    """A smiling face of radius ``r`` into the ``s``-times mask ``big``: a ring with eyes and a smile, or
    a filled disc with them cut out."""
    if filled:
        cv2.circle(big, _pt(cx, cy, s), int(r * s), 255, -1, cv2.LINE_AA)
        feature = 0
    else:
        cv2.circle(big, _pt(cx, cy, s), int(r * s), 255, max(1, int(r * 0.16 * s)), cv2.LINE_AA)
        feature = 255
    ex, ey = r * 0.38, r * 0.28
    for sign in (-1, 1):
        cv2.ellipse(big, _pt(cx + sign * ex, cy - ey, s), (int(r * 0.11 * s), int(r * 0.17 * s)), 0, 0, 360, feature, -1, cv2.LINE_AA)
    cv2.ellipse(big, _pt(cx, cy + r * 0.05, s), (int(r * 0.55 * s), int(r * 0.48 * s)), 0, 20, 160, feature, max(1, int(r * 0.12 * s)), cv2.LINE_AA)


def _shrink(big: np.ndarray) -> np.ndarray:
    """A mask drawn at 4x as a float32 coverage mask of the face."""
    return cv2.resize(big, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _joker_mask(style: FaceStyle, rng: np.random.Generator) -> np.ndarray:
    """The joker's face as a float32 coverage mask of the whole tile face."""
    cx, cy, r = FACE_W * 0.5, FACE_H * 0.42, FACE_W * rng.uniform(0.26, 0.33)
    s = 4  # draw at 4x and shift for anti-aliasing
    big = np.zeros((FACE_H * s, FACE_W * s), np.uint8)
    kind = style.joker_style
    if kind == "letter-j":
        glyph = _glyphs("J", style.font)
        h = int(FACE_H * rng.uniform(0.38, 0.5) * s)
        w = max(2, int(glyph.shape[1] * h / glyph.shape[0]))
        g = cv2.resize(glyph, (min(w, FACE_W * s - 2), h), interpolation=cv2.INTER_AREA)
        y0, x0 = int(cy * s - g.shape[0] / 2), int(cx * s - g.shape[1] / 2)
        big[y0 : y0 + g.shape[0], x0 : x0 + g.shape[1]] = g
    elif kind == "star":
        _star(big, cx, cy, r * 1.15, s)
        if rng.random() < 0.5:  # a ring around it
            cv2.circle(big, _pt(cx, cy, s), int(r * 1.35 * s), 255, max(1, int(r * 0.09 * s)), cv2.LINE_AA)
    elif kind == "okey-false":  # Okey's false joker: a four-leaf clover on a stem
        lr = r * 0.42
        for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
            cv2.circle(big, _pt(cx + dx * lr * 0.95, cy - r * 0.1 + dy * lr * 0.95, s), int(lr * s), 255, -1, cv2.LINE_AA)
        cv2.line(big, _pt(cx, cy + lr, s), _pt(cx + r * 0.35, cy + r * 1.2, s), 255, max(1, int(r * 0.12 * s)), cv2.LINE_AA)
    elif kind == "emblem":
        _emblem(big, cx, cy, r, s, rng)
    else:  # ring-face | filled-face
        _face(big, cx, cy, r, s, filled=kind == "filled-face")
    return _shrink(big)


EMBLEMS = ("star", "heart", "crown", "target", "sun", "diamond")


def _emblem(big: np.ndarray, cx: float, cy: float, r: float, s: int, rng: np.random.Generator) -> None:
    """A random joker emblem, so that the classifier learns "a picture, not a number" rather than a few
    pictures: jokers of editions we never saw are drawn otherwise. Never a five-pointed star or a clover
    (the held-out jokers, styles.py)."""
    kind = EMBLEMS[int(rng.integers(len(EMBLEMS)))]
    turn = rng.uniform(0, 2 * np.pi)
    thick = max(1, int(r * rng.uniform(0.1, 0.2) * s))
    filled = rng.random() < 0.6

    def poly(points: np.ndarray) -> None:
        pts = [np.round(points * s).astype(np.int32)]
        if filled:
            cv2.fillPoly(big, pts, 255, cv2.LINE_AA)
        else:
            cv2.polylines(big, pts, True, 255, thick, cv2.LINE_AA)

    if kind == "star":  # 4, 6, 7 or 8 points
        k = int(rng.choice((4, 6, 7, 8)))
        ang = turn + np.pi * np.arange(2 * k) / k
        rad = np.where(np.arange(2 * k) % 2 == 0, r * 1.1, r * rng.uniform(0.35, 0.65))
        poly(np.stack([cx + rad * np.cos(ang), cy + rad * np.sin(ang)], 1))
    elif kind == "heart":
        t = np.linspace(0, 2 * np.pi, 60)
        x, y = 16 * np.sin(t) ** 3, 13 * np.cos(t) - 5 * np.cos(2 * t) - 2 * np.cos(3 * t) - np.cos(4 * t)
        poly(np.stack([cx + x * r / 16, cy - y * r / 16], 1))
    elif kind == "crown":
        spikes = int(rng.integers(3, 6))
        top = [(cx - r + 2 * r * i / (2 * spikes), cy - (r * 0.9 if i % 2 == 0 else r * 0.2)) for i in range(2 * spikes + 1)]
        poly(np.array(top + [(cx + r, cy + r * 0.7), (cx - r, cy + r * 0.7)]))
    elif kind == "target":
        rings = int(rng.integers(2, 4))
        for i in range(rings):
            cv2.circle(big, _pt(cx, cy, s), int(r * (1 - i / rings) * s), 255, thick, cv2.LINE_AA)
        cv2.circle(big, _pt(cx, cy, s), int(r * 0.18 * s), 255, -1, cv2.LINE_AA)
    elif kind == "sun":
        cv2.circle(big, _pt(cx, cy, s), int(r * 0.5 * s), 255, -1 if filled else thick, cv2.LINE_AA)
        for a in turn + 2 * np.pi * np.arange(int(rng.integers(8, 13))) / 12:
            cv2.line(big, _pt(cx + r * 0.7 * np.cos(a), cy + r * 0.7 * np.sin(a), s),
                     _pt(cx + r * 1.1 * np.cos(a), cy + r * 1.1 * np.sin(a), s), 255, thick, cv2.LINE_AA)
    else:  # diamond, as on a playing card
        poly(np.array([(cx, cy - r * 1.2), (cx + r * 0.8, cy), (cx, cy + r * 1.2), (cx - r * 0.8, cy)]))
    if rng.random() < 0.3:  # a ring around it
        cv2.circle(big, _pt(cx, cy, s), int(r * 1.3 * s), 255, max(1, thick // 2), cv2.LINE_AA)


def _twist_mask(code: str, style: FaceStyle, rng: np.random.Generator) -> tuple[np.ndarray, list[np.ndarray]]:
    """A Twist joker's mark (module docstring) as coverage masks of the whole face: the mark in the tile's
    own ink, and for the colour-change joker four quarters, one in each of the edition's inks (K R B O).
    ``style.twist``: "faces" (the training look), "shapes" (the calibration's) or "marks" (held out)."""
    cx, cy = FACE_W * 0.5, FACE_H * 0.42
    s = 4
    big = np.zeros((FACE_H * s, FACE_W * s), np.uint8)
    faces, shapes = style.twist == "faces", style.twist == "shapes"
    quarters: list[np.ndarray] = []
    if code == "JD":  # two faces: side by side, on a diagonal, or one above the other
        r = FACE_W * rng.uniform(0.17, 0.2)
        for sign in (-1, 1):
            if faces:
                x, y = cx + sign * r * 1.1, cy
            elif shapes:
                x, y = cx + sign * r * 0.8, cy + sign * r * 0.8
            else:
                x, y = cx, cy + sign * r * 1.15
            _face(big, x, y, r * (0.85 if shapes else 1.0), s, filled=not faces)
    elif code == "JM":  # a bar, the mirror, between a shape and its mirror image
        h = FACE_H * rng.uniform(0.42, 0.5)
        cv2.line(big, _pt(cx, cy - h / 2, s), _pt(cx, cy + h / 2, s), 255, max(1, int(FACE_W * 0.035 * s)), cv2.LINE_AA)
        gap = FACE_W * 0.06
        if faces:  # a J and its mirror image
            glyph = _glyphs("J", style.font)
            gh = int(h * 0.8 * s)
            gw = max(2, min(int(glyph.shape[1] * gh / glyph.shape[0]), int((cx - gap) * s) - 2))
            g = cv2.resize(glyph, (gw, gh), interpolation=cv2.INTER_AREA)
            y0, left, right = int((cy * s) - gh / 2), int((cx - gap) * s) - gw, int((cx + gap) * s)
            big[y0 : y0 + gh, left : left + gw] = g
            big[y0 : y0 + gh, right : right + gw] = g[:, ::-1]
        elif shapes:  # two half discs, their flat sides against the bar
            r = FACE_W * rng.uniform(0.2, 0.25)
            for sign, start in ((-1, 90), (1, -90)):
                cv2.ellipse(big, _pt(cx + sign * gap, cy, s), (int(r * s), int(r * s)), 0, start, start + 180, 255, -1, cv2.LINE_AA)
        else:  # two triangles pointing away from the bar
            w, t = FACE_W * rng.uniform(0.26, 0.32), h * 0.3
            for sign in (-1, 1):
                tri = [_pt(cx + sign * gap, cy - t, s), _pt(cx + sign * (gap + w), cy, s), _pt(cx + sign * gap, cy + t, s)]
                cv2.fillPoly(big, [np.array(tri, np.int32)], 255, cv2.LINE_AA)
    elif shapes:  # JC: the four colours in a two-by-two grid of squares, outlined in its own ink
        half = FACE_W * rng.uniform(0.24, 0.29)
        for k in range(len(COLOURS)):
            q = np.zeros_like(big)
            x0, y0 = cx - half + (k % 2) * half, cy - half + (k // 2) * half
            cv2.rectangle(q, _pt(x0, y0, s), _pt(x0 + half, y0 + half, s), 255, -1)
            quarters.append(q)
        cv2.rectangle(big, _pt(cx - half, cy - half, s), _pt(cx + half, cy + half, s), 255, max(1, int(half * 0.08 * s)), cv2.LINE_AA)
    else:  # JC: the four colours, a quarter each, in a disc or a ring, outlined in its own ink
        r = FACE_W * rng.uniform(0.28, 0.33)
        turn = rng.uniform(0, 90)
        inner = 0.0 if faces else r * 0.55
        for k in range(len(COLOURS)):
            q = np.zeros_like(big)
            cv2.ellipse(q, _pt(cx, cy, s), (int(r * s), int(r * s)), turn, 90 * k, 90 * (k + 1), 255, -1, cv2.LINE_AA)
            if inner:
                cv2.circle(q, _pt(cx, cy, s), int(inner * s), 0, -1, cv2.LINE_AA)
            quarters.append(q)
        cv2.circle(big, _pt(cx, cy, s), int(r * s), 255, max(1, int(r * 0.08 * s)), cv2.LINE_AA)
        if not faces:
            cv2.circle(big, _pt(cx, cy, s), int(r * 0.2 * s), 255, -1, cv2.LINE_AA)
    mark = _shrink(big)
    return mark, [_shrink(q) * (1 - mark) for q in quarters]  # the outline lies on top of the colours


@functools.lru_cache(maxsize=4)
def _okey_marker(kind: str) -> np.ndarray:
    """The small dot (or bar, or ring) under the number of Okey-style tiles, as a coverage mask."""
    s, r = 4, FACE_W * 0.075
    big = np.zeros((int(r * 3 * s), int(r * 3 * s)), np.uint8)
    c = (big.shape[1] // 2, big.shape[0] // 2)
    if kind == "ring":
        cv2.circle(big, c, int(r * s), 255, max(1, int(r * 0.35 * s)), cv2.LINE_AA)
    elif kind == "bar":
        cv2.rectangle(big, (c[0] - int(1.3 * r * s), c[1] - int(0.45 * r * s)), (c[0] + int(1.3 * r * s), c[1] + int(0.45 * r * s)), 255, -1)
    else:
        cv2.circle(big, c, int(r * s), 255, -1, cv2.LINE_AA)
    return cv2.resize(big, (big.shape[1] // s, big.shape[0] // s), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def render_face(code: str | None, style: FaceStyle, rng: np.random.Generator) -> np.ndarray:
    """RGBA face texture for a tile code (``"R10"``, ``"J"``, a Twist joker ``"JD"``) or its back (``None``:
    face down).

    The face is built as coverage maps, how much of the plastic's colour and how much of the ink's each
    pixel shows (shading included; the colour-change joker adds one map per colour of its quarters), and
    coloured in one step at the end."""
    # faint large-scale unevenness of the plastic
    noise = cv2.resize(rng.normal(0, 1, (4, 3)).astype(np.float32), (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)
    body = 1.0 + 0.015 * noise
    ink = np.zeros_like(body)
    quarters: list[np.ndarray] = []
    if code is not None:
        if style.circle:
            body *= _circle_shading()
        if style.mark:  # embossed: a light edge below-right, the darker mark itself
            mark = _mark_mask(int(FACE_W * rng.uniform(0.55, 0.7)), style.mark_text)
            _paste(body, mark, FACE_W / 2 + 0.6, FACE_H * 0.88 + 0.6, 1.04, 0.8)
            _paste(body, mark, FACE_W / 2, FACE_H * 0.88, 0.86, 0.9)
        if code == "J":
            joker = _joker_mask(style, rng)
            body *= 1 - joker
            ink = joker
        elif code in SPECIAL_INKS:
            ink, quarters = _twist_mask(code, style, rng)
            body *= np.clip(1 - ink - sum(quarters, np.zeros_like(ink)), 0, 1)
        else:
            number = _number_mask(int(code[1:]), style)
            cy = FACE_H * style.y
            _paste(body, number, FACE_W / 2, cy, 0.0)
            _paste(ink, number, FACE_W / 2, cy, 1.0)
            if style.okey:
                dot = _okey_marker(style.okey)
                dy = cy + number.shape[0] / 2 + FACE_H * 0.09
                _paste(body, dot, FACE_W / 2, dy, 0.0)
                _paste(ink, dot, FACE_W / 2, dy, 1.0)
    bevel = _bevel()
    layers = [body * bevel, ink * bevel] + [q * bevel for q in quarters]
    # rows: RGB of the plastic, of the ink (and of each quarter's ink)
    colours = np.array([style.plastic, style.ink, *style.palette[: len(quarters)]], np.float32)
    rgb = (np.stack(layers, -1).reshape(-1, len(layers)) @ colours).reshape(FACE_H, FACE_W, 3)
    # coverage is never negative, so convertScaleAbs just rounds and saturates
    return cv2.merge([cv2.convertScaleAbs(rgb), _corner_alpha(int(FACE_W * 0.09))])
