"""Tile faces as textures: ivory plastic, recessed circle, the number in one of several heavy fonts,
the embossed maker's mark near the bottom edge (it tells which way up a tile is), jokers and backs.

Textures are RGBA uint8 arrays of FACE_W x FACE_H pixels; the alpha channel rounds the corners.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from .fonts import mark_font, number_fonts

FACE_W, FACE_H = 120, 162  # a real tile face is about 26 x 35 mm

# Ink colours (RGB) with the spread seen between editions and under different light.
INK = {
    "K": ((22, 22, 28), 14),
    "R": ((205, 32, 45), 22),
    "B": ((22, 88, 185), 22),
    "O": ((240, 138, 38), 18),
}
PLASTIC = ((236, 229, 206), 12)  # ivory / cream


@dataclass(frozen=True)
class FaceStyle:
    """What makes one edition or one tile look different from another."""

    font: int  # index into number_fonts()
    size: float  # digit height as a fraction of the face height
    circle: bool  # the recessed circle behind the number
    mark: bool  # the maker's mark near the bottom edge
    plastic: tuple[int, int, int]
    ink: tuple[int, int, int]
    joker_style: int  # 0 ring face, 1 filled face


def _jitter(rng: np.random.Generator, base: tuple[int, int, int], spread: int) -> tuple[int, int, int]:
    v = np.asarray(base, float) + rng.normal(0, spread / 5, 3) + rng.normal(0, spread / 2)
    return tuple(int(x) for x in np.clip(v, 0, 255))


def random_style(rng: np.random.Generator, colour: str | None) -> FaceStyle:
    ink_base, ink_spread = INK[colour] if colour else INK["K" if rng.random() < 0.5 else "R"]
    return FaceStyle(
        font=int(rng.integers(len(number_fonts()))),
        size=float(rng.uniform(0.30, 0.42)),
        circle=bool(rng.random() < 0.75),
        mark=bool(rng.random() < 0.85),
        plastic=_jitter(rng, *PLASTIC),
        ink=_jitter(rng, ink_base, ink_spread),
        joker_style=int(rng.integers(2)),
    )


@functools.lru_cache(maxsize=4096)
def _text_mask(text: str, font_index: int, size_px: int) -> np.ndarray:
    """Anti-aliased mask (float32 0..1) of ``text`` tightly cropped."""
    font = ImageFont.truetype(number_fonts()[font_index], size_px)
    left, top, right, bottom = font.getbbox(text)
    img = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - top), text, fill=255, font=font)
    return np.asarray(img, np.float32) / 255.0


@functools.lru_cache(maxsize=64)
def _mark_mask(width_px: int) -> np.ndarray:
    font = ImageFont.truetype(mark_font(), 40)
    left, top, right, bottom = font.getbbox("Rummikub")
    img = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - top), "Rummikub", fill=255, font=font)
    m = np.asarray(img, np.float32) / 255.0
    h = max(4, int(round(m.shape[0] * width_px / m.shape[1])))
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


def _paste(canvas: np.ndarray, mask: np.ndarray, cx: float, cy: float, colour: np.ndarray, alpha: float = 1.0) -> None:
    h, w = mask.shape
    x0, y0 = int(round(cx - w / 2)), int(round(cy - h / 2))
    xs, ys = max(0, x0), max(0, y0)
    xe, ye = min(canvas.shape[1], x0 + w), min(canvas.shape[0], y0 + h)
    if xe <= xs or ye <= ys:
        return
    m = mask[ys - y0 : ye - y0, xs - x0 : xe - x0, None] * alpha
    canvas[ys:ye, xs:xe] = canvas[ys:ye, xs:xe] * (1 - m) + colour * m


def _number(canvas: np.ndarray, number: int, style: FaceStyle) -> None:
    text = str(number)
    size_px = int(FACE_H * style.size * 1.35)
    mask = _text_mask(text, style.font, size_px)
    target_h = FACE_H * style.size
    scale = target_h / mask.shape[0]
    max_w = FACE_W * 0.78
    sx = min(scale, max_w / mask.shape[1]) if len(text) > 1 else scale
    mask = cv2.resize(mask, (max(2, int(mask.shape[1] * sx)), max(2, int(mask.shape[0] * scale))), interpolation=cv2.INTER_AREA)
    _paste(canvas, mask, FACE_W / 2, FACE_H * 0.42, np.asarray(style.ink, np.float32))


def _joker(canvas: np.ndarray, style: FaceStyle, rng: np.random.Generator) -> None:
    ink = tuple(float(v) for v in style.ink)
    cx, cy, r = FACE_W * 0.5, FACE_H * 0.42, FACE_W * rng.uniform(0.26, 0.33)
    s = 4  # draw at 4x and shift for anti-aliasing
    pt = lambda x, y: (int(round(x * s)), int(round(y * s)))  # noqa: E731
    layer = np.zeros(canvas.shape[:2], np.uint8)
    big = np.zeros((FACE_H * s, FACE_W * s), np.uint8)
    if style.joker_style == 0:
        cv2.circle(big, pt(cx, cy), int(r * s), 255, max(1, int(r * 0.16 * s)), cv2.LINE_AA)
        feature = 255
    else:
        cv2.circle(big, pt(cx, cy), int(r * s), 255, -1, cv2.LINE_AA)
        feature = 0
    ex, ey = r * 0.38, r * 0.28
    for sign in (-1, 1):
        cv2.ellipse(big, pt(cx + sign * ex, cy - ey), (int(r * 0.11 * s), int(r * 0.17 * s)), 0, 0, 360, feature, -1, cv2.LINE_AA)
    cv2.ellipse(big, pt(cx, cy + r * 0.05), (int(r * 0.55 * s), int(r * 0.48 * s)), 0, 20, 160, feature, max(1, int(r * 0.12 * s)), cv2.LINE_AA)
    layer = cv2.resize(big, (FACE_W, FACE_H), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0
    canvas[:] = canvas * (1 - layer[..., None]) + np.asarray(ink, np.float32) * layer[..., None]


def render_face(code: str | None, style: FaceStyle, rng: np.random.Generator) -> np.ndarray:
    """RGBA face texture for a tile code (``"R10"``, ``"J"``) or its back (``None``: face down)."""
    plastic = np.asarray(style.plastic, np.float32)
    face = np.empty((FACE_H, FACE_W, 3), np.float32)
    face[:] = plastic
    # faint large-scale unevenness of the plastic
    noise = cv2.resize(rng.normal(0, 1, (4, 3)).astype(np.float32), (FACE_W, FACE_H), interpolation=cv2.INTER_CUBIC)
    face *= (1.0 + 0.015 * noise)[..., None]
    if code is not None:
        if style.circle:
            face *= _circle_shading()[..., None]
        if style.mark:
            mark = _mark_mask(int(FACE_W * rng.uniform(0.55, 0.7)))
            light = plastic * 0.86
            _paste(face, mark, FACE_W / 2 + 0.6, FACE_H * 0.855 + 0.6, plastic * 1.04, 0.8)
            _paste(face, mark, FACE_W / 2, FACE_H * 0.855, light, 0.9)
        if code == "J":
            _joker(face, style, rng)
        else:
            _number(face, int(code[1:]), style)
    face *= _bevel()[..., None]
    out = np.empty((FACE_H, FACE_W, 4), np.uint8)
    out[..., :3] = np.clip(face, 0, 255).astype(np.uint8)
    out[..., 3] = _corner_alpha(int(FACE_W * 0.09))
    return out
