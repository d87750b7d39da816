"""A pinhole camera looking at the table, fitted to the photo frame by a similarity."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Camera:
    position: np.ndarray  # (3,) world position
    right: np.ndarray
    down: np.ndarray
    forward: np.ndarray
    scale: float = 1.0  # similarity applied after the perspective division
    roll: float = 0.0
    offset: np.ndarray = None  # type: ignore[assignment]

    def project(self, pts: np.ndarray) -> np.ndarray:
        """World points (N, 3) to image pixels (N, 2)."""
        d = np.asarray(pts, np.float64) - self.position
        x, y, z = d @ self.right, d @ self.down, d @ self.forward
        z = np.maximum(z, 1e-6)
        uv = np.stack([x / z, y / z], 1)
        c, s = np.cos(self.roll), np.sin(self.roll)
        uv = uv @ np.array([[c, s], [-s, c]])
        off = np.zeros(2) if self.offset is None else self.offset
        return uv * self.scale + off

    def depth(self, pts: np.ndarray) -> np.ndarray:
        return (np.asarray(pts, np.float64) - self.position) @ self.forward

    def facing(self, point: np.ndarray, normal: np.ndarray) -> bool:
        """Is a surface at ``point`` with outward ``normal`` turned towards the camera?"""
        return float(np.dot(self.position - point, normal)) > 0


def look_at(target: np.ndarray, distance: float, elevation_deg: float, azimuth_deg: float) -> Camera:
    e, a = np.radians(elevation_deg), np.radians(azimuth_deg)
    # the camera stands on the side opposite to the azimuth direction, looking at the target
    offset = np.array([np.cos(e) * np.cos(a), np.cos(e) * np.sin(a), np.sin(e)])
    pos = np.asarray(target, float) + distance * offset
    forward = -offset
    # "up" in the picture is the far side of the table, away from the camera
    horiz = np.array([-np.cos(a), -np.sin(a), 0.0])
    right = np.cross(forward, horiz if elevation_deg < 89.9 else np.array([0.0, 1.0, 0.0]))
    right = np.cross(forward, np.array([0, 0, 1.0])) if np.linalg.norm(np.cross(forward, [0, 0, 1.0])) > 1e-3 else right
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    down /= np.linalg.norm(down)
    return Camera(pos, right, down, forward)


def fit(camera: Camera, pts: np.ndarray, width: int, height: int, fill: float, rng: np.random.Generator) -> Camera:
    """Scale and shift so that ``pts`` fill about ``fill`` of the frame, placed at random."""
    camera.scale, camera.offset = 1.0, np.zeros(2)
    uv = camera.project(pts)
    lo, hi = uv.min(0), uv.max(0)
    span = np.maximum(hi - lo, 1e-9)
    s = fill * min(width / span[0], height / span[1])
    camera.scale = s
    size = span * s
    slack = np.array([width, height]) - size
    start = np.where(slack > 0, rng.uniform(0, 1, 2) * slack, slack / 2 + rng.normal(0, 0.05, 2) * size)
    camera.offset = start - lo * s
    return camera
