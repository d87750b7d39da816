"""A rack row drawn for tests: faces standing side by side on a light rack, the row turned."""

from __future__ import annotations

from typing import Sequence

import cv2
import numpy as np

GAP = 2  # pixels between two faces: their edges against each other are faint


def rack_row(faces: Sequence[np.ndarray], angle: float) -> tuple[np.ndarray, list[np.ndarray]]:
    """``faces`` (RGB, all one size) standing side by side on a light rack, the row turned ``angle`` degrees
    clockwise on a dark table; the photo and each face's four corners in it, (4, 2), its top edge first."""
    h, w = faces[0].shape[:2]
    strip = np.full((h + 40, len(faces) * (w + GAP) + 40, 3), (214, 212, 204), np.uint8)
    corners = []
    for k, face in enumerate(faces):
        x = 20 + k * (w + GAP)
        strip[20 : 20 + h, x : x + w] = face
        corners.append([(x, 20), (x + w, 20), (x + w, 20 + h), (x, 20 + h)])
    sh, sw = strip.shape[:2]
    size = (sw + 80, sh + 200)
    m = cv2.getRotationMatrix2D((sw / 2, sh / 2), -angle, 1.0)  # OpenCV turns counter-clockwise
    m[:, 2] += ((size[0] - sw) / 2, (size[1] - sh) / 2)
    photo = cv2.warpAffine(strip, m, size, borderValue=(60, 50, 40))
    return photo, [np.asarray(c, np.float64) @ m[:, :2].T + m[:, 2] for c in corners]
