"""Table surfaces: procedural wood, cloth, marble, plain and felt, plus real surfaces cut from the
tile-free photos of the development set when the generator is given them."""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from vision.yolo_format import list_images


def _smooth_noise(rng: np.random.Generator, h: int, w: int, cells: int) -> np.ndarray:
    """Value noise in [-1, 1] with about ``cells`` blobs across the longer side."""
    gh, gw = max(2, int(cells * h / max(h, w)) + 2), max(2, int(cells * w / max(h, w)) + 2)
    g = rng.normal(0, 1, (gh, gw)).astype(np.float32)
    n = cv2.resize(g, (w, h), interpolation=cv2.INTER_CUBIC)
    return n / (np.abs(n).max() + 1e-6)


@functools.lru_cache(maxsize=8)
def _grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Pixel row and column coordinates (float32, read-only): the same for every surface of a size."""
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    y.flags.writeable = x.flags.writeable = False
    return y, x


def _rotated(h: int, w: int, ang: float) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates along and across the direction ``ang``; float32 factors keep the maps float32."""
    y, x = _grid(h, w)
    c, s = np.float32(np.cos(ang)), np.float32(np.sin(ang))
    return x * c + y * s, y * c - x * s


def _mix(dark: np.ndarray, light: np.ndarray, t: np.ndarray) -> np.ndarray:
    """RGB blend of two colours by the map ``t`` in [0, 1]."""
    return dark[None, None] + (light - dark)[None, None] * t[..., None]


def _fractal(rng: np.random.Generator, h: int, w: int, base: int = 3, octaves: int = 4) -> np.ndarray:
    out = np.zeros((h, w), np.float32)
    amp = 1.0
    for o in range(octaves):
        out += amp * _smooth_noise(rng, h, w, base * 2**o)
        amp *= 0.5
    return out / 1.9


