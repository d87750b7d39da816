"""Render a Scene through a random camera into an RGB photo with exact per-tile labels.

Painter's algorithm over tiles (thin boxes with a textured face) and flat polygons; an id buffer
records which tile owns each pixel, so labels say what is really visible (hidden tiles, cut-off
tiles and tiles under a hand are measured, not guessed).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .backgrounds import RealSurfaces, texture
from .camera import Camera, fit, look_at
from .faces import FACE_H, FACE_W, SPECIAL_INKS, Edition, FaceStyle, random_edition, render_face, tile_style
from .styles import TRAIN, FONT_STEMS, StyleSet
from .scene import TILE_T, Poly3D, Scene, Tile3D

MIN_VISIBLE = 0.30  # a tile with less than this fraction in view is not labelled
MIN_DIGIT_VISIBLE = 0.60  # ... nor one whose number is mostly hidden
MIN_SIDE_PX = 8


@dataclass
class TileLabel:
    code: str
    box: tuple[float, float, float, float]
    corners: list[list[float]]
    meld: int | None
    order: int
    rotation: float  # degrees the tile's "up" is turned in the photo (0 upright, 180 upside down)
    visible: float  # fraction of the tile in view
    hidden: bool  # partly hidden (visible < 0.9)
    joker_colour: str | None = None  # "red" or "black": a set has one joker of each


@dataclass
class Rendered:
    rgb: np.ndarray
    labels: list[TileLabel]
    face_down: list[dict] = field(default_factory=list)
    meta: dict = field(default_factory=dict)


def _camera_for(scene: Scene, rng: np.random.Generator, w: int, h: int) -> Camera:
    fit_pts = None
    if scene.view == "seat":
        elev, azim, roll = rng.uniform(8, 40), -90 + rng.normal(0, 12), rng.normal(0, 3)
    elif scene.view == "rack-close":  # a phone held close to the rack: a window of 4-10 tiles fills the frame
        elev, azim, roll = rng.uniform(5, 45), -90 + rng.normal(0, 14), rng.normal(0, 3)
        if scene.tiles:
            xs = np.array([t.face[:, 0].mean() for t in scene.tiles])
            x_mid = rng.uniform(xs.min(), xs.max())
            half = 0.5 * 26.5 * rng.uniform(4, 10)
            near = [t.face for t, x in zip(scene.tiles, xs) if abs(x - x_mid) <= half] or [scene.tiles[int(np.argmin(abs(xs - x_mid)))].face]
            fit_pts = np.concatenate(near)
    elif scene.view == "above":
        elev, azim, roll = rng.uniform(50, 85), -90 + rng.normal(0, 10), rng.normal(0, 4)
    else:
        elev = 90 - abs(rng.normal(0, 22)) if rng.random() < 0.75 else rng.uniform(40, 89)
        elev = float(np.clip(elev, 40, 89.5))
        if rng.random() < 0.15:  # a table shot at a slant, from a chair
            elev = float(rng.uniform(22, 40))
        base = 90.0 if scene.view == "table-flipped" else -90.0
        if scene.kind == "loose" and rng.random() < 0.5:
            azim = rng.uniform(0, 360)
        else:
            azim = base + rng.normal(0, 18)
        roll = rng.normal(0, 5) if rng.random() < 0.8 else rng.uniform(-180, 180)
    dist = scene.extent * rng.uniform(1.0, 2.8)
    cam = look_at(scene.centre, dist, elev, azim)
    cam.roll = np.radians(roll)
    pts = np.concatenate([t.face for t in scene.tiles] + [p.points for p in scene.polys]) if (scene.tiles or scene.polys) else (scene.centre + np.array([[-1, -1, 0], [1, 1, 0]]) * scene.extent / 2)
    fill = rng.uniform(0.6, 0.97) if rng.random() < 0.85 else rng.uniform(0.97, 1.3)
    if fit_pts is not None:
        pts, fill = fit_pts, rng.uniform(0.85, 1.2)
    return fit(cam, pts, w, h, fill, rng)


def _surface(scene: Scene, cam: Camera, rng: np.random.Generator, w: int, h: int, real: RealSurfaces | None) -> np.ndarray:
    tex, _kind = texture(rng, 768, 768, real)
    if scene.view in ("seat", "rack-close"):
        return cv2.resize(tex, (w, h))
    half = scene.extent * 2.0
    c = scene.centre
    quad = np.array([[c[0] - half, c[1] + half, 0], [c[0] + half, c[1] + half, 0], [c[0] + half, c[1] - half, 0], [c[0] - half, c[1] - half, 0]])
    if (cam.depth(quad) <= 1).any():
        return cv2.resize(tex, (w, h))
    dst = cam.project(quad).astype(np.float32)
    th, tw = tex.shape[:2]
    src = np.float32([[0, 0], [tw - 1, 0], [tw - 1, th - 1], [0, th - 1]])
    m = cv2.getPerspectiveTransform(src, dst)
    return cv2.warpPerspective(tex, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


def _warp_face(img: np.ndarray, tex: np.ndarray, quad: np.ndarray, shade: float) -> None:
    x0, y0 = np.floor(quad.min(0)).astype(int)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 1
    h, w = img.shape[:2]
    xs, ys, xe, ye = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if xe <= xs or ye <= ys:
        return
    src = np.float32([[0, 0], [FACE_W, 0], [FACE_W, FACE_H], [0, FACE_H]])
    m = cv2.getPerspectiveTransform(src, (quad - [xs, ys]).astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (xe - xs, ye - ys), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    a = warped[..., 3:4] * np.float32(1 / 255)
    roi = img[ys:ye, xs:xe]
    roi += (warped[..., :3] * np.float32(shade) - roi) * a


def _fill(img: np.ndarray, pts: np.ndarray, colour: np.ndarray | float) -> None:
    cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], colour, cv2.LINE_AA, shift=4)


def _hull(pts: np.ndarray) -> np.ndarray:
    return cv2.convexHull(pts.astype(np.float32)).reshape(-1, 2)


Region = tuple[slice, slice]


def _blur_radius(sigma: float) -> int:
    """How far GaussianBlur of a float32 image reaches (OpenCV's kernel is about 8 sigma wide)."""
    return int(np.ceil(4 * sigma)) + 1


def _region(mask: np.ndarray, margin: int) -> Region | None:
    """The box around the non-zero pixels of ``mask``, grown by ``margin`` and clipped to the frame.

    Blurring only this box gives the same values as blurring the whole frame when ``margin`` is at
    least the blur's reach: what lies beyond is zero, and the box's own border (zeros reflected) stays
    zero. Soft masks (shadows, hands, glare) mostly cover a small part of the photo."""
    rows = np.flatnonzero(mask.any(1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(mask.any(0))
    h, w = mask.shape[:2]
    return (slice(max(0, rows[0] - margin), min(h, rows[-1] + 1 + margin)),
            slice(max(0, cols[0] - margin), min(w, cols[-1] + 1 + margin)))


def render(scene: Scene, rng: np.random.Generator, w: int, h: int, real: RealSurfaces | None = None,
           surface: str | None = None, distractors: bool = True, styles: StyleSet = TRAIN) -> Rendered:
    """Render ``scene`` with tiles of one edition drawn from ``styles`` (``styles.TRAIN`` or ``HELD_OUT``);
    ``surface`` forces a background kind and ``distractors=False`` leaves out hands, objects, hard shadows
    and glare (both for tests that check labels against pixels)."""
    cam = _camera_for(scene, rng, w, h)
    if surface is None:
        img = _surface(scene, cam, rng, w, h, real)
    else:
        img = np.empty((h, w, 3), np.float32)
        img[:] = {"plain": (200.0, 200.0, 205.0), "dark": (50.0, 40.0, 35.0)}[surface]
    ids = np.zeros((h, w), np.int32)  # 0 background / occluder, k+1 tile k
    light = rng.normal(0, 1, 3)
    light[2] = abs(light[2]) + 1.2
    light /= np.linalg.norm(light)
    if scene.tiles:
        _tile_shadows(img, scene, cam, light, rng)

    edition = random_edition(rng, styles)  # one set per photo: shared plastic, font, size, circle, mark, shades
    drawables: list[tuple[float, int, object]] = []
    for k, t in enumerate(scene.tiles):
        drawables.append((float(cam.depth(t.face).mean()), k, t))
    for k, p in enumerate(scene.polys):
        drawables.append((float(cam.depth(p.points).mean()), 10_000 + k, p))
    drawables.sort(key=lambda d: -d[0])

    joker_inks = ["K", "R"] if rng.random() < 0.5 else ["R", "K"]  # one black and one red joker per set
    joker_of: dict[int, str] = {}
    face_quads: dict[int, np.ndarray] = {}
    hulls: dict[int, np.ndarray] = {}
    drawn: list[FaceStyle] = []
    for _depth, key, obj in drawables:
        if isinstance(obj, Poly3D):
            _draw_poly(img, ids, obj, cam, rng)
            continue
        t: Tile3D = obj  # type: ignore[assignment]
        if t.code == "J":
            colour = joker_of[key] = joker_inks[len(joker_of) % 2]
        elif t.code in SPECIAL_INKS:
            colour = SPECIAL_INKS[t.code]
        else:
            colour = t.code[0] if t.code else None
        st = tile_style(rng, edition, colour)
        drawn.append(st)
        face_quads[key], hulls[key] = _draw_tile(img, t, st, cam, light, rng)
        cv2.fillPoly(ids, [np.round(hulls[key]).astype(np.int32)], key + 1)

    tint = None
    if distractors:
        _hands(img, ids, rng, w, h, scene)
        tint = _lighting(img, ids, rng, w, h)

    labels: list[TileLabel] = []
    face_down: list[dict] = []
    for key, t in enumerate(scene.tiles):
        if key in hulls:
            _label(labels, face_down, ids, key, t, hulls[key], face_quads[key], joker_of.get(key, ""))
    meta = {"kind": scene.kind, "view": scene.view, "melds": scene.melds, "styles": styles.name, "edition": _edition_meta(edition, drawn)}
    return Rendered(_to_uint8(img, tint), labels, face_down, meta)


def _edition_meta(edition: Edition, drawn: list[FaceStyle]) -> dict:
    """What the photo's tiles looked like, by the names of styles.py (the sidecar's ``edition``)."""
    return {
        "fonts": sorted({FONT_STEMS[st.font] for st in drawn} | {FONT_STEMS[edition.font]}),
        "size": round(edition.size, 3),
        "size_range": [round(min((st.size for st in drawn), default=edition.size), 4), round(max((st.size for st in drawn), default=edition.size), 4)],
        "circle": edition.circle,
        "mark": edition.mark_text,
        "plastic": edition.plastic_name,
        "shades": {c: name for c, (name, _rgb) in edition.shades.items()},
        "joker": edition.joker_style,
        "okey": edition.okey,
        "twist": edition.twist,
        "weight": edition.weight,
        "stretch": edition.stretch,
    }


def _tile_shadows(img: np.ndarray, scene: Scene, cam: Camera, light: np.ndarray, rng: np.random.Generator) -> None:
    """Soft shadows of the tiles lying on the table."""
    h, w = img.shape[:2]
    shadow = np.zeros((h, w), np.float32)
    shift = -light[:2] / max(light[2], 0.3) * TILE_T * rng.uniform(0.6, 1.6)
    for t in scene.tiles:
        if t.on_table:
            foot = t.face.copy()
            foot[:, 2] = 0
            foot[:, :2] += shift
            pts = cam.project(np.concatenate([foot, t.face - t.normal * TILE_T]))
            _fill(shadow, _hull(pts), 1.0)
    tile_px = np.median([np.linalg.norm(np.diff(cam.project(t.face[:2]), axis=0)) for t in scene.tiles])
    sigma = max(0.8, tile_px * rng.uniform(0.03, 0.12))
    depth = rng.uniform(0.25, 0.6)
    region = _region(shadow, _blur_radius(sigma))
    if region is not None:
        img[region] *= (1 - depth * cv2.GaussianBlur(shadow[region], (0, 0), sigma))[..., None]


def _draw_poly(img: np.ndarray, ids: np.ndarray, obj: Poly3D, cam: Camera, rng: np.random.Generator) -> None:
    pts = cam.project(obj.points)
    col = np.asarray(obj.colour, np.float32) * obj.shade * rng.uniform(0.95, 1.05)
    _fill(img, pts, col.tolist())
    if obj.occludes:
        cv2.fillPoly(ids, [np.round(pts).astype(np.int32)], 0)


def _draw_tile(img: np.ndarray, t: Tile3D, st: FaceStyle, cam: Camera, light: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Paint the tile's visible sides and its face; returns the face quad and the outline in pixels."""
    front3, back3 = t.face, t.back
    px = cam.project(np.concatenate([front3, back3]))
    face, back = px[:4], px[4:]
    plastic = np.asarray(st.plastic, np.float32)
    # the four sides (edge i -> i + 1): centres, outward normals, which ones the camera sees
    nxt = [1, 2, 3, 0]
    mid3 = (front3 + front3[nxt] + back3 + back3[nxt]) / 4
    normals = mid3 - (front3.mean(0) + back3.mean(0)) / 2
    normals /= np.linalg.norm(normals, axis=1, keepdims=True) + 1e-9
    seen = np.einsum("ij,ij->i", cam.position - mid3, normals) > 0
    shades = 0.55 + 0.35 * np.maximum(0.0, normals @ light)
    visible_pts = [face]
    for i in np.flatnonzero(seen):
        j = nxt[i]
        quad = np.stack([face[i], face[j], back[j], back[i]])
        _fill(img, quad, (plastic * shades[i]).tolist())
        visible_pts.append(quad)
    shade = 0.8 + 0.25 * max(0.0, float(t.normal @ light))
    tex = render_face(t.code, st, rng)
    _warp_face(img, tex, face, shade)
    return face, _hull(np.concatenate(visible_pts))


def _label(labels: list[TileLabel], face_down: list[dict], ids: np.ndarray, key: int, t: Tile3D, hull: np.ndarray,
           fq: np.ndarray, joker_ink: str) -> None:
    """Measure what is really visible of tile ``key`` in the id buffer and label it (or not)."""
    h, w = ids.shape
    x0, y0 = np.floor(hull.min(0)).astype(int)
    x1, y1 = np.ceil(hull.max(0)).astype(int) + 1
    xs, ys, xe, ye = max(0, x0), max(0, y0), min(w, x1), min(h, y1)
    if xe - xs < 2 or ye - ys < 2:
        return
    full = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillPoly(full, [np.round(hull - [x0, y0]).astype(np.int32)], 1)
    full_area = max(1, int(full.sum()))
    mine = ids[ys:ye, xs:xe] == key + 1
    vis = float(mine.sum()) / full_area
    if t.code is None:
        if vis > 0.3:
            ys_, xs_ = np.nonzero(mine)
            face_down.append({"box": [float(xs + xs_.min()), float(ys + ys_.min()), float(xs + xs_.max() + 1), float(ys + ys_.max() + 1)], "code": t.true_code})
        return
    # the number's area (centre of the face) must be in view too
    m = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), fq.astype(np.float32))
    digit = cv2.perspectiveTransform(np.float32([[[0.2, 0.2], [0.8, 0.2], [0.8, 0.65], [0.2, 0.65]]]), m)[0]
    dmask = np.zeros_like(full)
    cv2.fillPoly(dmask, [np.round(digit - [x0, y0]).astype(np.int32)], 1)
    d_area = max(1, int(dmask.sum()))
    d_vis = float((dmask[ys - y0 : ye - y0, xs - x0 : xe - x0].astype(bool) & mine).sum()) / d_area
    if vis < MIN_VISIBLE or d_vis < MIN_DIGIT_VISIBLE or not mine.any():
        return
    yy, xx = np.nonzero(mine)
    box = (float(xs + xx.min()), float(ys + yy.min()), float(xs + xx.max() + 1), float(ys + yy.max() + 1))
    if box[2] - box[0] < MIN_SIDE_PX or box[3] - box[1] < MIN_SIDE_PX:
        return
    up = (fq[0] + fq[1]) / 2 - (fq[3] + fq[2]) / 2
    rotation = float(np.degrees(np.arctan2(up[0], -up[1])))
    jc = {"K": "black", "R": "red"}.get(joker_ink)
    labels.append(TileLabel(t.code, box, fq.round(1).tolist(), t.meld, t.order, round(rotation, 1), round(vis, 3), vis < 0.9, jc))


SKIN = [(224, 172, 140), (198, 134, 100), (141, 85, 56), (240, 200, 170), (170, 110, 80)]


def _hands(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator, w: int, h: int, scene: Scene) -> None:
    """Distractors: a hand reaching in from an edge, a cup, a playing card, a pen."""
    if rng.random() < 0.18:
        _hand(img, ids, rng, w, h)
    if rng.random() < 0.2:  # objects on the table, under nothing (drawn only where no tile is)
        _table_objects(img, ids, rng, w, h)


def _hand(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator, w: int, h: int) -> None:
    base = (np.asarray(SKIN[int(rng.integers(len(SKIN)))], np.float64) + rng.normal(0, 8, 3)).astype(np.float32)
    edge = int(rng.integers(4))
    size = rng.uniform(0.15, 0.35) * min(w, h)
    cx, cy = [(rng.uniform(0.2, 0.8) * w, 0), (w, rng.uniform(0.2, 0.8) * h), (rng.uniform(0.2, 0.8) * w, h), (0, rng.uniform(0.2, 0.8) * h)][edge]
    ang = [90, 180, 270, 0][edge] + rng.normal(0, 20)
    a = np.radians(ang)
    d = np.array([np.cos(a), np.sin(a)])
    palm = np.array([cx, cy]) + d * size * 0.5
    mask = np.zeros((h, w), np.uint8)
    cv2.ellipse(mask, tuple(int(v) for v in palm), (int(size * 0.55), int(size * 0.4)), ang, 0, 360, 255, -1)
    for f in range(4):
        off = (f - 1.5) * size * 0.22
        perp = np.array([-d[1], d[0]])
        start = palm + perp * off + d * size * 0.3
        end = start + d * size * rng.uniform(0.45, 0.7) + perp * rng.normal(0, size * 0.05)
        cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in end), 255, int(size * 0.16))
    # the skin's edge (1.5) and its shading (size / 10) are blurred where the hand can reach; the margin
    # holds both blurs, so the shading is exact wherever the soft edge is not zero
    region = _region(mask, _blur_radius(1.5) + _blur_radius(size * 0.1))
    if region is None:
        return
    m = mask[region].astype(np.float32) / 255
    soft = cv2.GaussianBlur(m, (0, 0), 1.5)[..., None]
    shading = 0.8 + 0.2 * cv2.GaussianBlur(m, (0, 0), size * 0.1)
    roi = img[region]
    roi[:] = roi * (1 - soft) + (base * shading[..., None]) * soft
    ids[region][mask[region] > 127] = 0


