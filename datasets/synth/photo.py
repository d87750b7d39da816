"""What a phone does to the picture: blur, sensor noise, tone, JPEG. Albumentations, seeded per image."""

from __future__ import annotations

import functools
import importlib
import os
import sys
from types import ModuleType
from typing import Any

import cv2
import numpy as np

# no version check over the network from every render worker
os.environ.setdefault("NO_ALBUMENTATIONS_UPDATE", "1")


def _import_albumentations() -> ModuleType:
    """Albumentations without its optional torch hook (ToTensorV2, unused here). Importing torch costs
    seconds in every spawned render worker, so when torch is not loaded yet it is hidden for the
    import; the library's own ``suppress(ImportError)`` then skips the hook. Torch stays importable."""
    if "torch" in sys.modules or "albumentations" in sys.modules:
        return importlib.import_module("albumentations")
    sys.modules["torch"] = None  # type: ignore[assignment]  # makes `import torch` raise ImportError
    try:
        return importlib.import_module("albumentations")
    finally:
        del sys.modules["torch"]


A = _import_albumentations()
_convolve = importlib.import_module("albumentations.augmentations.pixel.functional").convolve


class _Defocus(A.Defocus):
    """A.Defocus with the same random parameters and kernel, cut down to its non-negligible taps.

    The library pads a radius 1..3 disk to 17 x 17 and, with a small alias blur, leaves weights so
    tiny that they are denormal floats; filter2D then spends most of its time on taps that cannot
    change a uint8 pixel."""

    def apply(self, img: np.ndarray, radius: int, alias_blur: float, **params: Any) -> np.ndarray:
        return _convolve(img, kernel=_defocus_kernel(radius, alias_blur))


def _defocus_kernel(radius: int, alias_blur: float) -> np.ndarray:
    # as albumentations.augmentations.blur.functional.defocus builds it
    length = np.arange(-max(8, radius), max(8, radius) + 1)
    x, y = np.meshgrid(length, length)
    disk = np.array((x**2 + y**2) <= radius**2, dtype=np.float32)
    disk /= np.sum(disk)
    kernel = cv2.GaussianBlur(disk, (3, 3) if radius <= 8 else (5, 5), sigmaX=alias_blur)
    kernel[kernel < 1e-12] = 0  # a weight this small moves no pixel by 1/255
    used = np.abs(length[np.nonzero(kernel.any(0) | kernel.any(1))[0]]).max()
    c = len(length) // 2
    return np.ascontiguousarray(kernel[c - used : c + used + 1, c - used : c + used + 1])


@functools.lru_cache(maxsize=1)
def _pipeline() -> A.Compose:
    return A.Compose(
        [
            A.OneOf(
                [
                    A.MotionBlur(blur_limit=(3, 9), p=1.0),
                    _Defocus(radius=(1, 3), alias_blur=(0.1, 0.3), p=1.0),
                    A.GaussianBlur(blur_limit=(3, 5), p=1.0),
                ],
                p=0.35,
            ),
            A.RandomGamma(gamma_limit=(75, 130), p=0.4),
            A.RandomBrightnessContrast(brightness_limit=0.15, contrast_limit=0.2, p=0.5),
            A.HueSaturationValue(hue_shift_limit=3, sat_shift_limit=15, val_shift_limit=0, p=0.4),  # small hue: red stays red
            A.OneOf([A.ISONoise(color_shift=(0.01, 0.04), intensity=(0.1, 0.4), p=1.0), A.GaussNoise(std_range=(0.01, 0.05), p=1.0)], p=0.5),
            A.Downscale(scale_range=(0.5, 0.9), p=0.15),
            A.ImageCompression(quality_range=(45, 95), p=0.7),
        ]
    )


def phone(rgb: np.ndarray, seed: int) -> np.ndarray:
    pipe = _pipeline()
    pipe.set_random_seed(seed)
    return pipe(image=rgb)["image"]
