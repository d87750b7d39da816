"""Draw a reading on its photo: tile boxes with codes, melds outlined green (valid) or red.

Doubtful tiles get an orange box and a ``?`` after the code, with the confidence; each meld a
caption under it ("meld 2: run 26" or "meld 3: not valid"). Drawing is done with ``supervision``
(boxes, labels, polygons, text); line and text sizes follow the photo's size.
"""

from __future__ import annotations

import cv2
import numpy as np
import supervision as sv

from vision.types import Image, PhotoReading

TILE_COLOUR = sv.Color(r=40, g=120, b=255)  # blue: a confident read
DOUBT_COLOUR = sv.Color(r=255, g=150, b=0)  # orange: check this tile
VALID_COLOUR = sv.Color(r=30, g=200, b=60)
INVALID_COLOUR = sv.Color(r=230, g=30, b=30)


def annotate(image: Image, reading: PhotoReading) -> np.ndarray:
    """The photo (RGB, H x W x 3 uint8) with the reading drawn on it; the input is not changed."""
    # supervision draws with OpenCV, which takes colours as BGR: draw on a BGR copy
    scene = np.ascontiguousarray(image.rgb[:, :, ::-1])
    wh = (image.width, image.height)
    thickness = max(1, sv.calculate_optimal_line_thickness(resolution_wh=wh))
    text_scale = max(0.35, sv.calculate_optimal_text_scale(resolution_wh=wh))
    text_thickness = max(1, int(round(text_scale * 1.5)))
    padding = max(2, int(round(6 * text_scale)))

    outlines = []
    for k, meld in enumerate(reading.melds):
        corners = np.array(
            [[x, y] for i in meld.tiles for x, y in _corners(reading.tiles[i].box)], dtype=np.float32
        )
        if len(corners) == 0:
            continue
        hull = _grow(cv2.convexHull(corners).reshape(-1, 2), 2.0 * thickness + 2)
        colour = VALID_COLOUR if meld.valid else INVALID_COLOUR
        scene = sv.draw_polygon(scene=scene, polygon=hull.astype(np.int64), color=colour, thickness=thickness + 1)
        outlines.append((k, meld, hull, colour))

    if reading.tiles:
        detections = sv.Detections(
            xyxy=np.array([t.box for t in reading.tiles], dtype=np.float32),
            confidence=np.array([t.confidence for t in reading.tiles], dtype=np.float32),
            class_id=np.array([1 if t.doubtful else 0 for t in reading.tiles], dtype=int),
        )
        palette = sv.ColorPalette(colors=[TILE_COLOUR, DOUBT_COLOUR])
        labels = [f"{t.code}? {t.confidence:.0%}" if t.doubtful else t.code for t in reading.tiles]
        scene = sv.BoxAnnotator(color=palette, thickness=thickness).annotate(scene=scene, detections=detections)
        scene = sv.LabelAnnotator(
            color=palette,
            text_color=sv.Color.WHITE,
            text_scale=text_scale,
            text_thickness=text_thickness,
            text_padding=padding,
            text_position=sv.Position.TOP_LEFT,
            smart_position=True,
        ).annotate(scene=scene, detections=detections, labels=labels)

    # meld captions last, under each meld (the tile labels sit on top), so nothing hides them
    for k, meld, hull, colour in outlines:
        verdict = f"{meld.kind} {meld.value}" if meld.valid else "not valid"
        text = f"meld {k + 1}: {verdict}"
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, text_scale * 0.9, text_thickness)
        cx = float(np.clip(hull[:, 0].mean(), tw / 2 + padding, image.width - tw / 2 - padding))
        cy = float(min(hull[:, 1].max() + th / 2 + 2 * padding, image.height - th / 2 - padding))
        scene = sv.draw_text(
            scene=scene,
            text=text,
            text_anchor=sv.Point(x=cx, y=cy),  # the centre of the caption
            text_color=sv.Color.WHITE,
            text_scale=text_scale * 0.9,
            text_thickness=text_thickness,
            text_padding=padding,
            background_color=colour,
        )
    return np.ascontiguousarray(scene[:, :, ::-1])


def _corners(box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    x1, y1, x2, y2 = box
    return [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]


def _grow(polygon: np.ndarray, by: float) -> np.ndarray:
    """Push each vertex away from the centroid by ``by`` pixels (an outline around the tiles)."""
    centre = polygon.mean(axis=0)
    out = polygon - centre
    norm = np.linalg.norm(out, axis=1, keepdims=True)
    norm[norm == 0] = 1.0
    return polygon + out / norm * by