def wood(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    light = np.array([rng.uniform(150, 215), rng.uniform(100, 150), rng.uniform(55, 95)], np.float32)
    dark = light * rng.uniform(0.35, 0.65)
    if rng.random() < 0.35:  # dark walnut / stained tables
        light *= 0.55
        dark *= 0.5
    ang = rng.uniform(0, np.pi)
    u, v = _rotated(h, w, ang)
    warp = _fractal(rng, h, w, 2, 3) * rng.uniform(10, 40)
    freq = rng.uniform(0.04, 0.12)
    rings = np.sin((v + warp) * freq + 0.002 * u) * 0.5 + 0.5
    fibre = _smooth_noise(rng, h, w, int(rng.integers(40, 120)))
    t = np.clip(rings**rng.uniform(1.0, 3.0) * 0.75 + 0.15 * fibre + 0.1 * _fractal(rng, h, w, 4, 3), 0, 1)
    img = _mix(dark, light, t)
    if rng.random() < 0.5:  # planks
        n = int(rng.integers(2, 6))
        for k in range(1, n):
            pos = k * (h if abs(np.sin(ang)) < 0.7 else w) / n
            seam = np.abs(v - np.float32(pos - h / 2)) < 1.5
            img[seam] *= 0.5
    return img


def cloth(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.uniform(40, 220, 3).astype(np.float32)
    y, x = _grid(h, w)
    period = rng.uniform(3, 9)
    weave = (np.sin(x * 2 * np.pi / period) * np.sin(y * 2 * np.pi / period)) * rng.uniform(0.04, 0.15)
    img = base[None, None] * (1 + weave[..., None] + 0.12 * _fractal(rng, h, w, 6, 3)[..., None])
    if rng.random() < 0.4:  # stripes or checks
        stripe = (np.sin(x * rng.uniform(0.02, 0.1)) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        img *= (1 - 0.25 * stripe)[..., None]
    return img


def marble(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = (np.full(3, rng.uniform(200, 245)) + rng.normal(0, 5, 3)).astype(np.float32)
    turb = _fractal(rng, h, w, 3, 5)
    ang = rng.uniform(0, np.pi)
    along, _across = _rotated(h, w, ang)
    veins = np.abs(np.sin(along * rng.uniform(0.004, 0.015) + turb * rng.uniform(3, 8)))
    veins = 1 - np.clip(veins, 0, 1) ** rng.uniform(0.1, 0.35)
    img = base[None, None] * (1 - rng.uniform(0.2, 0.6) * veins[..., None])
    return img


def plain(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = rng.uniform(30, 235, 3).astype(np.float32)
    base = base * 0.5 + base.mean() * 0.5  # mostly muted colours
    return base[None, None] * (1 + 0.04 * _fractal(rng, h, w, 3, 4)[..., None])


def felt(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    base = np.array([rng.uniform(20, 60), rng.uniform(70, 130), rng.uniform(40, 80)], np.float32)
    if rng.random() < 0.4:
        base = base[::-1].copy()
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    return base[None, None] * (1 + 0.06 * cv2.GaussianBlur(fine, (0, 0), 0.8)[..., None] + 0.05 * _fractal(rng, h, w, 3, 3)[..., None])


PROCEDURAL: dict[str, Callable[[np.random.Generator, int, int], np.ndarray]] = {
    "wood": wood, "cloth": cloth, "marble": marble, "plain": plain, "felt": felt,
}
WEIGHTS = {"wood": 0.34, "cloth": 0.18, "marble": 0.14, "plain": 0.24, "felt": 0.10}


class RealSurfaces:
    """Patches of real table surfaces (photos that show no tiles), rescaled and recoloured a little."""

    def __init__(self, folder: str | None) -> None:
        self.images: list[np.ndarray] = []
        if folder and os.path.isdir(folder):
            for path in list_images(Path(folder), recursive=False):
                img = cv2.imread(str(path), cv2.IMREAD_COLOR)
                if img is not None:
                    self.images.append(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))

    def __bool__(self) -> bool:
        return bool(self.images)

    def sample(self, rng: np.random.Generator, h: int, w: int) -> np.ndarray:
        img = self.images[int(rng.integers(len(self.images)))]
        ih, iw = img.shape[:2]
        s = rng.uniform(0.4, 1.0)
        ch, cw = int(ih * s), int(iw * s)
        y0, x0 = int(rng.integers(0, ih - ch + 1)), int(rng.integers(0, iw - cw + 1))
        patch = img[y0 : y0 + ch, x0 : x0 + cw]
        if rng.random() < 0.5:
            patch = patch[:, ::-1]
        if rng.random() < 0.5:
            patch = patch[::-1]
        patch = cv2.resize(patch, (w, h), interpolation=cv2.INTER_LINEAR).astype(np.float32)
        return patch * rng.uniform(0.85, 1.15, 3).astype(np.float32)[None, None]


def texture(rng: np.random.Generator, h: int, w: int, real: RealSurfaces | None = None) -> tuple[np.ndarray, str]:
    """A float32 RGB surface for an h x w area and its kind, at the resolution it is made at: real
    surfaces at h x w, procedural ones at half of it (they have little fine detail that matters).
    Callers map it into the photo in one resampling rather than resizing it first."""
    if real and rng.random() < 0.2:
        return real.sample(rng, h, w), "real"
    kinds = list(WEIGHTS)
    kind = kinds[int(rng.choice(len(kinds), p=np.array(list(WEIGHTS.values())) / sum(WEIGHTS.values())))]
    img = PROCEDURAL[kind](rng, max(64, h // 2), max(64, w // 2))
    return np.clip(img, 0, 255).astype(np.float32, copy=False), kind


def background(rng: np.random.Generator, h: int, w: int, real: RealSurfaces | None = None) -> tuple[np.ndarray, str]:
    """A float32 RGB surface of h x w pixels and its kind."""
    tex, kind = texture(rng, h, w, real)
    return cv2.resize(tex, (w, h), interpolation=cv2.INTER_LINEAR), kind