def _table_objects(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator, w: int, h: int) -> None:
    """A cup, a card or a pen on the free table; drawn into a copy of the box they can reach only."""
    objects = []
    for _ in range(int(rng.integers(1, 3))):
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.04, 0.12) * min(w, h)
        kind = int(rng.integers(3))
        col = rng.uniform(20, 240, 3).tolist()
        turn = rng.uniform(0, 180) if kind == 1 else 0.0
        suit = (200, 20, 30) if kind == 1 and rng.random() < 0.5 else (20, 20, 20)
        objects.append((kind, cx, cy, r, col, turn, suit))
    reach = max(2.2 * o[3] + 4 for o in objects)  # a pen is the longest: 2 r plus its width
    x0 = max(0, int(min(o[1] for o in objects) - reach))
    y0 = max(0, int(min(o[2] for o in objects) - reach))
    x1 = min(w, int(max(o[1] for o in objects) + reach) + 1)
    y1 = min(h, int(max(o[2] for o in objects) + reach) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    layer = img[y0:y1, x0:x1].copy()
    for kind, cx, cy, r, col, turn, suit in objects:
        c = (int(cx) - x0, int(cy) - y0)
        if kind == 0:  # cup from above
            cv2.circle(layer, c, int(r), col, -1, cv2.LINE_AA)
            cv2.circle(layer, c, int(r * 0.8), [v * 0.5 for v in col], -1, cv2.LINE_AA)
        elif kind == 1:  # a playing card
            box = cv2.boxPoints(((cx, cy), (r * 1.2, r * 1.7), turn)).astype(np.int32) - np.int32([x0, y0])
            cv2.fillPoly(layer, [box], (245, 245, 240), cv2.LINE_AA)
            cv2.circle(layer, c, int(r * 0.2), suit, -1, cv2.LINE_AA)
        else:  # a pen
            p2 = (int(cx + r * 2 * np.cos(cx)) - x0, int(cy + r * 2 * np.sin(cy)) - y0)
            cv2.line(layer, c, p2, col, max(2, int(r * 0.12)), cv2.LINE_AA)
    np.copyto(img[y0:y1, x0:x1], layer, where=(ids[y0:y1, x0:x1] == 0)[..., None])


def _lighting(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Warm or cold light, a light gradient, a hard shadow, glare on the plastic.

    Returns the light's colour (per-channel factors): the caller applies it while converting to uint8,
    which saves a pass over the frame; the glare added here is divided by it, so it stays uncoloured."""
    temp = rng.normal(0, 0.06)
    colour = np.array([1 + temp, 1 + temp * 0.2, 1 - temp])
    gain = _gradient(rng, w, h)
    if rng.random() < 0.25:  # hard shadow of the photographer or the phone
        poly = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h] for _ in range(int(rng.integers(3, 6)))], np.float32)
        m = np.zeros((h, w), np.float32)
        cv2.fillPoly(m, [_hull(poly).astype(np.int32)], 1.0)
        sigma, depth = rng.uniform(1, 12), rng.uniform(0.25, 0.55)
        region = _region(m, _blur_radius(sigma))
        if region is not None:
            gain[region] *= 1 - depth * cv2.GaussianBlur(m[region], (0, 0), sigma)
    img *= gain[..., None]
    if rng.random() < 0.35:  # specular glare on the glossy tiles
        _glare(img, ids, rng, w, h, colour)
    return colour


def _gradient(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Light falling off across the table, as a float32 gain map."""
    y, x = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    ang = rng.uniform(0, 2 * np.pi)
    g = (x * np.cos(ang) + y * np.sin(ang)) / max(w, h)
    grad = 1 + rng.uniform(-0.35, 0.25) * (g - g.mean())
    grad *= rng.uniform(0.7, 1.15)
    return cv2.resize(grad.astype(np.float32), (w, h))


def _glare(img: np.ndarray, ids: np.ndarray, rng: np.random.Generator, w: int, h: int, colour: np.ndarray) -> None:
    glare = np.zeros((h, w), np.float32)
    for _ in range(int(rng.integers(1, 4))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        axes = (int(rng.uniform(0.02, 0.12) * w), int(rng.uniform(0.01, 0.06) * h))
        cv2.ellipse(glare, c, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    sigma = rng.uniform(3, 15)
    strength = rng.uniform(40, 140)
    region = _region(glare, _blur_radius(sigma))
    if region is None:
        return
    spot = cv2.GaussianBlur(glare[region], (0, 0), sigma) * (ids[region] > 0)
    img[region] += spot[..., None] * (strength / colour).astype(np.float32)


def _to_uint8(img: np.ndarray, tint: np.ndarray | None = None) -> np.ndarray:
    """The float photo as uint8 RGB, times the light's colour, rounded and saturated in one pass."""
    c = (1.0, 1.0, 1.0) if tint is None else tuple(float(v) for v in tint)
    return cv2.multiply(img, (*c, 0.0), dtype=cv2.CV_8U)
