"""What a phone does to the picture: blur, sensor noise, tone, JPEG. Albumentations, seeded per image."""

from __future__ import annotations

import functools

import albumentations as A
import numpy as np


@functools.lru_cache(maxsize=1)
def _pipeline() -> A.Compose:
    return A.Compose(
        [
            A.OneOf(
                [
                    A.MotionBlur(blur_limit=(3, 9), p=1.0),
                    A.Defocus(radius=(1, 3), alias_blur=(0.1, 0.3), p=1.0),
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
