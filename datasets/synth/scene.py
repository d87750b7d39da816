"""What a photo shows, in world millimetres: tiles as thin boxes, and other flat objects."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

TILE_W, TILE_H, TILE_T = 26.0, 35.0, 7.0  # mm


@dataclass
class Tile3D:
    code: str | None  # tile code, or None when the tile lies face down
    face: np.ndarray  # (4, 3) face corners TL, TR, BR, BL as the face texture is upright
    normal: np.ndarray  # (3,) unit normal out of the face
    meld: int | None = None  # meld index (table) or rack row
    order: int = 0  # position within its meld / row
    rotation: float = 0.0  # degrees the tile is turned on the table (0 = upright for the player)
    on_table: bool = True  # casts a shadow on the table
    true_code: str | None = None  # the code even when face down

    @property
    def back(self) -> np.ndarray:
        return self.face - self.normal[None] * TILE_T


@dataclass
class Poly3D:
    """A flat coloured polygon (rack body parts, a cup, a card...)."""

    points: np.ndarray  # (N, 3)
    colour: tuple[float, float, float]
    shade: float = 1.0
    texture: str | None = None  # optional simple pattern: "card"
    on_table: bool = False
    occludes: bool = True


@dataclass
class Scene:
    kind: str
    tiles: list[Tile3D] = field(default_factory=list)
    polys: list[Poly3D] = field(default_factory=list)
    melds: list[list[str]] = field(default_factory=list)  # meld contents as laid out (table scenes)
    centre: np.ndarray = field(default_factory=lambda: np.zeros(3))
    extent: float = 100.0  # rough size of the layout, mm
    view: str = "table"  # table | table-flipped | seat | above | rack-close: how the camera is placed


def flat_tile(code: str | None, cx: float, cy: float, angle_deg: float, z: float = 0.0, **kw: object) -> Tile3D:
    """A tile lying face up (or face down, code None) on the table, turned by angle_deg."""
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    local = np.array([[-TILE_W / 2, TILE_H / 2], [TILE_W / 2, TILE_H / 2], [TILE_W / 2, -TILE_H / 2], [-TILE_W / 2, -TILE_H / 2]])
    xy = local @ rot.T + np.array([cx, cy])
    face = np.column_stack([xy, np.full(4, z + TILE_T)])
    return Tile3D(code, face, np.array([0.0, 0.0, 1.0]), rotation=float(angle_deg % 360), **kw)  # type: ignore[arg-type]


def standing_tile(code: str, x0: float, y0: float, z0: float, lean_deg: float, upside_down: bool = False, **kw: object) -> Tile3D:
    """A tile standing on a rack ledge, its face towards -y, leaning back by lean_deg (upside down: its
    number's top towards the ledge)."""
    lam = np.radians(lean_deg)
    up = np.array([0.0, np.sin(lam), np.cos(lam)])
    bl = np.array([x0, y0, z0])
    br = bl + np.array([TILE_W, 0, 0])
    face = np.stack([bl + TILE_H * up, br + TILE_H * up, br, bl])
    if upside_down:
        face = face[[2, 3, 0, 1]]
    normal = np.array([0.0, -np.cos(lam), np.sin(lam)])
    return Tile3D(code, face, normal, on_table=False, rotation=180.0 if upside_down else 0.0, **kw)  # type: ignore[arg-type]


def box_polys(lo: np.ndarray, hi: np.ndarray, colour: tuple[float, float, float]) -> list[Poly3D]:
    """The six faces of an axis-aligned box as polygons (the renderer drops the hidden ones)."""
    x0, y0, z0 = lo
    x1, y1, z1 = hi
    c = colour
    faces = [
        [(x0, y0, z1), (x1, y0, z1), (x1, y1, z1), (x0, y1, z1)],  # top
        [(x0, y0, z0), (x1, y0, z0), (x1, y0, z1), (x0, y0, z1)],  # front (-y)
        [(x0, y1, z0), (x1, y1, z0), (x1, y1, z1), (x0, y1, z1)],  # back
        [(x0, y0, z0), (x0, y1, z0), (x0, y1, z1), (x0, y0, z1)],  # left
        [(x1, y0, z0), (x1, y1, z0), (x1, y1, z1), (x1, y0, z1)],  # right
    ]
    shades = [1.0, 0.8, 0.7, 0.65, 0.65]
    return [Poly3D(np.array(f, float), c, s) for f, s in zip(faces, shades)]
